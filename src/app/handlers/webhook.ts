/**
 * A webhook in two halves. `receiveDelivery` runs before GitHub gets its answer and does only what
 * cannot wait: (Probot has verified the signature) drop what no configuration could make a trigger,
 * dedupe the delivery id, store the delivery in the queue. `processDelivery` runs in a worker, on any
 * replica: parse, config, detect, prepare (flows, which plan through core), then dedupe, store and
 * hand over to the engine. Every decision is core's; every read goes through flows and github;
 * every write is the engine's: nothing under handlers/ writes to GitHub.
 */
import type { ProbotOctokit } from "probot";
import { DEFAULT_REPO_CONFIG } from "../../config/schema.js";
import { EventPayloadError, type BridgeEvent } from "../../core/events/types.js";
import { parseWebhookEvent } from "../../core/events/parse.js";
import { detectTrigger, type IgnoreCode } from "../../core/detect/index.js";
import type { RunTrigger } from "../../core/detect/triggers.js";
import { prepareRun, selectAutomations } from "../../flows/index.js";
import { BRIDGE_VERSION } from "../../version.js";
import { deliveryJobId, type DeliveryJobData } from "../queue/types.js";
import { judgeTriggerAge } from "../../core/trigger-age.js";
import { actOnPrepared } from "./act.js";
import { handleStop } from "./stop.js";
import { answerConfigError, loadRepoConfig } from "./config.js";
import { reportSkippedAutomations } from "./config-warnings.js";
import { storeLookup } from "./lookup.js";
import { selfOf, type AppDependencies, type HandlerLogger } from "./types.js";
import { annotateSpan, currentTraceparent, decisionAttributes, withSpan, withTraceparent } from "../ops/tracing.js";

/** A delivery as Probot hands it to the App, after the signature check. */
export interface WebhookDelivery {
  /** `X-GitHub-Delivery`. */
  id: string;
  /** `X-GitHub-Event`. */
  name: string;
  payload: unknown;
}

/** Ignore reasons that no configuration can change: such events are dropped before anything is stored. */
const CONFIG_INDEPENDENT: ReadonlySet<IgnoreCode> = new Set(["unsupported_event", "unsupported_action", "bot_sender", "own_check_suite"]);

/** `not_allowed`: the installation's account is not in ALLOWED_OWNERS. */
export type Receipt = "queued" | "duplicate" | "not_for_us" | "not_allowed";

/**
 * How long storing a delivery may take before the answer is 503. GitHub waits 10 s, and with Redis
 * unreachable ioredis would queue the commands until it is back: a bounded wait answers honestly instead.
 */
export const RECEIVE_DEADLINE_MS = 3_000;

/** The delivery could not be stored (its backend is unreachable or too slow): answered 503, so it can be redelivered. */
class DeliveryNotStoredError extends Error {
  override name = "DeliveryNotStoredError";
  /** The HTTP status @octokit/webhooks answers with (it reads `status` from the handler's error). */
  readonly status = 503;
}

/**
 * Stores the delivery durably and returns; the HTTP answer follows. No GitHub or service call here.
 * Throws DeliveryNotStoredError (answered 503) when the store or the queue cannot take it within
 * RECEIVE_DEADLINE_MS, so GitHub shows the delivery as failed and it can be redelivered.
 */
export async function receiveDelivery(delivery: WebhookDelivery, deps: AppDependencies): Promise<Receipt> {
  // Before anything is parsed or stored: a stranger's installation costs nothing but this check.
  if (deps.installations && !deps.installations.admits(delivery)) return "not_allowed";
  let event: BridgeEvent | null = null;
  try {
    event = parseWebhookEvent(delivery.name, delivery.payload);
  } catch (error) {
    // The intake answers 422 to such payloads of the App's events (app/webhook-intake.ts), so this is a backstop:
    // stored anyway, the worker logs what was wrong with it, off the hot path.
    if (!(error instanceof EventPayloadError)) throw error;
  }
  if (event) {
    const quick = detectTrigger(event, DEFAULT_REPO_CONFIG, selfOf(deps));
    if (quick.kind === "ignore" && CONFIG_INDEPENDENT.has(quick.code)) {
      deps.observer?.dropped?.(quick.code);
      return "not_for_us";
    }
    // A replay under a new delivery id: older than the dedupe memory, so judged by the trigger's own (signed) time.
    const stale = judgeTriggerAge(event, Date.now());
    if (stale) {
      deps.log.info({ delivery: delivery.id, code: stale.code, reason: stale.reason }, "ignored");
      deps.observer?.ignored(stale.code);
      return "not_for_us";
    }
  }
  const storing = withSpan("delivery store", {}, () => storeDelivery(delivery, event, deps));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${RECEIVE_DEADLINE_MS} ms`)), RECEIVE_DEADLINE_MS);
  });
  try {
    return await Promise.race([storing, deadline]);
  } catch (error) {
    // A mark that failed may still have landed: forget it, or a redelivery would be taken for a duplicate. (Queued late is fine: its job runs.)
    void storing.catch(() => deps.store.forgetDelivery(delivery.id)).catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new DeliveryNotStoredError(
      `the delivery could not be stored (${reason}); redeliver it from the App's settings once GET /healthz answers 200`,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function storeDelivery(delivery: WebhookDelivery, event: BridgeEvent | null, deps: AppDependencies): Promise<Receipt> {
  const { store, queue } = deps;
  if (!(await store.markDelivery(delivery.id, delivery.name))) return "duplicate";
  const data: DeliveryJobData = {
    deliveryId: delivery.id,
    event: delivery.name,
    payload: delivery.payload,
    installationId: event?.installationId ?? null,
    receivedAt: Date.now(),
    // The trace travels with the job: the replica that takes it continues this delivery's trace.
    ...withTraceparent(currentTraceparent()),
  };
  try {
    await queue.add({ id: deliveryJobId(delivery.id), name: "delivery", data });
  } catch (error) {
    await store.forgetDelivery(delivery.id).catch(() => undefined);
    throw error;
  }
  return "queued";
}

/** The installation token, for downloading attachments of private repositories. */
async function installationToken(octokit: ProbotOctokit): Promise<string | undefined> {
  const auth = (await octokit.auth({ type: "installation" })) as { token?: unknown } | null;
  return typeof auth?.token === "string" ? auth.token : undefined;
}

/** The worker's half: everything the delivery asks for, retried by the queue when GitHub or the service fails. */
export async function processDelivery(data: DeliveryJobData, deps: AppDependencies): Promise<void> {
  const log: HandlerLogger = deps.log;
  // Queued before ALLOWED_OWNERS was set (or changed), and taken up now: the list as it is now decides.
  if (deps.installations && !deps.installations.admits({ id: data.deliveryId, name: data.event, payload: data.payload })) return;
  let event: BridgeEvent;
  try {
    event = parseWebhookEvent(data.event, data.payload);
  } catch (error) {
    if (error instanceof EventPayloadError) {
      // Nothing could ever make it a trigger, and there is no thread to answer in.
      log.warn({ delivery: data.deliveryId, issues: error.issues }, error.message);
      deps.observer?.ignored("bad_payload");
      return;
    }
    throw error;
  }

  const octokit = await deps.octokitFor(data.installationId);
  const self = selfOf(deps);
  const loaded = await loadRepoConfig(octokit, event.repo ? { owner: event.repo.owner, repo: event.repo.name } : null);
  if (!loaded.ok) {
    deps.observer?.refused("config_error");
    await answerConfigError({ event, loaded, self, deps, installationId: data.installationId });
    return;
  }

  if (loaded.warnings.length > 0)
    log.warn(
      { delivery: data.deliveryId, problems: loaded.warnings },
      "the repository's agent-run.yml has invalid automations; they are skipped",
    );
  const detection = detectTrigger(event, loaded.config, self);
  annotateSpan({ "bridge.detection": detection.kind, "bridge.decision.code": detection.kind === "ignore" ? detection.code : undefined });
  await reportSkippedAutomations({ event, detection, loaded, self, octokit, deps, installationId: data.installationId, log });
  if (detection.kind === "ignore") {
    log.info({ delivery: data.deliveryId, code: detection.code, reason: detection.reason }, "ignored");
    deps.observer?.ignored(detection.code);
    return;
  }
  if (detection.kind === "stop") {
    await handleStop({ request: detection.stop, config: loaded.config, octokit, installationId: data.installationId, deps });
    return;
  }

  const prepareAndAct = async (trigger: RunTrigger) => {
    const prepared = await prepareRun({
      octokit,
      trigger,
      config: loaded.config,
      self,
      client: deps.client,
      lookup: storeLookup(deps.store),
      origin: { deliveryId: data.deliveryId, appName: deps.identity.slug, appVersion: BRIDGE_VERSION },
      images: { ...deps.images, token: () => installationToken(octokit) },
      logger: log,
    });
    const act = () =>
      actOnPrepared(prepared, {
        installationId: event.installationId,
        config: loaded.config,
        receivedAt: data.receivedAt,
        triggerPhrase: loaded.config.trigger_phrase,
        deps,
        log,
      });
    await withSpan("decision", decisionAttributes(prepared), act);
  };
  if (detection.kind === "trigger") return prepareAndAct(detection.trigger);
  // Automations: each on its own, in the configuration's order (one failing is retried without the others starting twice: each claims its own key).
  const selection = await selectAutomations(octokit, detection.triggers);
  for (const reason of selection.skipped) {
    log.info({ delivery: data.deliveryId, code: "automation_filtered", reason }, "ignored");
    deps.observer?.ignored("automation_filtered");
  }
  for (const trigger of selection.triggers) await prepareAndAct(trigger);
}
