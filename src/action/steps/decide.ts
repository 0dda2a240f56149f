/**
 * Deciding: the repository's configuration with the inputs over it, then what the event asks for.
 * Core decides (`detectTrigger`, then `planRun` with the `mode` input as one of its facts, through
 * `prepareRun`); this part gathers what those decisions need and turns their answer into either a
 * finished step (nothing to do, a reply, a stop) or a run to start.
 */
import { botIdentityOf, listTrustedRunMarkers } from "../../core/markers/trust.js";
import { startedAutomations } from "../../core/automations.js";
import type { RepoConfig } from "../../config/schema.js";
import { isThreadEvent } from "../../core/events/types.js";
import { newRunMarker } from "../../core/markers/write.js";
import type { MarkerPlace, RunMarker } from "../../core/markers/schema.js";
import { detectTrigger } from "../../core/detect/index.js";
import { triggerThread, type AutomationTrigger, type RunTrigger, type StopRequest } from "../../core/detect/triggers.js";
import { planRun, type RunMode } from "../../core/plan.js";
import { refusedRecently } from "../../core/refusals.js";
import type { ReviewRequest } from "../../core/review/trigger.js";
import type { RepoRef } from "../../github/client.js";
import { listIssueComments } from "../../github/comments.js";
import type { TrackingPhase } from "../../core/render/tracking.js";
import {
  asMarkerComments,
  configErrorReply,
  detectDespiteConfigError,
  factsFromConfig,
  mayHearConfigError,
  killSwitchInPayload,
  markerPlaceOf,
  MARKERS_ONLY_LOOKUP,
  planFromEvent,
  prepareRun,
  selectAutomations,
  sharedRepositoryIds,
  THREAD_COMMENT_SCAN_LIMIT,
  type PreparedRun,
  type PreparedStart,
} from "../../flows/index.js";
import { listRecentRepositoryComments } from "../../flows/spend-limits.js";
import type { AgentRun, CreateRunRequest } from "../../service/wire.js";
import { SOURCE } from "../../service/wire.js";
import { BRIDGE_VERSION } from "../../version.js";
import { effectiveConfig, fetchConfigFile, layeredConfigInput, parseConfigFile } from "../repo-config.js";
import { workflowRunUrl } from "../runner-env.js";
import { findEarlierAttempt } from "./rerun.js";
import { stopFromThread } from "../stop.js";
import type { ThreadReporter } from "../thread.js";
import { ACTION_NAME, deliveryId, fail, identify, identifyAhead, requestIdOf, threadReporter, type Step, type StepResult } from "./step.js";
import { log } from "../door.js";
import { createOnce, withOwnCreateId } from "./create-once.js";

/** The thread's newest comments searched for an earlier refusal (a day of a busy thread). */
const REFUSAL_SCAN = 100;

export type LoadedConfig = { ok: true; config: RepoConfig } | { ok: false; errors: string[]; fileRaw: unknown };

/** `.github/agent-run.yml` from the default branch, then the inputs laid over it. */
export async function loadConfig(step: Step): Promise<LoadedConfig> {
  const text = step.repo ? await (step.configFile ?? fetchConfigFile(step.octokit, step.repo)) : undefined;
  const file = await parseConfigFile(text, step.repo ?? null);
  if (!file.ok) return { ok: false, errors: file.errors, fileRaw: undefined };
  for (const warning of file.warnings) log.warning(warning);
  const parsed = effectiveConfig(file.raw, step.inputs, step.event.name);
  if (parsed.ok) for (const warning of parsed.warnings) log.warning(warning);
  // Judged as the step would have read it: inputs over the file (a `workflow_run` step turns CI auto-fix on).
  return parsed.ok
    ? { ok: true, config: parsed.config }
    : { ok: false, errors: parsed.errors, fileRaw: layeredConfigInput(file.raw, step.inputs, step.event.name) };
}

/** A broken configuration: said once in the thread when the event would have been a trigger, and the step fails. */
export async function reportConfigError(step: Step, config: Extract<LoadedConfig, { ok: false }>): Promise<StepResult> {
  const message = `The agent configuration is invalid, so nothing was started: ${config.errors.join("; ")}`;
  const despite = detectDespiteConfigError(step.event, config.fileRaw, step.self);
  const askedByWorkflow = step.inputs.prompt !== undefined || step.inputs.mode === "resume";
  if (!askedByWorkflow && despite.kind !== "trigger") {
    log.warning(message);
    return { outcome: { kind: "ignored", reason: message }, failure: null };
  }
  // Someone who may not trigger runs hears nothing of the repository's settings.
  if (!askedByWorkflow && despite.kind === "trigger" && step.repo) {
    const audience = await mayHearConfigError({
      octokit: step.octokit,
      repo: step.repo,
      trigger: despite.trigger,
      raw: config.fileRaw,
      self: step.self,
    });
    if (!audience.allowed) {
      const reason = `${message} Nothing was said in the thread: ${audience.why}`;
      log.warning(reason);
      return { outcome: { kind: "ignored", reason }, failure: null };
    }
  }
  // The bot's earlier config-error reply, if any, must be recognised as its own.
  const self = await identify(step);
  // A CI failure's thread is its pull request.
  const threadNumber = isThreadEvent(step.event)
    ? step.event.thread.number
    : despite.kind === "trigger"
      ? (triggerThread(despite.trigger)?.number ?? null)
      : null;
  const thread = threadReporter(step, threadNumber === null ? null : { number: threadNumber });
  let comment = null;
  if (thread.enabled && step.repo && threadNumber !== null) {
    const body = await configErrorReply({
      octokit: step.octokit,
      repo: step.repo,
      threadNumber,
      errors: config.errors,
      self: botIdentityOf(self),
    });
    if (body) comment = await thread.reply(body);
  }
  return fail(step, message, null, comment);
}

/** A run to start: how to send it, and what its tracking comment says meanwhile. */
export interface Start {
  marker: RunMarker;
  phase: TrackingPhase;
  triggerUrl: string | null;
  reaction: PreparedStart["reaction"];
  resumed: boolean;
  /** A queued follow-up: the thread's run still working, waited for before the resume is sent. */
  waitFor?: number;
  /**
   * `follow_up: interrupt`: sent to the working agent at once; where the service refuses, the step
   * falls back to `waitFor` (queued) and the tracking comment says why.
   */
  interrupt?: { firstLine: string; send: () => Promise<AgentRun> };
  /** A create without `repo_id`: the tracking comment says the organization's default applies. */
  orgDefaultRepository?: boolean;
  /** Review mode: the pull request's head this run reviews and the inline limit; the review is posted when it ends. */
  review?: ReviewRequest;
  send: () => Promise<AgentRun>;
}

export type Decision =
  | { kind: "done"; result: StepResult }
  /** `prepared` (what the spend limits judge) is null when nothing new is spent: a run named by `mode: resume`, or adopted from an interrupted attempt. */
  | { kind: "start"; start: Start; thread: ThreadReporter; prepared: PreparedStart | null };

const done = (result: StepResult): Decision => ({ kind: "done", result });

/** Stop, ignore, reply, or start: what the event (and the `mode` and `prompt` inputs) ask for. */
export async function decide(step: Step, config: RepoConfig): Promise<Decision> {
  const { inputs, event } = step;
  // Most events of a comment workflow are not for the agent: decide that before asking GitHub who
  // the token is (every bot not in `allowed-bots` is already refused by type; the identity only
  // adds which bot is us, never let in by the list).
  const detect = () => detectTrigger(event, config, step.self, inputs.prompt ? { explicitPrompt: inputs.prompt } : {});
  let detection = detect();
  // A thread the kill switch holds back: planRun says so from the payload, before GitHub is asked anything.
  const early = detection.kind === "trigger" ? planFromEvent(detection.trigger, config) : null;
  if (early?.action === "ignore") return done(ignored(early.reason));
  // `mode: resume` names the run and its follow-up: the comment that started the workflow is no request of its own.
  if (detection.kind === "stop" && inputs.mode === "resume")
    return done(ignored("The comment asks to stop the thread's run, and this step resumes the run its workflow names (`mode: resume`)."));
  if (detection.kind !== "ignore") {
    await identify(step);
    detection = detect();
  }
  if (detection.kind === "ignore") {
    if (detection.code === "unsupported_event") {
      return done(
        fail(
          step,
          `The "${event.name}" event has no comment, review or failing CI to act on: give the action a \`prompt\` input to start a run from it.`,
          null,
        ),
      );
    }
    // A workflow that listens for new issues or pull requests was written for automations: say plainly that none listens.
    if (detection.code === "no_automation") log.warning(`${detection.reason} Add one under \`automations\` in .github/agent-run.yml.`);
    return done(ignored(detection.reason));
  }
  if (detection.kind === "stop")
    return step.repo ? stopAsAsked(step, step.repo, config, detection.stop) : done(ignored("The stop names no repository to act in."));
  if (detection.kind === "automations") {
    const trigger = await automationToStart(step, detection.triggers);
    return trigger
      ? prepareAndAct(step, config, trigger)
      : done(ignored("Every automation this event matches has started in this thread already, or its `paths` filter held it back."));
  }

  if (inputs.mode === "resume") return resumeAsNamed(step, config, detection.trigger);
  return prepareAndAct(step, config, detection.trigger);
}

/** A trigger through prepareRun, and its answer acted on. */
async function prepareAndAct(step: Step, config: RepoConfig, trigger: RunTrigger): Promise<Decision> {
  const { inputs } = step;
  const prepared = await prepareRun({
    octokit: step.octokit,
    trigger,
    config,
    self: step.self,
    mode: inputs.mode === "create" ? { kind: "create" } : { kind: "auto" },
    client: step.runs,
    lookup: MARKERS_ONLY_LOOKUP,
    origin: { deliveryId: deliveryId(step.runner), appName: ACTION_NAME, appVersion: BRIDGE_VERSION },
    images: { token: inputs.githubToken, server: step.runner.server },
    logger: { warn: (_obj, message) => log.warning(message) },
  });
  log.info(prepared.reason);
  if (prepared.thread && step.repoFullName)
    step.summary.thread = { label: `${step.repoFullName}#${prepared.thread.number}`, url: prepared.thread.url };
  return actOnPrepared(step, prepared);
}

/**
 * The automation this step starts: the first, in the configuration's order, whose `paths` filter
 * lets the pull request through and that has not started in this thread (the Action keeps no
 * store: the bot's own signed tracking comments say which did). One run per step: another match is
 * logged, not started.
 */
async function automationToStart(step: Step, triggers: readonly AutomationTrigger[]): Promise<AutomationTrigger | null> {
  const selection = await selectAutomations(step.octokit, triggers);
  for (const reason of selection.skipped) log.info(`Not started: ${reason}`);
  const first = selection.triggers[0];
  if (!first || !step.repo) return null;
  const self = await identify(step);
  const { comments } = await listIssueComments(step.octokit, step.repo, first.thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT });
  const place = markerPlaceOf(step.repo, first.thread.number);
  const started = startedAutomations(listTrustedRunMarkers(asMarkerComments(comments), botIdentityOf(self), place));
  const fresh = selection.triggers.filter((trigger) => !started.has(trigger.automation.name));
  for (const trigger of selection.triggers)
    if (started.has(trigger.automation.name))
      log.info(`Not started: the automation "${trigger.automation.name}" already started in this thread.`);
  for (const trigger of fresh.slice(1))
    log.warning(`The automation "${trigger.automation.name}" also matches, but a step starts one run: give it a workflow of its own.`);
  return fresh[0] ?? null;
}

/** Nothing to do, said in the log. */
function ignored(reason: string): StepResult {
  log.info(`Nothing to do: ${reason}`);
  return { outcome: { kind: "ignored", reason }, failure: null };
}

/** `/agent stop` is not a task: this job lets go of the thread's runs (see stop.ts). */
async function stopAsAsked(step: Step, repo: RepoRef, config: RepoConfig, stop: StopRequest): Promise<Decision> {
  const self = await identify(step);
  const thread = threadReporter(step, { number: stop.thread.number });
  return done({
    outcome: await stopFromThread({ octokit: step.octokit, repo, request: stop, config, self, client: step.runs, thread }),
    failure: null,
  });
}

/** What prepareRun's answer means for this step: nothing, a reply, or a run to start (or an earlier attempt's run to adopt). */
async function actOnPrepared(step: Step, prepared: PreparedRun): Promise<Decision> {
  const thread = threadReporter(step, prepared.thread);
  switch (prepared.action) {
    case "ignore":
      return done({ outcome: { kind: "ignored", reason: prepared.reason }, failure: null });
    case "refuse":
    case "hand_back": {
      if (prepared.action === "refuse" && (await toldAlready(step, prepared))) {
        log.notice(`${prepared.reason} (already told in this thread within a day: no new reply)`, { title: "Agent run refused" });
        return done({ outcome: { kind: "refused", reason: prepared.reason, comment: null }, failure: null });
      }
      const comment = await thread.reply(prepared.body);
      const kind = prepared.action === "refuse" ? "refused" : "handed_back";
      log.notice(prepared.reason, { title: prepared.action === "refuse" ? "Agent run refused" : "Pull request handed back" });
      return done({ outcome: { kind, reason: prepared.reason, comment }, failure: null });
    }
    case "queue":
      if (prepared.runId === null)
        return done(fail(step, "The thread's run is still being created; trigger the agent again once it has started.", null));
      return { kind: "start", start: startFor(step, prepared), thread, prepared };
    case "resume":
      return { kind: "start", start: startFor(step, prepared), thread, prepared };
    case "create": {
      const earlier = await findEarlierAttempt(step, prepared);
      if (earlier) thread.continueTracking(earlier.comment);
      const adopted = earlier?.run;
      if (!adopted) return { kind: "start", start: startFor(step, prepared), thread, prepared };
      // Nothing is sent: the earlier attempt's run is watched, and was counted by the spend limits when it started.
      return { kind: "start", start: { ...startFor(step, prepared), send: () => Promise.resolve(adopted) }, thread, prepared: null };
    }
  }
}

/** Someone who may not trigger was refused in this thread within a day: the Action reads its own earlier refusal there. */
async function toldAlready(step: Step, prepared: Extract<PreparedRun, { action: "refuse" }>): Promise<boolean> {
  const login = prepared.trigger.actor?.login;
  if (prepared.facts.permission?.allowed !== false || !login || !step.repo) return false;
  const self = await identify(step);
  const { comments } = await listIssueComments(step.octokit, step.repo, prepared.thread.number, { limit: REFUSAL_SCAN });
  const place = markerPlaceOf(step.repo, prepared.thread.number);
  return refusedRecently(asMarkerComments(comments), login, botIdentityOf(self), step.now(), place);
}

/**
 * Starts the decisions early when the event is surely a request (an explicit prompt or a named
 * run): who the bot is is then asked of GitHub while the configuration is read.
 */
export function decideAhead(step: Step): void {
  if (step.inputs.prompt !== undefined || step.inputs.mode === "resume") identifyAhead(step);
  // A prompt means a run will be started (unless a limit holds it): its spend-limit count needs the
  // repository's recent comments, so that request overlaps the identity and the configuration too.
  if (step.inputs.prompt !== undefined && step.inputs.mode !== "resume" && step.repo) {
    // Unless the head start already listed them.
    if (!step.recentComments) {
      step.recentComments = listRecentRepositoryComments(step.octokit, step.repo, step.now());
      // A failure is reported where the comments are awaited (the limits are then skipped, with a warning).
      step.recentComments.catch(() => undefined);
    }
    // So does the service's repository list, which a create without `repo-id` reads for its
    // `repo_id` (prepareRun then finds it cached, in flight or read). One read is spent for nothing
    // when the configuration file sets `repo_id`; a failed listing is asked again, and reported, there.
    if (step.inputs.repoId === undefined && step.event.repo) {
      void sharedRepositoryIds.lookup(step.runs, { fullName: step.event.repo.fullName, githubId: step.event.repo.id });
    }
  }
}

/** `mode: resume`: the workflow names the run and the follow-up; no trigger author's permission or thread lookup is involved. */
function resumeAsNamed(step: Step, config: RepoConfig, trigger: RunTrigger): Decision {
  const { inputs, event } = step;
  const mode: RunMode = { kind: "resume", runId: inputs.runId!, orgId: inputs.orgId };
  const plan = planRun(trigger, {
    ...factsFromConfig(config, mode),
    killSwitch: killSwitchInPayload(trigger, config),
    permission: { allowed: true, why: "The workflow names the run (`mode: resume`)." },
    knownRun: null,
  });
  if (plan.action !== "resume") return done(fail(step, `\`mode: resume\` could not resume run ${mode.runId}: ${plan.reason}`, null));
  log.info(plan.reason);
  if (step.images.length > 0 || inputs.metadata)
    log.warning("`images` and `metadata` are only sent when a run is created; a resume sends the prompt alone.");
  const thread = threadReporter(step, isThreadEvent(event) ? { number: event.thread.number } : null);
  const marker = newRunMarker({
    place: placeOf(step, isThreadEvent(event) ? event.thread.number : null),
    runId: plan.runId,
    orgId: plan.orgId,
    sourceType: SOURCE.api,
    requestId: requestIdOf(step.runner),
  });
  return {
    kind: "start",
    thread,
    prepared: null,
    start: {
      marker,
      phase: "resuming",
      triggerUrl: null,
      reaction: null,
      resumed: true,
      send: () => step.client.resumeRun(plan.runId, inputs.prompt!, { deadline: step.deadline }),
    },
  };
}

/** Where this step's markers belong: the repository's thread it comments in, or none. */
function placeOf(step: Step, threadNumber: number | null): MarkerPlace | null {
  return step.repo && threadNumber !== null ? markerPlaceOf(step.repo, threadNumber) : null;
}

/** What `prepareRun`'s plan means for this step: the marker, the first phase, the call. */
function startFor(step: Step, prepared: PreparedStart): Start {
  const { inputs, client } = step;
  const marker = newRunMarker({
    place: placeOf(step, prepared.thread?.number ?? null),
    runId: prepared.action === "create" ? null : prepared.runId,
    orgId: inputs.orgId,
    sourceType: prepared.markerHints.sourceType,
    branches: prepared.markerHints.branches,
    requestId: requestIdOf(step.runner),
    ...(prepared.markerHints.headSha ? { headSha: prepared.markerHints.headSha } : {}),
    ...(prepared.trigger.flow === "automation" ? { automation: prepared.trigger.automation.name } : {}),
  });
  const common = {
    marker,
    triggerUrl: prepared.triggerUrl,
    reaction: prepared.reaction,
    ...(prepared.review ? { review: prepared.review } : {}),
  };
  switch (prepared.action) {
    case "create": {
      const request = withOwnCreateId(createRequest(step, prepared.request));
      return {
        ...common,
        phase: "starting",
        resumed: false,
        orgDefaultRepository: request.repo_id == null,
        send: () => createOnce(step, request),
      };
    }
    case "resume":
      return {
        ...common,
        phase: "resuming",
        resumed: true,
        send: () => client.resumeRun(prepared.runId, prepared.resumePrompt, { deadline: step.deadline }),
      };
    case "queue": {
      // No queue survives a step: the thread's run is waited for here, then the follow-up is sent.
      const runId = prepared.runId!;
      const interrupt = prepared.interrupt;
      return {
        ...common,
        phase: "queued_follow_up",
        resumed: true,
        waitFor: runId,
        send: () => client.resumeRun(runId, prepared.resumePrompt, { deadline: step.deadline }),
        ...(interrupt
          ? {
              interrupt: {
                firstLine: interrupt.firstLine,
                send: () => client.interruptRun(runId, prepared.resumePrompt, { deadline: step.deadline }),
              },
            }
          : {}),
      };
    }
  }
}

/** The create body: the prepared one, the workflow's metadata beside the bridge's, the workflow's images added. */
function createRequest(step: Step, prepared: CreateRunRequest & { metadata: Record<string, unknown> }): CreateRunRequest {
  const workflowRun = workflowRunUrl(step.runner);
  // The inputs refuse a workflow key the bridge reserves; the bridge's own keys still come last, whatever the input held.
  const metadata: Record<string, unknown> = {
    ...step.inputs.metadata,
    ...prepared.metadata,
    ...(workflowRun ? { github_actions_run_url: workflowRun } : {}),
  };
  const images = [...(prepared.images ?? []), ...step.images];
  return { ...prepared, metadata, ...(images.length > 0 ? { images } : {}) };
}
