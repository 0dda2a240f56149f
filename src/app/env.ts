/**
 * The App's configuration from the environment: Probot's standard variables and ours, read once,
 * validated together, so that a missing or bad setting is reported in one message listing them all.
 */
import { readFileSync } from "node:fs";
import proxyAddr from "@fastify/proxy-addr";
import { parseAllowedOwners, type AllowedOwners } from "../core/allowed-owners.js";
import { MAKE_OPERATOR_TOKEN, operatorTokenWeakness } from "../core/operator-token.js";
import { compileRedactPatterns, splitRedactPatterns } from "../core/redact.js";
import { LOGS_PATH_CHOICES, type LogsPathChoice } from "../service/wire.js";
import { isAllowedServiceUrl, SERVICE_URL_RULE, urlForMessage } from "../service/service-url.js";
import { readTracingSettings, type TracingSettings } from "./ops/tracing.js";

type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal";
const LOG_LEVELS: readonly LogLevel[] = ["trace", "debug", "info", "warn", "error", "fatal"];

export interface AppSettings {
  appId: number;
  privateKey: string;
  webhookSecret: string;
  /** WEBHOOK_SECRET_PREVIOUS: also accepted while a new webhook secret is rolled out (docs/operations.md, rotation). */
  webhookSecretPrevious: string | undefined;
  port: number;
  /** Interface to listen on; undefined = every interface (Node's default). */
  host: string | undefined;
  webhookPath: string;
  /** GitHub Enterprise Server's API base (`{GHE_PROTOCOL}://{GHE_HOST}/api/v3`); undefined = api.github.com. */
  githubBaseUrl: string | undefined;
  logLevel: LogLevel;
  /** Probot's LOG_FORMAT: `pretty` for people (default), `json` for log collectors. */
  logFormat: "pretty" | "json";
  /**
   * `logsPath`: where the logs endpoint is (AGENT_RUN_LOGS_PATH: auto, spec or alpha; default auto).
   * `runsUrl`: the service's web page of the organization's runs (AGENT_RUN_RUNS_URL), linked when a run may have started unseen.
   */
  service: { baseUrl: string; token: string; orgId: number; logsPath: LogsPathChoice; runsUrl: string | undefined };
  dataDir: string;
  redisUrl: string | undefined;
  /** Redis's password when given apart from REDIS_URL (REDIS_PASSWORD, from a secret); the URL's own otherwise. */
  redisPassword: string | undefined;
  /** The CA (PEM) Redis's TLS certificate is verified with (REDIS_TLS_CA_PATH); undefined = Node's public roots. */
  redisTlsCa: string | undefined;
  /** Namespace of the App's keys in Redis; default: one per service organization and GitHub App (store/namespace.ts). */
  redisKeyPrefix: string | undefined;
  /** `GET /metrics`: off, open (METRICS=true), or behind a bearer token (METRICS_TOKEN). */
  /** `automationLabels`: the automation's name on the started-runs counter (METRICS_AUTOMATION_LABEL; names are the repositories' to choose). */
  metrics: { enabled: boolean; token: string | undefined; repoLabels: boolean; automationLabels: boolean };
  /** `GET /status` and `GET /healthz?verbose` are served only with this token (bearer, or the status page's sign-in cookie). */
  statusToken: string | undefined;
  /**
   * Which proxies in front of the App to believe about the client's address (TRUST_PROXY), for the
   * throttle of wrong tokens: 0 = none (the socket's peer is the client), a number = that many hops
   * of `X-Forwarded-For`, or the proxies' addresses and subnets.
   */
  trustProxy: number | string[];
  /** The accounts and organizations whose installations the App serves (ALLOWED_OWNERS, lower-cased); null = any. */
  allowedOwners: AllowedOwners;
  /** Scales every wait (1 = real time); for the demo and tests with the emulator only. */
  timeScale: number;
  /** The operator's own redaction patterns (REDACT_PATTERNS, one per line), on top of the built-in ones. */
  redactPatterns: RegExp[];
  /** How often failed webhook deliveries are looked for and redelivered (DELIVERY_RECOVERY_INTERVAL); 0 = never. */
  deliveryRecoveryIntervalMs: number;
  /** How often tracking comments still saying "working" are matched against the store (RUN_RECOVERY_INTERVAL); 0 = never. */
  runRecoveryIntervalMs: number;
  /** GitHub reads one run recovery sweep may make (RUN_RECOVERY_MAX_REQUESTS). */
  runRecoveryMaxRequests: number;
  /** OpenTelemetry traces (OTEL_TRACES_EXPORTER=otlp and the other OTEL_* variables); null = off. */
  tracing: TracingSettings | null;
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

const DEFAULT_PORT = 3000;
const DEFAULT_WEBHOOK_PATH = "/api/github/webhooks";
const DEFAULT_DATA_DIR = ".data";
const DEFAULT_DELIVERY_RECOVERY_INTERVAL_MS = 5 * 60_000;
const MIN_DELIVERY_RECOVERY_INTERVAL_MS = 1_000;
const DEFAULT_RUN_RECOVERY_INTERVAL_MS = 10 * 60_000;
const DEFAULT_RUN_RECOVERY_MAX_REQUESTS = 200;
const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

type Env = Readonly<Record<string, string | undefined>>;

/** A PEM key from PRIVATE_KEY: `\n` written as two characters (as .env files do) or the whole key base64-encoded both work. */
function normalizePrivateKey(raw: string): string | undefined {
  const unescaped = raw.replace(/\\n/g, "\n");
  if (unescaped.includes("-----BEGIN")) return unescaped;
  const decoded = Buffer.from(raw, "base64").toString("utf8");
  return decoded.includes("-----BEGIN") ? decoded : undefined;
}

/** Reads variables, noting what is missing and what is invalid in the order they are read (the error lists them so). */
class EnvReader {
  readonly missing: string[] = [];
  readonly invalid: string[] = [];

  constructor(private readonly env: Env) {}

  /** The value as set, untrimmed (a password). */
  raw(name: string): string | undefined {
    return this.env[name];
  }

  /** The trimmed value; unset and blank are alike. */
  value(name: string): string | undefined {
    const raw = this.env[name]?.trim();
    return raw ? raw : undefined;
  }

  required(name: string): string | undefined {
    const found = this.value(name);
    if (found === undefined) this.missing.push(name);
    return found;
  }

  /** 0 when unset or invalid (then noted). */
  positiveInteger(name: string, raw: string | undefined): number {
    if (raw === undefined) return 0;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed <= 0) {
      this.invalid.push(`${name} (must be a positive integer, got "${raw}")`);
      return 0;
    }
    return parsed;
  }

  flag(name: string): boolean {
    const raw = this.value(name)?.toLowerCase();
    if (raw === undefined || raw === "false" || raw === "0") return false;
    if (raw === "true" || raw === "1") return true;
    this.invalid.push(`${name} (must be true or false, got "${raw}")`);
    return false;
  }
}

/** PRIVATE_KEY, else the file PRIVATE_KEY_PATH names. */
function readPrivateKey(read: EnvReader): string | undefined {
  const keyText = read.value("PRIVATE_KEY");
  const keyPath = read.value("PRIVATE_KEY_PATH");
  if (keyText !== undefined) {
    const privateKey = normalizePrivateKey(keyText);
    if (privateKey === undefined) read.invalid.push("PRIVATE_KEY (must be the App's PEM private key, or that key base64-encoded)");
    return privateKey;
  }
  if (keyPath === undefined) {
    read.missing.push("PRIVATE_KEY or PRIVATE_KEY_PATH");
    return undefined;
  }
  try {
    const privateKey = normalizePrivateKey(readFileSync(keyPath, "utf8"));
    if (privateKey === undefined) read.invalid.push(`PRIVATE_KEY_PATH (${keyPath} holds no PEM private key)`);
    return privateKey;
  } catch (error) {
    read.invalid.push(`PRIVATE_KEY_PATH (cannot read ${keyPath}: ${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return undefined;
  }
}

/** Where webhooks arrive: PORT and WEBHOOK_PATH. */
function readListener(read: EnvReader): { port: number; webhookPath: string } {
  const portText = read.value("PORT");
  let port = DEFAULT_PORT;
  if (portText !== undefined) {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      read.invalid.push(`PORT (must be a port number from 0 to 65535, got "${portText}")`);
  }
  const webhookPath = read.value("WEBHOOK_PATH") ?? DEFAULT_WEBHOOK_PATH;
  if (!webhookPath.startsWith("/")) read.invalid.push(`WEBHOOK_PATH (must start with "/", got "${webhookPath}")`);
  return { port, webhookPath };
}

/** GitHub Enterprise Server's API base from GHE_HOST and GHE_PROTOCOL; undefined for github.com. */
function readGitHubBaseUrl(read: EnvReader): string | undefined {
  const gheHost = read.value("GHE_HOST");
  const gheProtocol = read.value("GHE_PROTOCOL") ?? "https";
  if (gheProtocol !== "https" && gheProtocol !== "http") read.invalid.push(`GHE_PROTOCOL (must be https or http, got "${gheProtocol}")`);
  if (gheHost !== undefined && /[/\s]/.test(gheHost))
    read.invalid.push(`GHE_HOST (must be a host name such as github.example.com, got "${gheHost}")`);
  return gheHost ? `${gheProtocol}://${gheHost}/api/v3` : undefined;
}

function readLogging(read: EnvReader): { logLevel: LogLevel | undefined; logFormat: AppSettings["logFormat"] } {
  const levelText = read.value("LOG_LEVEL")?.toLowerCase() ?? "info";
  const logLevel = LOG_LEVELS.find((level) => level === levelText);
  if (!logLevel) read.invalid.push(`LOG_LEVEL (must be one of ${LOG_LEVELS.join(", ")}, got "${levelText}")`);
  const formatText = read.value("LOG_FORMAT")?.toLowerCase() ?? "pretty";
  if (formatText !== "pretty" && formatText !== "json") read.invalid.push(`LOG_FORMAT (must be pretty or json, got "${formatText}")`);
  return { logLevel, logFormat: formatText === "json" ? "json" : "pretty" };
}

/** The Agent Run Service: AGENT_RUN_API_URL, AGENT_RUN_API_TOKEN, AGENT_RUN_ORG_ID, AGENT_RUN_LOGS_PATH and AGENT_RUN_RUNS_URL. */
function readService(read: EnvReader) {
  const apiUrl = read.required("AGENT_RUN_API_URL");
  if (apiUrl !== undefined && !isAllowedServiceUrl(apiUrl))
    read.invalid.push(`AGENT_RUN_API_URL (${SERVICE_URL_RULE}, got "${urlForMessage(apiUrl)}")`);
  const apiToken = read.required("AGENT_RUN_API_TOKEN");
  const orgId = read.positiveInteger("AGENT_RUN_ORG_ID", read.required("AGENT_RUN_ORG_ID"));
  const logsPathText = read.value("AGENT_RUN_LOGS_PATH")?.toLowerCase() ?? "auto";
  const logsPath = LOGS_PATH_CHOICES.find((choice) => choice === logsPathText);
  if (!logsPath) read.invalid.push(`AGENT_RUN_LOGS_PATH (must be one of ${LOGS_PATH_CHOICES.join(", ")}, got "${logsPathText}")`);
  // Linked from threads: the same rule as the API's URL keeps javascript:, data: and clear-text links to other hosts out.
  const runsUrl = read.value("AGENT_RUN_RUNS_URL");
  if (runsUrl !== undefined && !isAllowedServiceUrl(runsUrl))
    read.invalid.push(`AGENT_RUN_RUNS_URL (${SERVICE_URL_RULE}, got "${urlForMessage(runsUrl)}")`);
  return { apiUrl, apiToken, orgId, logsPath, runsUrl };
}

type RedisSettings = Pick<AppSettings, "redisUrl" | "redisPassword" | "redisTlsCa">;

/** REDIS_TLS_CA_PATH's PEM, read now so that a wrong path is named with the rest. */
function readRedisTlsCa(read: EnvReader, redisUrl: string | undefined): string | undefined {
  const caPath = read.value("REDIS_TLS_CA_PATH");
  if (caPath === undefined) return undefined;
  if (!redisUrl || !/^rediss:\/\//i.test(redisUrl)) {
    // Said rather than ignored: whoever set a CA expects TLS, and plain redis:// would send the password in the clear.
    read.invalid.push("REDIS_TLS_CA_PATH (set, but REDIS_URL does not start with rediss://: use rediss:// for TLS, or unset it)");
    return undefined;
  }
  try {
    const pem = readFileSync(caPath, "utf8");
    if (pem.includes("-----BEGIN CERTIFICATE-----")) return pem;
    read.invalid.push(`REDIS_TLS_CA_PATH (${caPath} holds no PEM certificate)`);
  } catch (error) {
    read.invalid.push(`REDIS_TLS_CA_PATH (cannot read ${caPath}: ${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return undefined;
}

/** REDIS_URL, the password that may come apart from it (REDIS_PASSWORD, from a secret store) and the CA its TLS is verified with. */
function readRedis(read: EnvReader): RedisSettings {
  const redisUrl = read.value("REDIS_URL");
  if (redisUrl !== undefined && !/^rediss?:\/\//i.test(redisUrl)) read.invalid.push("REDIS_URL (must start with redis:// or rediss://)");
  // Not trimmed: a password is whatever bytes it is.
  const redisPassword = read.value("REDIS_PASSWORD") === undefined ? undefined : read.raw("REDIS_PASSWORD");
  if (redisPassword !== undefined) {
    if (redisUrl === undefined) read.invalid.push("REDIS_PASSWORD (set without REDIS_URL: set REDIS_URL too, or unset it)");
    else if (/^rediss?:\/\/[^/@]*:[^/@]*@/i.test(redisUrl))
      read.invalid.push("REDIS_PASSWORD (REDIS_URL carries a password too: give it in one place only)");
  }
  return { redisUrl, redisPassword, redisTlsCa: readRedisTlsCa(read, redisUrl) };
}

/** A token guarding an operators' view: unset, or strong enough (core/operator-token.ts); the message never quotes it. */
function readOperatorToken(read: EnvReader, name: string): string | undefined {
  const token = read.value(name);
  const weakness = token === undefined ? null : operatorTokenWeakness(token);
  if (weakness !== null) read.invalid.push(`${name} (${weakness}: ${MAKE_OPERATOR_TOKEN})`);
  return token;
}

function readMetrics(read: EnvReader): AppSettings["metrics"] {
  const metricsToken = readOperatorToken(read, "METRICS_TOKEN");
  return {
    enabled: read.flag("METRICS") || metricsToken !== undefined,
    token: metricsToken,
    repoLabels: read.flag("METRICS_REPO_LABELS"),
    automationLabels: read.flag("METRICS_AUTOMATION_LABEL"),
  };
}

function readTimeScale(read: EnvReader): number {
  const scaleText = read.value("AGENT_RUN_TIME_SCALE");
  if (scaleText === undefined) return 1;
  const timeScale = Number(scaleText);
  if (!(timeScale > 0) || !Number.isFinite(timeScale))
    read.invalid.push(`AGENT_RUN_TIME_SCALE (must be a positive number, got "${scaleText}")`);
  return timeScale;
}

function readRedactPatterns(read: EnvReader): RegExp[] {
  const { patterns, errors } = compileRedactPatterns(splitRedactPatterns(read.value("REDACT_PATTERNS")));
  for (const error of errors) read.invalid.push(`REDACT_PATTERNS (${error})`);
  return patterns;
}

/**
 * TRUST_PROXY: unset, `false` or `0` (no proxy is believed); a number of proxy hops; or the proxies'
 * addresses and subnets, comma-separated (`loopback`, `uniquelocal` and `linklocal` name the usual
 * ranges). `true` is refused: believing every hop lets any client write its own address.
 */
function readTrustProxy(read: EnvReader): number | string[] {
  const text = read.value("TRUST_PROXY")?.toLowerCase();
  if (text === undefined || text === "false") return 0;
  if (/^\d+$/.test(text)) return Number(text);
  const rule =
    "must be the number of proxies in front of the App, or their addresses or subnets such as loopback, 10.0.0.0/8; never true, which lets any client choose its own address";
  if (text === "true") {
    read.invalid.push(`TRUST_PROXY (${rule})`);
    return 0;
  }
  const addresses = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  try {
    proxyAddr.compile(addresses);
    return addresses;
  } catch (error) {
    read.invalid.push(`TRUST_PROXY (${rule}; ${(error as Error).message})`);
    return 0;
  }
}

function readAllowedOwners(read: EnvReader): AllowedOwners {
  const { owners, invalid } = parseAllowedOwners(read.value("ALLOWED_OWNERS"));
  if (invalid.length > 0)
    read.invalid.push(
      `ALLOWED_OWNERS (must be GitHub logins separated by commas, such as octo-org,octocat; not ${invalid.map((entry) => `"${entry}"`).join(", ")})`,
    );
  else if (owners !== null && owners.size === 0)
    read.invalid.push("ALLOWED_OWNERS (names no account; unset it to serve every installation)");
  return owners;
}

/** A recovery interval (DELIVERY_RECOVERY_INTERVAL, RUN_RECOVERY_INTERVAL): `0` (off), or a duration such as `5m`, `90s`, `1h` (a bare number is seconds). */
function readRecoveryInterval(read: EnvReader, name: string, defaultMs: number): number {
  const text = read.value(name)?.toLowerCase();
  if (text === undefined) return defaultMs;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text);
  const ms = match ? Math.round(Number(match[1]) * DURATION_UNITS[match[2] ?? "s"]!) : Number.NaN;
  if (ms === 0) return 0;
  if (!(ms >= MIN_DELIVERY_RECOVERY_INTERVAL_MS)) {
    read.invalid.push(`${name} (must be 0 to turn recovery off, or a duration of at least 1s such as 5m, 90s or 1h; got "${text}")`);
    return 0;
  }
  return ms;
}

/** RUN_RECOVERY_MAX_REQUESTS: a whole number of GitHub reads, at least 1. */
function readRunRecoveryMaxRequests(read: EnvReader): number {
  const text = read.value("RUN_RECOVERY_MAX_REQUESTS");
  if (text === undefined) return DEFAULT_RUN_RECOVERY_MAX_REQUESTS;
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(value >= 1)) {
    read.invalid.push(`RUN_RECOVERY_MAX_REQUESTS (must be a whole number of GitHub requests of at least 1, such as 200; got "${text}")`);
    return DEFAULT_RUN_RECOVERY_MAX_REQUESTS;
  }
  return value;
}

/** Parses the environment; throws AppConfigurationError listing everything missing or invalid. */
export function parseAppEnv(env: Env): AppSettings {
  const read = new EnvReader(env);
  const appId = read.positiveInteger("APP_ID", read.required("APP_ID"));
  const privateKey = readPrivateKey(read);
  const webhookSecret = read.required("WEBHOOK_SECRET");
  const webhookSecretPrevious = read.value("WEBHOOK_SECRET_PREVIOUS");
  const { port, webhookPath } = readListener(read);
  const githubBaseUrl = readGitHubBaseUrl(read);
  const { logLevel, logFormat } = readLogging(read);
  const service = readService(read);
  const redis = readRedis(read);
  const metrics = readMetrics(read);
  const statusToken = readOperatorToken(read, "STATUS_TOKEN");
  const trustProxy = readTrustProxy(read);
  const allowedOwners = readAllowedOwners(read);
  const timeScale = readTimeScale(read);
  const redactPatterns = readRedactPatterns(read);
  const deliveryRecoveryIntervalMs = readRecoveryInterval(read, "DELIVERY_RECOVERY_INTERVAL", DEFAULT_DELIVERY_RECOVERY_INTERVAL_MS);
  const runRecoveryIntervalMs = readRecoveryInterval(read, "RUN_RECOVERY_INTERVAL", DEFAULT_RUN_RECOVERY_INTERVAL_MS);
  const runRecoveryMaxRequests = readRunRecoveryMaxRequests(read);
  const tracing = readTracingSettings((name) => read.value(name), read.invalid);

  if (read.missing.length > 0 || read.invalid.length > 0) throw new AppConfigurationError(read.missing, read.invalid);
  return {
    appId,
    privateKey: privateKey!,
    webhookSecret: webhookSecret!,
    webhookSecretPrevious: webhookSecretPrevious === webhookSecret ? undefined : webhookSecretPrevious,
    port,
    host: read.value("HOST"),
    webhookPath,
    githubBaseUrl,
    logLevel: logLevel!,
    logFormat,
    service: {
      baseUrl: service.apiUrl!,
      token: service.apiToken!,
      orgId: service.orgId,
      logsPath: service.logsPath!,
      runsUrl: service.runsUrl,
    },
    dataDir: read.value("DATA_DIR") ?? DEFAULT_DATA_DIR,
    ...redis,
    redisKeyPrefix: read.value("REDIS_KEY_PREFIX"),
    metrics,
    statusToken,
    trustProxy,
    allowedOwners,
    timeScale,
    redactPatterns,
    deliveryRecoveryIntervalMs,
    runRecoveryIntervalMs,
    runRecoveryMaxRequests,
    tracing,
  };
}
