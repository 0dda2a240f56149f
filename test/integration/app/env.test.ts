/** The App's settings from the environment: Probot's names and ours, every problem in one message. */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAppEnv } from "../../../src/app/env.js";
import { testPrivateKey } from "../../helpers/app-harness.js";
import { appConfigurationError as problems } from "../../helpers/app-settings.js";

const complete = () => ({
  APP_ID: "1001",
  PRIVATE_KEY: testPrivateKey(),
  WEBHOOK_SECRET: "s3cret",
  AGENT_RUN_API_URL: "https://agents.example.com",
  AGENT_RUN_API_TOKEN: "tok_abcdefghijkl",
  AGENT_RUN_ORG_ID: "7",
});

describe("parseAppEnv", () => {
  it("takes the service over https://, and plain http:// only on loopback", () => {
    for (const url of [
      "https://agents.example.com",
      "http://127.0.0.1:4010",
      "http://127.9.0.3",
      "http://localhost:4010",
      "http://[::1]:4010",
    ]) {
      expect(parseAppEnv({ ...complete(), AGENT_RUN_API_URL: url }).service.baseUrl, url).toBe(url);
    }
    for (const url of [
      "http://agents.example.com",
      "http://10.0.0.5:4010",
      "http://127.0.0.1.nip.io",
      "http://[::2]",
      "ftp://agents.example.com",
    ]) {
      expect(problems({ ...complete(), AGENT_RUN_API_URL: url }).invalid, url).toEqual([
        `AGENT_RUN_API_URL (must be an https:// URL such as https://agents.example.com (plain http:// only on loopback: 127.0.0.1, ::1 or localhost), without credentials in it, got "${url}")`,
      ]);
    }
    expect(problems({ ...complete(), AGENT_RUN_API_URL: "https://me:pw@agents.example.com" }).message).not.toContain("pw");
  });

  it("takes AGENT_RUN_RUNS_URL, the service's page of runs, by the same rule, and refuses a javascript: or clear-text one", () => {
    expect(parseAppEnv(complete()).service.runsUrl).toBeUndefined();
    expect(parseAppEnv({ ...complete(), AGENT_RUN_RUNS_URL: "https://agents.example.com/runs" }).service.runsUrl).toBe(
      "https://agents.example.com/runs",
    );
    expect(parseAppEnv({ ...complete(), AGENT_RUN_RUNS_URL: "http://127.0.0.1:4010/runs" }).service.runsUrl).toBe(
      "http://127.0.0.1:4010/runs",
    );
    for (const url of ["javascript:alert(1)", "http://agents.example.com/runs", "data:text/html,hi", "runs"]) {
      expect(problems({ ...complete(), AGENT_RUN_RUNS_URL: url }).invalid, url).toEqual([
        `AGENT_RUN_RUNS_URL (must be an https:// URL such as https://agents.example.com (plain http:// only on loopback: 127.0.0.1, ::1 or localhost), without credentials in it, got "${url}")`,
      ]);
    }
    expect(problems({ ...complete(), AGENT_RUN_RUNS_URL: "https://me:pw@agents.example.com/runs" }).message).not.toContain("pw");
  });

  it("fills Probot's defaults and ours", () => {
    const settings = parseAppEnv(complete());
    expect(settings).toMatchObject({
      appId: 1001,
      webhookSecret: "s3cret",
      port: 3000,
      host: undefined,
      webhookPath: "/api/github/webhooks",
      githubBaseUrl: undefined,
      logLevel: "info",
      logFormat: "pretty",
      service: { baseUrl: "https://agents.example.com", token: "tok_abcdefghijkl", orgId: 7, logsPath: "auto" },
      dataDir: ".data",
      redisUrl: undefined,
      timeScale: 1,
    });
  });

  it("reads AGENT_RUN_LOGS_PATH (auto, spec or alpha, any case) and names a bad value", () => {
    expect(parseAppEnv({ ...complete(), AGENT_RUN_LOGS_PATH: "Alpha" }).service.logsPath).toBe("alpha");
    expect(parseAppEnv({ ...complete(), AGENT_RUN_LOGS_PATH: "spec" }).service.logsPath).toBe("spec");
    expect(() => parseAppEnv({ ...complete(), AGENT_RUN_LOGS_PATH: "v2" })).toThrow(
      'AGENT_RUN_LOGS_PATH (must be one of auto, spec, alpha, got "v2")',
    );
  });

  it("reads REDACT_PATTERNS (one per line) and names each bad line without quoting it", () => {
    const settings = parseAppEnv({ ...complete(), REDACT_PATTERNS: "secret-[0-9]+\n(?i)falcon" });
    expect(settings.redactPatterns.map((pattern) => `${pattern.source}/${pattern.flags}`)).toEqual(["secret-[0-9]+/g", "falcon/gi"]);
    expect(() => parseAppEnv({ ...complete(), REDACT_PATTERNS: "ok\n(hunter2\nx*" })).toThrow(
      "invalid REDACT_PATTERNS (line 2 is not a valid regular expression (Unterminated group)); REDACT_PATTERNS (line 3 matches the empty string; make it match at least one character)",
    );
    expect(problems({ ...complete(), REDACT_PATTERNS: "(hunter2" }).message).not.toContain("hunter2");
  });

  it("reads DELIVERY_RECOVERY_INTERVAL: 5 minutes by default, 0 turns recovery off, a bad value is named", () => {
    expect(parseAppEnv(complete()).deliveryRecoveryIntervalMs).toBe(300_000);
    expect(parseAppEnv({ ...complete(), DELIVERY_RECOVERY_INTERVAL: "0" }).deliveryRecoveryIntervalMs).toBe(0);
    expect(parseAppEnv({ ...complete(), DELIVERY_RECOVERY_INTERVAL: "90s" }).deliveryRecoveryIntervalMs).toBe(90_000);
    expect(parseAppEnv({ ...complete(), DELIVERY_RECOVERY_INTERVAL: "1H" }).deliveryRecoveryIntervalMs).toBe(3_600_000);
    expect(parseAppEnv({ ...complete(), DELIVERY_RECOVERY_INTERVAL: "120" }).deliveryRecoveryIntervalMs).toBe(120_000);
    for (const bad of ["five minutes", "-5m", "500ms"]) {
      expect(() => parseAppEnv({ ...complete(), DELIVERY_RECOVERY_INTERVAL: bad })).toThrow(
        `DELIVERY_RECOVERY_INTERVAL (must be 0 to turn recovery off, or a duration of at least 1s such as 5m, 90s or 1h; got "${bad}")`,
      );
    }
  });

  it("reads RUN_RECOVERY_INTERVAL (10 minutes by default, 0 off) and RUN_RECOVERY_MAX_REQUESTS (200), and names a bad value", () => {
    expect(parseAppEnv(complete())).toMatchObject({ runRecoveryIntervalMs: 600_000, runRecoveryMaxRequests: 200 });
    expect(parseAppEnv({ ...complete(), RUN_RECOVERY_INTERVAL: "0", RUN_RECOVERY_MAX_REQUESTS: "50" })).toMatchObject({
      runRecoveryIntervalMs: 0,
      runRecoveryMaxRequests: 50,
    });
    expect(parseAppEnv({ ...complete(), RUN_RECOVERY_INTERVAL: "30m" }).runRecoveryIntervalMs).toBe(1_800_000);
    expect(() => parseAppEnv({ ...complete(), RUN_RECOVERY_INTERVAL: "often" })).toThrow(
      'RUN_RECOVERY_INTERVAL (must be 0 to turn recovery off, or a duration of at least 1s such as 5m, 90s or 1h; got "often")',
    );
    for (const bad of ["0", "-1", "lots", "2.5"]) {
      expect(() => parseAppEnv({ ...complete(), RUN_RECOVERY_MAX_REQUESTS: bad })).toThrow(
        `RUN_RECOVERY_MAX_REQUESTS (must be a whole number of GitHub requests of at least 1, such as 200; got "${bad}")`,
      );
    }
  });

  it("reads GHE_HOST/GHE_PROTOCOL, the key as written in .env files (\\n) or base64, or from PRIVATE_KEY_PATH", () => {
    const pem = testPrivateKey();
    expect(parseAppEnv({ ...complete(), GHE_HOST: "github.example.com" }).githubBaseUrl).toBe("https://github.example.com/api/v3");
    expect(parseAppEnv({ ...complete(), GHE_HOST: "127.0.0.1:8080", GHE_PROTOCOL: "http" }).githubBaseUrl).toBe(
      "http://127.0.0.1:8080/api/v3",
    );
    expect(parseAppEnv({ ...complete(), PRIVATE_KEY: pem.replace(/\n/g, "\\n") }).privateKey).toBe(pem);
    expect(parseAppEnv({ ...complete(), PRIVATE_KEY: Buffer.from(pem).toString("base64") }).privateKey).toBe(pem);
    const dir = mkdtempSync(join(tmpdir(), "arb-env-"));
    try {
      writeFileSync(join(dir, "app.pem"), pem);
      const { PRIVATE_KEY: _key, ...withoutKey } = complete();
      expect(parseAppEnv({ ...withoutKey, PRIVATE_KEY_PATH: join(dir, "app.pem") }).privateKey).toBe(pem);
      expect(problems({ ...withoutKey, PRIVATE_KEY_PATH: join(dir, "missing.pem") }).invalid).toEqual([
        `PRIVATE_KEY_PATH (cannot read ${join(dir, "missing.pem")}: ENOENT)`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names every missing and invalid setting at once, and never echoes a secret", () => {
    const error = problems({
      PORT: "99999",
      AGENT_RUN_ORG_ID: "x",
      GHE_PROTOCOL: "ftp",
      LOG_LEVEL: "loud",
      PRIVATE_KEY: "not a key",
      AGENT_RUN_TIME_SCALE: "0",
    });
    expect(error.missing).toEqual(["APP_ID", "WEBHOOK_SECRET", "AGENT_RUN_API_URL", "AGENT_RUN_API_TOKEN"]);
    expect(error.invalid).toEqual([
      "PRIVATE_KEY (must be the App's PEM private key, or that key base64-encoded)",
      'PORT (must be a port number from 0 to 65535, got "99999")',
      'GHE_PROTOCOL (must be https or http, got "ftp")',
      'LOG_LEVEL (must be one of trace, debug, info, warn, error, fatal, got "loud")',
      'AGENT_RUN_ORG_ID (must be a positive integer, got "x")',
      'AGENT_RUN_TIME_SCALE (must be a positive number, got "0")',
    ]);
    expect(error.message).toMatch(
      /^The GitHub App cannot start: missing APP_ID, WEBHOOK_SECRET, AGENT_RUN_API_URL, AGENT_RUN_API_TOKEN; and invalid PRIVATE_KEY/,
    );
    expect(error.message).not.toContain("not a key");
    expect(problems({ ...complete(), AGENT_RUN_API_TOKEN: "" }).message).not.toContain("tok_");
  });

  it("refuses a weak STATUS_TOKEN or METRICS_TOKEN, says how to make one, and never quotes it", () => {
    const strong = "Zk3-" + "q".repeat(28);
    expect(parseAppEnv({ ...complete(), STATUS_TOKEN: strong, METRICS_TOKEN: strong }).statusToken).toBe(strong);
    const make =
      "make one with `openssl rand -hex 32` or `node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"`";
    for (const [name, weak, why] of [
      ["STATUS_TOKEN", "letmein", "is 7 characters long; it must have at least 32"],
      ["STATUS_TOKEN", "a".repeat(31) + "1", null],
      ["METRICS_TOKEN", "x".repeat(40), "uses one kind of character only; it must mix at least two of letters, digits and symbols"],
      ["METRICS_TOKEN", "1234567890".repeat(4), "uses one kind of character only; it must mix at least two of letters, digits and symbols"],
    ] as const) {
      if (why === null) {
        expect(parseAppEnv({ ...complete(), [name]: weak })).toBeDefined();
        continue;
      }
      const error = problems({ ...complete(), [name]: weak });
      expect(error.invalid).toEqual([`${name} (${why}: ${make})`]);
      expect(error.message).not.toContain(weak);
    }
  });

  it("accepts what the suggested commands make, every time", () => {
    expect(
      parseAppEnv({ ...complete(), STATUS_TOKEN: execFileSync("openssl", ["rand", "-hex", "32"], { encoding: "utf8" }) }),
    ).toBeDefined();
    // All 64 hex characters digits (or all letters) has a chance below 1 in 10^13; base64url mixes kinds as surely.
    for (let i = 0; i < 2_000; i++) {
      expect(() => parseAppEnv({ ...complete(), STATUS_TOKEN: randomBytes(32).toString("hex") })).not.toThrow();
      expect(() => parseAppEnv({ ...complete(), METRICS_TOKEN: randomBytes(32).toString("base64url") })).not.toThrow();
    }
  });

  it("reads TRUST_PROXY (a hop count or the proxies' addresses) and refuses `true`, which would believe any client", () => {
    expect(parseAppEnv(complete()).trustProxy).toBe(0);
    expect(parseAppEnv({ ...complete(), TRUST_PROXY: "false" }).trustProxy).toBe(0);
    expect(parseAppEnv({ ...complete(), TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(parseAppEnv({ ...complete(), TRUST_PROXY: "loopback, 10.0.0.0/8" }).trustProxy).toEqual(["loopback", "10.0.0.0/8"]);
    expect(problems({ ...complete(), TRUST_PROXY: "true" }).invalid).toEqual([
      "TRUST_PROXY (must be the number of proxies in front of the App, or their addresses or subnets such as loopback, 10.0.0.0/8; never true, which lets any client choose its own address)",
    ]);
    expect(problems({ ...complete(), TRUST_PROXY: "10.0.0.0/99" }).invalid[0]).toMatch(
      /^TRUST_PROXY \(must be .*; invalid range on address: 10.0.0.0\/99\)$/,
    );
  });

  it("reads ALLOWED_OWNERS: comma-separated logins in any case, each entry that is no login named", () => {
    expect(parseAppEnv(complete()).allowedOwners).toBeNull();
    expect([...parseAppEnv({ ...complete(), ALLOWED_OWNERS: " Octo-Org, octocat ,,emu_corp " }).allowedOwners!]).toEqual([
      "octo-org",
      "octocat",
      "emu_corp",
    ]);
    expect(problems({ ...complete(), ALLOWED_OWNERS: "octo-org, @octocat, https://github.com/x" }).invalid).toEqual([
      'ALLOWED_OWNERS (must be GitHub logins separated by commas, such as octo-org,octocat; not "@octocat", "https://github.com/x")',
    ]);
    expect(problems({ ...complete(), ALLOWED_OWNERS: " , " }).invalid).toEqual([
      "ALLOWED_OWNERS (names no account; unset it to serve every installation)",
    ]);
  });
});
