/**
 * The pure half of `agent-run app register`: where GitHub's registration page and the conversion are
 * for github.com and for an Enterprise Server, the manifest from app.yml, the settings written, and
 * the env file merged around the operator's own lines.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import {
  apiUrlOfServer,
  appSettingsOf,
  buildAppManifest,
  conversionPath,
  installationUrl,
  registrationPageUrl,
  type RegisteredApp,
} from "../../../src/core/app-registration.js";
import { envLine, mergeEnvText, namesSetIn } from "../../../src/core/env-file.js";
import { githubServerAt } from "../../../src/core/github-hosts.js";

const APP_YML = parseYaml(readFileSync(join(process.cwd(), "app.yml"), "utf8")) as Record<string, unknown>;
const GITHUB_COM = githubServerAt("https://github.com");
const GHES = githubServerAt("https://github.example.com");
const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\n";
const APP: RegisteredApp = {
  id: 4242,
  slug: "my-bridge",
  name: "My Bridge",
  ownerLogin: "Octo-Org",
  htmlUrl: "https://github.com/apps/my-bridge",
  pem: PEM,
  webhookSecret: "f00dfeed",
};

describe("where the manifest flow goes", () => {
  it("github.com: the person's or the organization's settings page on github.com, the conversion on api.github.com", () => {
    expect(registrationPageUrl(GITHUB_COM, undefined, "s1")).toBe("https://github.com/settings/apps/new?state=s1");
    expect(registrationPageUrl(GITHUB_COM, "octo-org", "s1")).toBe("https://github.com/organizations/octo-org/settings/apps/new?state=s1");
    expect(apiUrlOfServer(GITHUB_COM)).toBe("https://api.github.com");
    expect(conversionPath("a/b?c")).toBe("/app-manifests/a%2Fb%3Fc/conversions");
  });

  it("an Enterprise Server: its own host for both, the API under /api/v3", () => {
    expect(registrationPageUrl(GHES, "octo-org", "s1")).toBe(
      "https://github.example.com/organizations/octo-org/settings/apps/new?state=s1",
    );
    expect(apiUrlOfServer(GHES)).toBe("https://github.example.com/api/v3");
  });

  it("the App is installed from its page's /installations/new", () => {
    expect(installationUrl(APP)).toBe("https://github.com/apps/my-bridge/installations/new");
  });
});

describe("the manifest", () => {
  const choices = {
    webhookUrl: "https://bridge.example.com/api/github/webhooks",
    redirectUrl: "http://127.0.0.1:5/callback",
    public: false,
  };

  it("keeps app.yml's permissions and events, and takes the name and URLs from the command", () => {
    const manifest = buildAppManifest(APP_YML, { ...choices, name: "My Bridge" });
    expect(manifest).toMatchObject({
      name: "My Bridge",
      hook_attributes: { url: choices.webhookUrl, active: true },
      redirect_url: choices.redirectUrl,
      public: false,
      default_permissions: APP_YML.default_permissions,
      default_events: APP_YML.default_events,
    });
    expect(buildAppManifest(APP_YML, choices).name).toBe(APP_YML.name);
  });

  it("says which field is wrong", () => {
    expect(() => buildAppManifest(APP_YML, { ...choices, webhookUrl: "bridge.example.com" })).toThrow(
      /--webhook-url "bridge.example.com" is not a URL/,
    );
    expect(() => buildAppManifest(APP_YML, { ...choices, webhookUrl: "ftp://x.example.com" })).toThrow(/must start with https/);
    expect(() => buildAppManifest(APP_YML, { ...choices, name: "x".repeat(35) })).toThrow(/longer than GitHub's 34 characters/);
    expect(() => buildAppManifest({ ...APP_YML, default_events: "issues" }, choices)).toThrow(/default_events must be a list/);
    expect(() => buildAppManifest({ ...APP_YML, default_permissions: { issues: "admin" } }, choices)).toThrow(/read or write/);
  });
});

describe("the settings written", () => {
  it("github.com: the id, the key base64-encoded on one line, the secret, and the owner for a private App", () => {
    const settings = Object.fromEntries(appSettingsOf(APP, GITHUB_COM, false));
    expect(settings).toEqual({
      APP_ID: "4242",
      PRIVATE_KEY: Buffer.from(PEM).toString("base64"),
      WEBHOOK_SECRET: "f00dfeed",
      ALLOWED_OWNERS: "octo-org",
    });
    expect(Object.fromEntries(appSettingsOf(APP, GITHUB_COM, true))).not.toHaveProperty("ALLOWED_OWNERS");
  });

  it("an Enterprise Server: GHE_HOST, and GHE_PROTOCOL only when it is not https", () => {
    expect(Object.fromEntries(appSettingsOf(APP, GHES, false))).toMatchObject({ GHE_HOST: "github.example.com" });
    expect(Object.fromEntries(appSettingsOf(APP, GHES, false))).not.toHaveProperty("GHE_PROTOCOL");
    expect(Object.fromEntries(appSettingsOf(APP, githubServerAt("http://10.0.0.5:8080"), false))).toMatchObject({
      GHE_HOST: "10.0.0.5:8080",
      GHE_PROTOCOL: "http",
    });
  });
});

describe("the env file", () => {
  it("replaces a setting's lines in place, keeps every other line, and appends what was missing under a heading", () => {
    const existing = "# mine\nAGENT_RUN_ORG_ID=42\nAPP_ID=\nexport WEBHOOK_SECRET=old # was\nAPP_ID=9\nPRIVATE_KEY_PATH=/k.pem\n";
    const text = mergeEnvText(
      existing,
      [
        ["APP_ID", "7"],
        ["WEBHOOK_SECRET", "new"],
        ["GHE_HOST", "h"],
      ],
      "registered",
      ["PRIVATE_KEY_PATH"],
    );
    expect(text).toBe("# mine\nAGENT_RUN_ORG_ID=42\nAPP_ID=7\nWEBHOOK_SECRET=new\n\n# registered\nGHE_HOST=h\n");
    expect(mergeEnvText("", [["APP_ID", "7"]], "registered")).toBe("# registered\nAPP_ID=7\n");
  });

  it("sees which credentials a file already sets (blank ones do not count)", () => {
    expect(
      namesSetIn("APP_ID=\nPRIVATE_KEY=''\nWEBHOOK_SECRET=x\n# PRIVATE_KEY_PATH=/k\n", [
        "APP_ID",
        "PRIVATE_KEY",
        "WEBHOOK_SECRET",
        "PRIVATE_KEY_PATH",
      ]),
    ).toEqual(["WEBHOOK_SECRET"]);
  });

  it("quotes only values an env-file reader would interpret, and Node reads every one back as written", () => {
    const values = ["abc+/=", "a$b #c", "it's", 'q"uo\\te'];
    const lines = values.map((value, index) => envLine(`V${index}`, value));
    expect(lines[0]).toBe("V0=abc+/=");
    expect(Object.values(parseEnv(lines.join("\n")))).toEqual(values);
  });
});
