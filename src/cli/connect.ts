/** The connection options every service command takes, and the client built from them. */
import type { Command } from "commander";
import { AgentRunClient } from "../service/index.js";
import { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
import type { CliContext } from "./context.js";
import { ENV, resolveConnection, type ConnectionFlags } from "./config.js";

export function addConnectionOptions(command: Command): Command {
  return command
    .option("--api-url <url>", `base URL of the Agent Run Service (env ${ENV.apiUrl})`)
    .option("--token <token>", `API token; prefer the environment so it stays out of shell history (env ${ENV.token})`)
    .option("--org-id <id>", `organization id (env ${ENV.orgId})`)
    .option("--logs-path <where>", `logs endpoint: auto (the spec's path, else /v1/alpha/), spec or alpha (env ${ENV.logsPath})`);
}

/**
 * A client for one invocation. A person is waiting at the terminal, so failures surface after a
 * couple of quick retries instead of the library's patient defaults.
 */
export function connect(flags: ConnectionFlags, context: CliContext): AgentRunClient {
  const connection = resolveConnection(flags, context.env);
  context.addSecret(connection.token);
  return new AgentRunClient({
    baseUrl: connection.baseUrl,
    token: connection.token,
    orgId: connection.orgId,
    retries: 2,
    backoff: { minMs: 300, maxMs: 3_000 },
    userAgent: `${BRIDGE_NAME}-cli/${BRIDGE_VERSION}`,
    logsPath: connection.logsPath,
    logger: { warn: (message) => context.error(message) },
  });
}
