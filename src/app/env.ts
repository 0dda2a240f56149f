/**
 * The App's configuration from the environment: Probot's standard variables and ours, read once,
 * validated together, so that a missing or bad setting is reported in one message listing them all.
 */
import { readFileSync } from "node:fs";
import { LOGS_PATH_CHOICES, type LogsPathChoice } from "../service/wire.js";

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal";
const LOG_LEVELS: readonly LogLevel[] = ["trace", "debug", "info", "warn", "error", "fatal"];

export interface AppSettings {
  appId: number;
  privateKey: string;
  webhookSecret: string;
  port: number;
  /** Interface to listen on; undefined = every interface (Node's default). */
  host: string | undefined;
  webhookPath: string;
  /** GitHub Enterprise Server's API base (`{GHE_PROTOCOL}://{GHE_HOST}/api/v3`); undefined = api.github.com. */
  githubBaseUrl: string | undefined;
  logLevel: LogLevel;
  /** Probot's LOG_FORMAT: `pretty` for people (default), `json` for log collectors. */
  logFormat: "pretty" | "json";
  /** `logsPath`: where the logs endpoint is (AGENT_RUN_LOGS_PATH: auto, spec or alpha; default auto). */
  service: { baseUrl: string; token: string; orgId: number; logsPath: LogsPathChoice };
  dataDir: string;
  redisUrl: string | undefined;
  /** Namespace of the App's keys in Redis; default: one per service organization and API token. */
  redisKeyPrefix: string | undefined;
  /** `GET /metrics`: off, open (METRICS=true), or behind a bearer token (METRICS_TOKEN). */
  metrics: { enabled: boolean; token: string | undefined; repoLabels: boolean };
  /** `GET /status` is served only with a token (bearer or `?token=`). */
  statusToken: string | undefined;
  /** Scales every wait (1 = real time); for the demo and tests with the emulator only. */
  timeScale: number;
}

/** Some settings are missing or invalid; the message names every one of them. Exit code 2. */
export class AppConfigurationError extends Error {
  override name = "AppConfigurationError";
  constructor(
    readonly missing: string[],
    readonly invalid: string[],
  ) {
    const parts: string[] = [];
    if (missing.length > 0) parts.push(`missing ${missing.join(", ")}`);
    if (invalid.length > 0) parts.push(`invalid ${invalid.join("; ")}`);
    super(
      `The GitHub App cannot start: ${parts.join("; and ")}. Set them in the environment ` +
        "(APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH and WEBHOOK_SECRET come from the App's settings page on GitHub; " +
        "AGENT_RUN_API_URL, AGENT_RUN_API_TOKEN and AGENT_RUN_ORG_ID from the Agent Run Service).",
    );
  }
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_WEBHOOK_PATH = "/api/github/webhooks";
export const DEFAULT_DATA_DIR = ".data";

type Env = Readonly<Record<string, string | undefined>>;

const value = (env: Env, name: string) => {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
};

/** A PEM key from PRIVATE_KEY: `\n` written as two characters (as .env files do) or the whole key base64-encoded both work. */
function normalizePrivateKey(raw: string): string | undefined {
  const unescaped = raw.replace(/\\n/g, "\n");
  if (unescaped.includes("-----BEGIN")) return unescaped;
  const decoded = Buffer.from(raw, "base64").toString("utf8");
  return decoded.includes("-----BEGIN") ? decoded : undefined;
}

/** Parses the environment; throws AppConfigurationError listing everything missing or invalid. */
export function parseAppEnv(env: Env): AppSettings {
  const missing: string[] = [];
  const invalid: string[] = [];
  const required = (name: string) => {
    const found = value(env, name);
    if (found === undefined) missing.push(name);
    return found;
  };
  const positiveInteger = (name: string, raw: string | undefined) => {
    if (raw === undefined) return 0;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed <= 0) {
      invalid.push(`${name} (must be a positive integer, got "${raw}")`);
      return 0;
    }
    return parsed;
  };

  const appId = positiveInteger("APP_ID", required("APP_ID"));

  let privateKey: string | undefined;
  const keyText = value(env, "PRIVATE_KEY");
  const keyPath = value(env, "PRIVATE_KEY_PATH");
  if (keyText !== undefined) {
    privateKey = normalizePrivateKey(keyText);
    if (privateKey === undefined) invalid.push("PRIVATE_KEY (must be the App's PEM private key, or that key base64-encoded)");
  } else if (keyPath !== undefined) {
    try {
      privateKey = normalizePrivateKey(readFileSync(keyPath, "utf8"));
      if (privateKey === undefined) invalid.push(`PRIVATE_KEY_PATH (${keyPath} holds no PEM private key)`);
    } catch (error) {
      invalid.push(`PRIVATE_KEY_PATH (cannot read ${keyPath}: ${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  } else {
    missing.push("PRIVATE_KEY or PRIVATE_KEY_PATH");
  }

  const webhookSecret = required("WEBHOOK_SECRET");

  const portText = value(env, "PORT");
  let port = DEFAULT_PORT;
  if (portText !== undefined) {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) invalid.push(`PORT (must be a port number from 0 to 65535, got "${portText}")`);
  }

  const webhookPath = value(env, "WEBHOOK_PATH") ?? DEFAULT_WEBHOOK_PATH;
  if (!webhookPath.startsWith("/")) invalid.push(`WEBHOOK_PATH (must start with "/", got "${webhookPath}")`);

  const gheHost = value(env, "GHE_HOST");
  const gheProtocol = value(env, "GHE_PROTOCOL") ?? "https";
  if (gheProtocol !== "https" && gheProtocol !== "http") invalid.push(`GHE_PROTOCOL (must be https or http, got "${gheProtocol}")`);
  if (gheHost !== undefined && /[/\s]/.test(gheHost)) invalid.push(`GHE_HOST (must be a host name such as github.example.com, got "${gheHost}")`);

  const levelText = value(env, "LOG_LEVEL")?.toLowerCase() ?? "info";
  const logLevel = LOG_LEVELS.find((level) => level === levelText);
  if (!logLevel) invalid.push(`LOG_LEVEL (must be one of ${LOG_LEVELS.join(", ")}, got "${levelText}")`);

  const formatText = value(env, "LOG_FORMAT")?.toLowerCase() ?? "pretty";
  if (formatText !== "pretty" && formatText !== "json") invalid.push(`LOG_FORMAT (must be pretty or json, got "${formatText}")`);

  const apiUrl = required("AGENT_RUN_API_URL");
  if (apiUrl !== undefined && !/^https?:\/\/[^\s/]+/i.test(apiUrl)) invalid.push(`AGENT_RUN_API_URL (must be an http(s) URL, got "${apiUrl}")`);
  const apiToken = required("AGENT_RUN_API_TOKEN");
  const orgId = positiveInteger("AGENT_RUN_ORG_ID", required("AGENT_RUN_ORG_ID"));

  const logsPathText = value(env, "AGENT_RUN_LOGS_PATH")?.toLowerCase() ?? "auto";
  const logsPath = LOGS_PATH_CHOICES.find((choice) => choice === logsPathText);
  if (!logsPath) invalid.push(`AGENT_RUN_LOGS_PATH (must be one of ${LOGS_PATH_CHOICES.join(", ")}, got "${logsPathText}")`);

  const redisUrl = value(env, "REDIS_URL");
  if (redisUrl !== undefined && !/^rediss?:\/\//i.test(redisUrl)) invalid.push("REDIS_URL (must start with redis:// or rediss://)");

  const flag = (name: string): boolean => {
    const raw = value(env, name)?.toLowerCase();
    if (raw === undefined || raw === "false" || raw === "0") return false;
    if (raw === "true" || raw === "1") return true;
    invalid.push(`${name} (must be true or false, got "${raw}")`);
    return false;
  };
  const metricsToken = value(env, "METRICS_TOKEN");
  const metrics = { enabled: flag("METRICS") || metricsToken !== undefined, token: metricsToken, repoLabels: flag("METRICS_REPO_LABELS") };

  const scaleText = value(env, "AGENT_RUN_TIME_SCALE");
  let timeScale = 1;
  if (scaleText !== undefined) {
    timeScale = Number(scaleText);
    if (!(timeScale > 0) || !Number.isFinite(timeScale)) invalid.push(`AGENT_RUN_TIME_SCALE (must be a positive number, got "${scaleText}")`);
  }

  if (missing.length > 0 || invalid.length > 0) throw new AppConfigurationError(missing, invalid);
  return {
    appId,
    privateKey: privateKey!,
    webhookSecret: webhookSecret!,
    port,
    host: value(env, "HOST"),
    webhookPath,
    githubBaseUrl: gheHost ? `${gheProtocol}://${gheHost}/api/v3` : undefined,
    logLevel: logLevel!,
    logFormat: formatText === "json" ? "json" : "pretty",
    service: { baseUrl: apiUrl!, token: apiToken!, orgId, logsPath: logsPath! },
    dataDir: value(env, "DATA_DIR") ?? DEFAULT_DATA_DIR,
    redisUrl,
    redisKeyPrefix: value(env, "REDIS_KEY_PREFIX"),
    metrics,
    statusToken: value(env, "STATUS_TOKEN"),
    timeScale,
  };
}
