/**
 * Registering the GitHub App from its manifest (GitHub's "Registering a GitHub App from a manifest"):
 * the manifest built from `app.yml` and the command's flags, where GitHub's registration page and the
 * code's conversion are for github.com or an Enterprise Server, and the settings the App reads that
 * follow from the answer. Pure: `agent-run app register` (cli/commands/app-register.ts) does the I/O.
 */
import type { GitHubServer } from "./github-hosts.js";
import { GITHUB_COM_API_URL } from "./github-hosts.js";

export interface AppManifest {
  name: string;
  url: string;
  description?: string;
  hook_attributes: { url: string; active: boolean };
  redirect_url: string;
  public: boolean;
  default_permissions: Record<string, string>;
  default_events: string[];
}

export interface ManifestChoices {
  /** The App's name on GitHub (unique there); default: app.yml's. */
  name?: string | undefined;
  /** Where GitHub delivers webhooks. */
  webhookUrl: string;
  /** Where GitHub sends the browser back with the code (the command's local page). */
  redirectUrl: string;
  /** Anyone may install it; default: only the owner account. */
  public: boolean;
}

/** app.yml cannot become a manifest: the message says which field is wrong. */
export class ManifestError extends Error {
  override name = "ManifestError";
}

/** GitHub's limit on an App's name. */
const MAX_APP_NAME_LENGTH = 34;
/** A GitHub login: letters, digits and single hyphens, not at either end, at most 39 characters. */
const LOGIN_PATTERN = /^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}$/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An http(s) URL without credentials, or the ManifestError naming `what`. */
export function checkedHttpUrl(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ManifestError(`${what} "${text}" is not a URL: it must look like https://bridge.example.com/api/github/webhooks.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ManifestError(`${what} "${text}" must start with https://.`);
  if (url.username || url.password) throw new ManifestError(`${what} must not carry a user name or password.`);
  return url.href;
}

/** Whether `name` can be a GitHub account or organization login. */
export function isGitHubLogin(name: string): boolean {
  return LOGIN_PATTERN.test(name);
}

/** The manifest GitHub's registration page takes: app.yml's permissions and events, the flags' name and URLs. */
export function buildAppManifest(appYml: unknown, choices: ManifestChoices): AppManifest {
  if (!isRecord(appYml))
    throw new ManifestError("the App manifest file is not a YAML mapping of name, default_events, default_permissions…");
  const name = (choices.name ?? (typeof appYml.name === "string" ? appYml.name : "")).trim();
  if (name === "") throw new ManifestError("the App needs a name: pass --name (it must be unique on GitHub).");
  if (name.length > MAX_APP_NAME_LENGTH)
    throw new ManifestError(`the App's name "${name}" is longer than GitHub's ${MAX_APP_NAME_LENGTH} characters.`);
  const events = appYml.default_events;
  if (!Array.isArray(events) || events.length === 0 || !events.every((event) => typeof event === "string")) {
    throw new ManifestError("the manifest's default_events must be a list of event names.");
  }
  const permissions = appYml.default_permissions;
  if (!isRecord(permissions) || !Object.values(permissions).every((level) => level === "read" || level === "write")) {
    throw new ManifestError("the manifest's default_permissions must map each permission to read or write.");
  }
  const homepage = typeof appYml.url === "string" ? appYml.url : "https://github.com/agent-run/agent-run-bridge";
  return {
    name,
    url: checkedHttpUrl(homepage, "the manifest's url"),
    ...(typeof appYml.description === "string" ? { description: appYml.description.trim() } : {}),
    hook_attributes: { url: checkedHttpUrl(choices.webhookUrl, "--webhook-url"), active: true },
    redirect_url: choices.redirectUrl,
    public: choices.public,
    default_permissions: permissions as Record<string, string>,
    default_events: events as string[],
  };
}

/** The REST API of a GitHub: api.github.com, or an Enterprise Server's `{origin}/api/v3`. */
export function apiUrlOfServer(server: GitHubServer): string {
  return server.enterprise ? `${server.webOrigin}/api/v3` : GITHUB_COM_API_URL;
}

/** GitHub's page that registers an App from a manifest: for the signed-in person's account, or for an organization. */
export function registrationPageUrl(server: GitHubServer, org: string | undefined, state: string): string {
  const path = org === undefined ? "/settings/apps/new" : `/organizations/${encodeURIComponent(org)}/settings/apps/new`;
  return `${server.webOrigin}${path}?state=${encodeURIComponent(state)}`;
}

/** Where the code from GitHub's redirect becomes the App's credentials (no authentication; once, within an hour). */
export function conversionPath(code: string): string {
  return `/app-manifests/${encodeURIComponent(code)}/conversions`;
}

/** What the conversion answered that the App needs (GitHub also answers client_id and client_secret, which it does not). */
export interface RegisteredApp {
  id: number;
  slug: string;
  name: string;
  ownerLogin: string;
  htmlUrl: string;
  pem: string;
  webhookSecret: string;
}

/** Where the App is installed on repositories: its page's `/installations/new`. */
export function installationUrl(app: Pick<RegisteredApp, "htmlUrl">): string {
  return `${app.htmlUrl.replace(/\/+$/, "")}/installations/new`;
}

/**
 * The settings (app/env.ts's names) the App reads that registration decided. The key goes base64-encoded
 * on one line: every reader of env files (docker --env-file, Compose, systemd, Node's --env-file) takes
 * it as is, where a PEM's line breaks need each one's own quoting. A private App serves only its owner
 * (ALLOWED_OWNERS); a public one leaves that to the operator.
 */
export function appSettingsOf(app: RegisteredApp, server: GitHubServer, isPublic: boolean): [name: string, value: string][] {
  const settings: [string, string][] = [
    ["APP_ID", String(app.id)],
    ["PRIVATE_KEY", Buffer.from(app.pem, "utf8").toString("base64")],
    ["WEBHOOK_SECRET", app.webhookSecret],
  ];
  if (server.enterprise) {
    const web = new URL(server.webOrigin);
    settings.push(["GHE_HOST", web.host]);
    if (web.protocol === "http:") settings.push(["GHE_PROTOCOL", "http"]);
  }
  if (!isPublic) settings.push(["ALLOWED_OWNERS", app.ownerLogin.toLowerCase()]);
  return settings;
}
