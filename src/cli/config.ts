/**
 * Where the CLI finds the service: flags first, then the environment. Pure: takes the parsed flags
 * and the environment, returns the connection or a UsageError naming every problem at once.
 */
import { LOGS_PATH_CHOICES, type LogsPathChoice } from "../service/wire.js";
import { isAllowedServiceUrl, SERVICE_URL_RULE, urlForMessage } from "../service/service-url.js";
import { UsageError } from "./errors.js";

export const ENV = {
  apiUrl: "AGENT_RUN_API_URL",
  token: "AGENT_RUN_API_TOKEN",
  orgId: "AGENT_RUN_ORG_ID",
  pollInterval: "AGENT_RUN_POLL_INTERVAL",
  logsPath: "AGENT_RUN_LOGS_PATH",
  runsUrl: "AGENT_RUN_RUNS_URL",
} as const;

export interface ConnectionFlags {
  apiUrl?: string;
  token?: string;
  orgId?: string;
  logsPath?: string;
}

export interface Connection {
  baseUrl: string;
  token: string;
  orgId: number;
  logsPath: LogsPathChoice;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A flag's value, else the environment's; an empty string counts as unset. */
function pick(flag: string | undefined, env: Env, name: string, flagName: string): { value: string; from: string } | undefined {
  if (flag !== undefined && flag.trim() !== "") return { value: flag.trim(), from: flagName };
  const fromEnv = env[name];
  if (fromEnv !== undefined && fromEnv.trim() !== "") return { value: fromEnv.trim(), from: name };
  return undefined;
}

export function resolveConnection(flags: ConnectionFlags, env: Env): Connection {
  const problems: string[] = [];

  const url = pick(flags.apiUrl, env, ENV.apiUrl, "--api-url");
  let baseUrl = "";
  if (!url) {
    problems.push(`the service URL is missing: pass --api-url or set ${ENV.apiUrl}`);
  } else if (!isAllowedServiceUrl(url.value)) {
    problems.push(`${url.from} ${SERVICE_URL_RULE}, got '${urlForMessage(url.value)}'`);
  } else {
    baseUrl = url.value;
  }

  // The token's value is never echoed, not even when it looks wrong.
  const token = pick(flags.token, env, ENV.token, "--token");
  if (!token) problems.push(`the API token is missing: set ${ENV.token} (or pass --token)`);

  const org = pick(flags.orgId, env, ENV.orgId, "--org-id");
  let orgId = 0;
  if (!org) {
    problems.push(`the organization id is missing: pass --org-id or set ${ENV.orgId}`);
  } else if (!/^\d+$/.test(org.value) || Number(org.value) <= 0 || !Number.isSafeInteger(Number(org.value))) {
    problems.push(`${org.from} must be a positive integer, got '${org.value}'`);
  } else {
    orgId = Number(org.value);
  }

  const logs = pick(flags.logsPath, env, ENV.logsPath, "--logs-path");
  const logsPath = LOGS_PATH_CHOICES.find((choice) => choice === logs?.value.toLowerCase()) ?? "auto";
  if (logs && logs.value.toLowerCase() !== logsPath) {
    problems.push(`${logs.from} must be one of ${LOGS_PATH_CHOICES.join(", ")}, got '${logs.value}'`);
  }

  if (problems.length > 0 || !token) throw new UsageError(`cannot reach the Agent Run Service: ${problems.join("; ")}.`);
  return { baseUrl, token: token.value, orgId, logsPath };
}

/**
 * Seconds between status checks while watching a run, from `--poll-interval` or the environment.
 * Undefined means the client's default (2 s, growing to 30 s on long runs).
 */
export function resolvePollIntervalMs(flag: string | undefined, env: Env): number | undefined {
  const chosen = pick(flag, env, ENV.pollInterval, "--poll-interval");
  if (!chosen) return undefined;
  const seconds = Number(chosen.value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`${chosen.from} must be a positive number of seconds, got '${chosen.value}'.`);
  }
  return Math.max(1, Math.round(seconds * 1000));
}

/**
 * The service's web page of runs (AGENT_RUN_RUNS_URL), named when a create's outcome is unknown;
 * undefined when unset. Checked before anything is sent, by the API URL's rule.
 */
export function resolveRunsUrl(env: Env): string | undefined {
  const chosen = pick(undefined, env, ENV.runsUrl, ENV.runsUrl);
  if (!chosen) return undefined;
  if (!isAllowedServiceUrl(chosen.value)) throw new UsageError(`${ENV.runsUrl} ${SERVICE_URL_RULE}, got '${urlForMessage(chosen.value)}'.`);
  return chosen.value;
}
