import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import type { AppHandle } from "../../app/main.js";
import { loadOptional } from "../../app/optional-deps.js";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { registerAppRegisterCommand } from "./app-register.js";
import { defineCommand } from "./registry.js";

const HELP = `
Configuration (the environment, or --dotenv; the environment wins over the file):
  APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET   the GitHub App's credentials
  WEBHOOK_SECRET_PREVIOUS                                    also accepted while the webhook secret is rotated
  PORT (3000), HOST, WEBHOOK_PATH (/api/github/webhooks)     where webhooks arrive; GET /healthz answers too
  GHE_HOST, GHE_PROTOCOL (https)                             GitHub Enterprise Server
  LOG_LEVEL (info), LOG_FORMAT (pretty)                      trace … fatal; pretty or json
  AGENT_RUN_API_URL, AGENT_RUN_API_TOKEN, AGENT_RUN_ORG_ID   the Agent Run Service
  DATA_DIR (.data)                                           durable state without Redis (bridge.sqlite)
  REDIS_URL, REDIS_KEY_PREFIX                                run as one of several replicas sharing a queue and store in Redis
  REDIS_PASSWORD, REDIS_TLS_CA_PATH                          Redis's password (or in the URL); the CA of its certificate (rediss://)
  ALLOWED_OWNERS                                             the accounts whose installations are served (recommended)
  STATUS_TOKEN, METRICS_TOKEN                                GET /status and GET /metrics; 32+ characters: openssl rand -hex 32
  TRUST_PROXY                                                proxies whose X-Forwarded-For is believed (hop count or addresses)

Packages (installed beside agent-run-bridge):
  npm install probot better-sqlite3                          one replica, state in SQLite
  npm install probot ioredis bullmq                          with REDIS_URL
  npm install prom-client                                    with METRICS or METRICS_TOKEN
`;

/**
 * The environment with an env file's settings under it (`agent-run app register` writes one): the
 * environment wins, as with Node's own --env-file, so an operator's export overrides the file. Not named --env-file: Node 20
 * reads that flag anywhere on its command line, even after the script, and exits when the file is missing.
 */
function environmentWith(envFile: string | undefined, context: CliContext): CliContext["env"] {
  if (envFile === undefined) return context.env;
  const path = resolve(context.cwd, envFile);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read --dotenv ${envFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const fromFile = parseEnv(text);
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [name, value] of Object.entries(context.env)) if (value !== undefined) merged[name] = value;
  return merged;
}

/** `agent-run app`: the GitHub App server, until SIGINT or SIGTERM; `agent-run app register` creates the App on GitHub. */
export const appCommand = defineCommand(
  "app",
  "run the GitHub App (webhook server) until Ctrl-C (SIGINT) or SIGTERM; `app register` creates it on GitHub",
  (command, context) => {
    registerAppRegisterCommand(command, context);
    command
      .option("--dotenv <path>", "read settings from this .env file too (NAME=value lines, such as `app register` writes)")
      .addHelpText("after", HELP)
      .action(async (flags: { dotenv?: string }) => {
        const env = environmentWith(flags.dotenv, context);
        // Loaded on demand: Probot would slow every other command's start, and may not be installed.
        const { startApp, AppConfigurationError, redisPasswordOf } = await loadOptional(
          "The GitHub App (agent-run app)",
          ["probot"],
          () => import("../../app/index.js"),
        );
        context.addSecret(env.AGENT_RUN_API_TOKEN ?? "");
        context.addSecret(env.WEBHOOK_SECRET ?? "");
        context.addSecret(env.WEBHOOK_SECRET_PREVIOUS ?? "");
        context.addSecret(redisPasswordOf(env.REDIS_URL) ?? env.REDIS_PASSWORD ?? "");
        context.addSecret(env.PRIVATE_KEY ?? "");
        let app: AppHandle;
        try {
          app = await startApp(env);
        } catch (error) {
          if (error instanceof AppConfigurationError) throw new UsageError(error.message);
          const code = (error as { code?: unknown }).code;
          if (code === "EADDRINUSE") throw new UsageError(`the port is already in use: set PORT to another port (0 = any free port).`);
          throw error;
        }
        context.error(`GitHub App ${app.identity.slug} listening on ${app.webhookUrl} (health: ${app.url}/healthz).`);
        const signal = await context.untilShutdownSignal();
        await app.close();
        context.error(`app stopped (${signal}).`);
      });
  },
);
