/**
 * One webhook, routed: Probot has verified its signature; here it is deduplicated, parsed, checked
 * against the repository's config, turned into a trigger (or quietly ignored), prepared by the
 * shared flows and acted on. Every decision is core's; every read goes through flows and github.
 */
import { DEFAULT_REPO_CONFIG } from "../../config/schema.js";
import { EventPayloadError, parseWebhookEvent, type BridgeEvent } from "../../core/events.js";
import { detectTrigger, type BridgeSelf, type IgnoreCode } from "../../core/plan.js";
import { prepareRun } from "../../flows/index.js";
import type { GitHubClient } from "../../github/client.js";
import { BRIDGE_VERSION } from "../../version.js";
import { actOnPrepared } from "./act.js";
import { answerConfigError, loadRepoConfig } from "./config.js";
import { storeLookup } from "./lookup.js";
import type { AppDependencies, HandlerLogger } from "./types.js";

/** What the handler needs from a Probot context (structural, so the handler stays testable and Probot-free). */
export interface WebhookDelivery {
  /** `X-GitHub-Delivery`. */
  id: string;
  /** `X-GitHub-Event`. */
  name: string;
  payload: unknown;
  octokit: GitHubClient & { auth?: (options: { type: "installation" }) => Promise<unknown> };
  log: HandlerLogger;
  config(file: string): Promise<unknown>;
}

const IMAGE_TIMEOUT_MS = 5_000;

/** Ignore reasons that no configuration can change: such events are dropped before the config is read. */
const CONFIG_INDEPENDENT: ReadonlySet<IgnoreCode> = new Set(["unsupported_event", "unsupported_action", "bot_sender", "own_check_suite"]);

export function selfOf(deps: AppDependencies): BridgeSelf {
  return { appSlug: deps.identity.slug, botLogins: deps.identity.botLogins };
}

/** The installation token, for downloading attachments of private repositories. */
async function installationToken(octokit: WebhookDelivery["octokit"]): Promise<string | undefined> {
  if (!octokit.auth) return undefined;
  const auth = (await octokit.auth({ type: "installation" })) as { token?: unknown } | null;
  return typeof auth?.token === "string" ? auth.token : undefined;
}

export async function handleWebhook(delivery: WebhookDelivery, deps: AppDependencies): Promise<void> {
  const { log, store } = { log: delivery.log, store: deps.store };
  if (!store.markDelivery(delivery.id, delivery.name)) {
    log.info({ delivery: delivery.id }, "delivery already received; a redelivery changes nothing");
    return;
  }
  try {
    await handleNewDelivery(delivery, deps);
  } catch (error) {
    // Nothing was stored (GitHub or the config read failed): let a manual redelivery try again.
    store.forgetDelivery(delivery.id);
    throw error;
  }
}

async function handleNewDelivery(delivery: WebhookDelivery, deps: AppDependencies): Promise<void> {
  const { log, store } = { log: delivery.log, store: deps.store };

  let event: BridgeEvent;
  try {
    event = parseWebhookEvent(delivery.name, delivery.payload);
  } catch (error) {
    if (error instanceof EventPayloadError) {
      log.warn({ issues: error.issues }, error.message);
      return;
    }
    throw error;
  }

  const self = selfOf(deps);
  const quick = detectTrigger(event, DEFAULT_REPO_CONFIG, self);
  if (quick.kind === "ignore" && CONFIG_INDEPENDENT.has(quick.code)) {
    log.debug({ code: quick.code, reason: quick.reason }, "ignored");
    return;
  }

  const loaded = await loadRepoConfig((file) => delivery.config(file));
  if (!loaded.ok) {
    await answerConfigError({ octokit: delivery.octokit, event, loaded, self, store, log });
    return;
  }

  const detection = detectTrigger(event, loaded.config, self);
  if (detection.kind === "ignore") {
    log.info({ code: detection.code, reason: detection.reason }, "ignored");
    return;
  }

  const prepared = await prepareRun({
    octokit: delivery.octokit,
    trigger: detection.trigger,
    config: loaded.config,
    self,
    client: deps.client,
    lookup: storeLookup(store),
    origin: { deliveryId: delivery.id, appName: deps.identity.slug, appVersion: BRIDGE_VERSION },
    // Short per-image limit: the webhook is answered after the tracking comment, which waits for them.
    images: { timeoutMs: IMAGE_TIMEOUT_MS, ...deps.images, token: () => installationToken(delivery.octokit) },
    logger: log,
  });
  await actOnPrepared(prepared, {
    octokit: delivery.octokit,
    installationId: event.installationId,
    triggerPhrase: loaded.config.trigger_phrase,
    deps,
    log,
  });
}
