/**
 * The App's settings table (docs/operations.md) comes from its settings parser: which variables
 * `parseAppEnv` reads is learned by running it over environments that record every name asked for,
 * and which of them are required from the error it throws for an empty environment. Only the words
 * are written here, one entry per variable; a variable read without an entry, or an entry for a
 * variable no longer read, stops `npm run docs` and fails the docs test.
 */
import { AppConfigurationError, parseAppEnv } from "../../src/app/env.js";

export interface SettingDoc {
  /** The default as a reader would write it, when there is one. */
  default?: string;
  meaning: string;
}

export const APP_SETTING_DOCS: Record<string, SettingDoc> = {
  APP_ID: { meaning: "the App's id, from its settings page on GitHub" },
  PRIVATE_KEY: {
    meaning:
      "the App's private key (PEM; `\\n` written as two characters, as `.env` files do, or the whole key base64-encoded both work); or give `PRIVATE_KEY_PATH`",
  },
  PRIVATE_KEY_PATH: { meaning: "a file holding the App's private key, read when `PRIVATE_KEY` is not set" },
  WEBHOOK_SECRET: { meaning: "the webhook secret set on the App's settings page: every delivery's signature is checked with it" },
  WEBHOOK_SECRET_PREVIOUS: {
    meaning:
      "while the webhook secret is rotated: the old secret, also accepted, so that no delivery is refused whichever secret GitHub signs it with; unset it once GitHub has the new one ([Rotating credentials](#rotating-credentials))",
  },
  PORT: { default: "3000", meaning: "the port webhooks, `/healthz`, `/metrics` and `/status` are served on" },
  HOST: { meaning: "the interface to listen on (default: every interface)" },
  WEBHOOK_PATH: { default: "/api/github/webhooks", meaning: "the path GitHub sends webhooks to (must start with `/`)" },
  GHE_HOST: {
    meaning:
      "GitHub Enterprise Server's host name, with `:port` if it has one, no scheme, no path ([GitHub Enterprise Server](enterprise-server.md))",
  },
  GHE_PROTOCOL: { default: "https", meaning: "`https` or `http`, for `GHE_HOST`" },
  LOG_LEVEL: { default: "info", meaning: "`trace`, `debug`, `info`, `warn`, `error` or `fatal`" },
  LOG_FORMAT: { default: "pretty", meaning: "`pretty` for people, `json` for log collectors" },
  AGENT_RUN_API_URL: {
    meaning:
      "the Agent Run Service's base URL; it must be `https://`, except on loopback (`127.0.0.0/8`, `::1`, `localhost`) where the emulator and the demo run",
  },
  AGENT_RUN_API_TOKEN: { meaning: "the service's API token (redacted from every comment and log line)" },
  AGENT_RUN_ORG_ID: { meaning: "the organization's id on the service (a positive integer)" },
  AGENT_RUN_LOGS_PATH: {
    default: "auto",
    meaning:
      "where the service's logs endpoint is: `auto` tries the spec's path and, on a 404, the `/v1/alpha/` path real deployments publish, then keeps the one that answered; `spec` or `alpha` pins one",
  },
  AGENT_RUN_RUNS_URL: {
    meaning:
      "the service's web page where people see the organization's runs (https://, or http:// on loopback): when a create's answer is lost and the runs list cannot tell whether the run was made, the tracking comment links it as the place to look",
  },
  DATA_DIR: {
    default: ".data",
    meaning: "the embedded backend (SQLite): deliveries, the work queue, watched runs, held follow-ups, the service budget",
  },
  REDIS_URL: {
    meaning:
      "`redis://` or `rediss://` (TLS): the distributed backend, for several replicas that share one queue, one store and one API token's budget ([Several replicas](#several-replicas-over-redis)). A password goes in the URL, `redis://:password@host:6379` or with an ACL user `redis://user:password@host:6379` (percent-encode `@`, `:` and `/` in it); it is redacted from every log line and error. The App refuses to start on a Redis whose `maxmemory-policy` is not `noeviction`",
  },
  REDIS_PASSWORD: {
    meaning:
      "Redis's password, given apart from `REDIS_URL` (from a secret store, as the Kubernetes and Compose files do; no percent-encoding needed); refused when `REDIS_URL` carries a password too. Redacted from every log line and error",
  },
  REDIS_TLS_CA_PATH: {
    meaning:
      "a PEM file with the CA that signed Redis's TLS certificate, for a `rediss://` `REDIS_URL` whose certificate is not signed by a public CA (a private CA, a self-signed Redis); it is trusted for the Redis connection only. Unset, Node's public roots verify it. Refused with a `redis://` URL ([Redis](security.md#redis-is-a-trust-boundary))",
  },
  REDIS_KEY_PREFIX: {
    meaning:
      "namespace of the App's keys in Redis (default: `agent-run-bridge:<AGENT_RUN_ORG_ID>:app<APP_ID>`, one per service organization and GitHub App, unchanged when a credential rotates; [Upgrading](upgrading.md) says how the token-keyed default of 0.1 is moved)",
  },
  METRICS: {
    default: "false",
    meaning: "`true` serves `GET /metrics` to anyone who can reach it ([Metrics](#metrics)); needs `prom-client` installed",
  },
  METRICS_TOKEN: {
    meaning:
      "serves `GET /metrics` only to `Authorization: Bearer <token>` (turns metrics on by itself); the same strength rule as `STATUS_TOKEN`, and wrong tokens are throttled alike",
  },
  METRICS_REPO_LABELS: { default: "false", meaning: "`true` puts repository names on the run counters (an unbounded label set)" },
  METRICS_AUTOMATION_LABEL: {
    default: "false",
    meaning:
      '`true` puts the automation\'s name on `agent_run_bridge_runs_started_total` (`automation=""` for other runs); off by default because repositories choose the names ([Automations](automations.md))',
  },
  STATUS_TOKEN: {
    meaning:
      "at least 32 characters of at least two kinds (lower-case, upper-case, digits, symbols), else the App stops at start (exit 2); make one with `openssl rand -hex 32`. Serves `GET /status` (the page for operators) and `GET /healthz?verbose` to holders of this token, as `Authorization: Bearer <token>` or, in a browser, through the page's sign-in form (an HttpOnly, SameSite=Strict cookie); never as `?token=`, which would land in access logs; without it the page does not exist (404)",
  },
  TRUST_PROXY: {
    meaning:
      "which proxies in front of the App to believe about the client's address (used only to throttle wrong operator tokens): unset, `false` or `0` means the connection's own address; a number means that many proxy hops of `X-Forwarded-For`; otherwise the proxies' addresses or subnets, comma-separated (`loopback`, `uniquelocal`, `linklocal`, `10.0.0.0/8`). `true` is refused: it would let any client choose its own address",
  },
  ALLOWED_OWNERS: {
    meaning:
      "the GitHub accounts and organizations whose installations the App serves: logins separated by commas, any case (`octo-org,octocat`). A delivery from any other account's installation is answered 200 and starts nothing (not stored, queued, or sent on); each such installation is logged once a day. Unset, every installation is served. **Recommended**: an App made public by mistake could otherwise be installed by anyone and spend your service budget",
  },
  AGENT_RUN_TIME_SCALE: {
    default: "1",
    meaning: "scales every wait (`0.1` = ten times faster); for the demo and tests against the emulator only",
  },
  REDACT_PATTERNS: {
    meaning:
      "your own redaction patterns, one JavaScript regular expression per line (`(?i)` at the start makes one case-insensitive): whatever they match becomes `[redacted by an operator pattern]` in comments and logs, on top of the built-in rules ([Threat model](security.md#what-the-bot-writes)). A pattern that is not a regular expression or matches the empty string stops the App at start (named by its line, never quoted); nothing guards against a catastrophically backtracking one, so keep them simple",
  },
  DELIVERY_RECOVERY_INTERVAL: {
    default: "5m",
    meaning:
      "how often the App looks for webhook deliveries that failed (the App was down, a proxy answered 502) and has GitHub redeliver them, also once at start: a duration such as `5m`, `90s`, `1h` (a bare number is seconds); `0` turns recovery off ([Reliability](reliability.md#missed-webhook-deliveries))",
  },
  RUN_RECOVERY_INTERVAL: {
    default: "10m",
    meaning:
      "how often the App looks for tracking comments that still say a run is working although its store does not know the run (the store lost its data: Redis restarted without persistence, a failover to a lagging replica, a `FLUSHALL`, a lost SQLite file), also once at start; it watches each such run again and posts its result once. A duration such as `10m`, `90s`, `1h` (a bare number is seconds); `0` turns it off ([Reliability](reliability.md#a-store-that-lost-its-data))",
  },
  RUN_RECOVERY_MAX_REQUESTS: {
    default: "200",
    meaning:
      "the most GitHub reads one run recovery sweep makes to find those comments: the App's installations, their repositories, and one request per 100 comments updated within the look-back per repository. A sweep that reaches it goes on from that repository at the next sweep ([Running the App](operations.md#run-recovery-and-its-cost))",
  },
  OTEL_TRACES_EXPORTER: {
    default: "none",
    meaning:
      "`otlp` turns OpenTelemetry traces on ([Traces](#traces)); unset or `none`, no OpenTelemetry package is even loaded. Tracing needs the optional packages `@opentelemetry/api`, `@opentelemetry/sdk-trace-node`, `@opentelemetry/exporter-trace-otlp-http` and `@opentelemetry/resources`",
  },
  OTEL_SDK_DISABLED: { meaning: "`true` turns tracing off whatever else is set" },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    default: "http://localhost:4318",
    meaning: "the OTLP/HTTP receiver (an OpenTelemetry Collector); spans go to its `/v1/traces`",
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: { meaning: "the full URL spans are POSTed to, used as is; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`" },
  OTEL_EXPORTER_OTLP_PROTOCOL: {
    default: "http/json",
    meaning:
      "`http/json` only (OTLP/HTTP with JSON bodies, which every Collector accepts on port 4318); `http/protobuf` and `grpc` stop the App at start",
  },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: { meaning: "as `OTEL_EXPORTER_OTLP_PROTOCOL`, for traces; wins over it" },
  OTEL_EXPORTER_OTLP_HEADERS: {
    meaning:
      "headers sent with every export, `key=value` pairs separated by commas, percent-encoded (`authorization=Bearer%20…`); never logged",
  },
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: { meaning: "as `OTEL_EXPORTER_OTLP_HEADERS`, for traces; wins over it" },
  OTEL_SERVICE_NAME: { default: "agent-run-bridge", meaning: "the traces' `service.name`" },
  OTEL_RESOURCE_ATTRIBUTES: {
    meaning: "more resource attributes, `key=value` pairs separated by commas (`deployment.environment=prod,k8s.pod.name=…`)",
  },
  OTEL_TRACES_SAMPLER: {
    default: "parentbased_always_on",
    meaning:
      "`always_on`, `always_off`, `traceidratio`, `parentbased_always_on`, `parentbased_always_off` or `parentbased_traceidratio`: which deliveries are traced ([Traces](#traces))",
  },
  OTEL_TRACES_SAMPLER_ARG: { default: "1", meaning: "the ratio of the `traceidratio` samplers, from 0 to 1" },
};

/** The least an App starts with, so that what the parser reads only after validation is asked for too. */
const VALID_MINIMUM: Record<string, string> = {
  APP_ID: "1",
  PRIVATE_KEY: "-----BEGIN PRIVATE KEY-----\\n-----END PRIVATE KEY-----",
  WEBHOOK_SECRET: "secret",
  AGENT_RUN_API_URL: "http://127.0.0.1:4010",
  AGENT_RUN_API_TOKEN: "token",
  AGENT_RUN_ORG_ID: "1",
};

/**
 * Environments to run the parser over: every other name unset, or answering alike (so that a variable read only
 * when another is set is asked for too).
 */
const PROBES: readonly { base: Record<string, string>; otherwise: string | undefined }[] = [
  { base: VALID_MINIMUM, otherwise: undefined },
  ...[undefined, "1", "true", "x"].map((otherwise) => ({ base: {}, otherwise })),
];

/** Every environment variable `parseAppEnv` reads, in the order it first reads them. */
export function settingsTheAppReads(): string[] {
  const names = new Set<string>();
  for (const { base, otherwise } of PROBES) {
    const env = new Proxy<Record<string, string | undefined>>(
      {},
      {
        get(_target, name) {
          if (typeof name !== "string") return undefined;
          names.add(name);
          return base[name] ?? otherwise;
        },
      },
    );
    try {
      parseAppEnv(env);
    } catch (error) {
      if (!(error instanceof AppConfigurationError)) throw error;
    }
  }
  return [...names];
}

/** What an empty environment is missing: each required name with its alternatives ("PRIVATE_KEY or PRIVATE_KEY_PATH" gives both, each naming the other). */
export function requiredSettings(): Map<string, string[]> {
  const required = new Map<string, string[]>();
  try {
    parseAppEnv({});
  } catch (error) {
    if (!(error instanceof AppConfigurationError)) throw error;
    for (const entry of error.missing) {
      const names = entry.split(" or ");
      for (const name of names)
        required.set(
          name,
          names.filter((other) => other !== name),
        );
    }
  }
  return required;
}

/** Names read without a description, and descriptions of names no longer read. */
export function settingDocsDrift(): { undocumented: string[]; stale: string[] } {
  const read = settingsTheAppReads();
  return {
    undocumented: read.filter((name) => !(name in APP_SETTING_DOCS)),
    stale: Object.keys(APP_SETTING_DOCS).filter((name) => !read.includes(name)),
  };
}

const cell = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

export function appSettingsTable(): string {
  const { undocumented, stale } = settingDocsDrift();
  if (undocumented.length > 0 || stale.length > 0)
    throw new Error(
      [
        undocumented.length > 0 ? `src/app/env.ts reads ${undocumented.join(", ")}: describe each in APP_SETTING_DOCS` : "",
        stale.length > 0 ? `src/app/env.ts no longer reads ${stale.join(", ")}: drop them from APP_SETTING_DOCS` : "",
      ]
        .filter(Boolean)
        .join("; ") + " (scripts/docs/app-settings.ts).",
    );
  const required = requiredSettings();
  return [
    "| Variable | Required | Default | Meaning |",
    "|---|---|---|---|",
    ...settingsTheAppReads().map((name) => {
      const doc = APP_SETTING_DOCS[name]!;
      const alternatives = required.get(name);
      const need = !alternatives
        ? "no"
        : alternatives.length === 0
          ? "yes"
          : `yes, or ${alternatives.map((other) => `\`${other}\``).join(", ")}`;
      return `| \`${name}\` | ${need} | ${doc.default ? `\`${doc.default}\`` : ""} | ${cell(doc.meaning)} |`;
    }),
  ].join("\n");
}
