import type { RunEngine } from "../engine.js";
import type { BridgeStore } from "../store/types.js";
import type { AgentRunClient } from "../../service/client.js";
import type { ImageDownloadSettings } from "../../flows/index.js";

/** The slice of pino the handlers use (Probot's `context.log`). */
export interface HandlerLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Who the App is on GitHub, read once at start-up (`GET /app`). */
export interface AppIdentity {
  /** `my-agent` for `@my-agent`. */
  slug: string;
  name: string;
  /** The logins the App's comments carry: `<slug>[bot]`. */
  botLogins: string[];
}

export interface AppDependencies {
  store: BridgeStore;
  engine: RunEngine;
  client: AgentRunClient;
  identity: AppIdentity;
  /** Image download settings (tests point github.com at a fake); the token is the installation's. */
  images?: Omit<ImageDownloadSettings, "token">;
  /** How long a run is watched before the bridge reports it as still running (ms). Default 4 hours. */
  watchTimeoutMs?: number;
  /** How long a new task waits for its tracking comment before the engine starts it anyway (ms). Default 60 s. */
  trackingHoldMs?: number;
}
