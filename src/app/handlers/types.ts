import type { ProbotOctokit } from "probot";
import type { BridgeSelf } from "../../core/actors.js";
import type { ImageDownloadSettings } from "../../flows/index.js";
import type { AgentRunClient } from "../../service/client.js";
import type { RunEngine } from "../engine.js";
import type { ThreadLocks } from "../locks.js";
import type { InstallationGate } from "../installation-gate.js";
import type { DeliveryObserver } from "../ops/metrics.js";
import type { DeliveryRef, RecentDeliveries } from "../ops/recent-deliveries.js";
import type { WorkQueue } from "../queue/types.js";
import type { BridgeStore } from "../store/types.js";

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
  queue: WorkQueue;
  locks: ThreadLocks;
  /** Every GitHub write of the App: the handlers hand over, the engine writes. */
  engine: RunEngine;
  client: AgentRunClient;
  identity: AppIdentity;
  /** An installation's octokit (reads), as Probot authenticates it. */
  octokitFor(installationId: number | null): Promise<ProbotOctokit>;
  /** Image download settings (tests point github.com at a fake); the token is the installation's. */
  images?: Omit<ImageDownloadSettings, "token">;
  log: HandlerLogger;
  /** Told why a delivery started nothing (the metrics). */
  observer?: DeliveryObserver;
  /** ALLOWED_OWNERS: deliveries of other accounts' installations start nothing (absent: every installation is served). */
  installations?: InstallationGate;
  /** The status page's list of recent deliveries and what came of each (this replica's). */
  deliveries?: RecentDeliveries;
}

/** The dependencies for one delivery: its decisions are noted in the recent deliveries, then observed as before. */
export function forDelivery(deps: AppDependencies, delivery: DeliveryRef): AppDependencies {
  return deps.deliveries ? { ...deps, observer: deps.deliveries.observing(delivery, deps.observer) } : deps;
}

/** Who the App is, as core's decisions ask it (its slug for mentions, its bot logins for markers). */
export function selfOf(deps: Pick<AppDependencies, "identity">): BridgeSelf {
  return { appSlug: deps.identity.slug, botLogins: deps.identity.botLogins };
}
