/**
 * The Action, from the runner's environment to its outputs:
 *
 *   1. inputs, read once and validated (nothing is sent when they are wrong); the API token masked first
 *   2. the event (GITHUB_EVENT_NAME / GITHUB_EVENT_PATH) and `.github/agent-run.yml`, inputs over it
 *   3. the App's decisions through src/flows: trigger, permission, create or resume, prompt, metadata
 *   4. the run: tracking comment, create / resume, watch until final or `timeout-minutes`
 *   5. reporting: result comment, outputs, job summary; `setFailed` at most once, at the very end
 *
 * No state survives the step: the thread's hidden markers (written by the bot's own logins) are the
 * memory that lets a later step resume the same run.
 */
import * as core from "@actions/core";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../config/schema.js";
import { isThreadEvent, parseWebhookEvent, type BridgeEvent } from "../core/events.js";
import { newRunMarker, outcomeForPhase, type RunMarker } from "../core/markers.js";
import { triggerThread, type BridgeSelf } from "../core/plan.js";
import { detectStopRequest } from "../core/stop.js";
import { renderResultComment, renderServiceError, renderTrackingComment, serviceErrorForComment, type TrackingPhase } from "../core/render.js";
import { configErrorReply, detectDespiteConfigError, MARKERS_ONLY_LOOKUP, prepareRun, type PreparedStart, type ReplyThread } from "../flows/index.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { AgentRunClient } from "../service/client.js";
import { AgentRunError } from "../service/errors.js";
import { classifyRunStatus, type RunPhase } from "../service/status.js";
import { SOURCE, type AgentRun, type CreateRunRequest } from "../service/wire.js";
import { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
import { detectActionTrigger, isAllowedBotActor } from "./detect.js";
import { identityFor, resolveIdentity } from "./identity.js";
import { loadImages } from "./images.js";
import { nodeFetch } from "./node-fetch.js";
import { createActionOctokit, proxyFor } from "./octokit.js";
import { linkPullRequests } from "./links.js";
import { InputError, rawInput, readInputs, type ActionInputs, type Env } from "./inputs.js";
import { effectiveConfig, fetchConfigFile, layeredConfigInput, parseConfigFile, CONFIG_PATH } from "./repo-config.js";
import { OUTPUT_NAMES, outputsFor, renderJobSummary, type ActionOutcome, type PostedComment, type SummaryContext } from "./report.js";
import { pollScheduleFrom, readCurrentStep, readTraceDigest, repositoryRunReader, watchRun, type PollSchedule } from "./runs.js";
import { readEventPayload, readRunnerEnv, RunnerEnvError, workflowRunUrl, type RunnerEnv } from "./runner-env.js";
import { holdBySpendLimits } from "./spend-limits.js";
import { StopWatch, stopCheckIntervalMs } from "./stop-watch.js";
import { stopFromThread } from "./stop.js";
import { ThreadReporter } from "./thread.js";

/** How the Action names itself in run metadata. */
export const ACTION_NAME = `${BRIDGE_NAME}/action`;

export interface RunOptions {
  /** Default: the process environment (what the runner set). */
  env?: Env;
  /** Default: Date.now. */
  now?: () => number;
}

/** What happened, and the one failure message for `setFailed` (null: the step succeeds). */
export interface StepResult {
  outcome: ActionOutcome;
  failure: string | null;
  /** What the job summary links to; absent when the step stopped before knowing. */
  context?: SummaryContext;
}

/** Everything a step needs once inputs, event and configuration are read. */
interface Step {
  inputs: ActionInputs;
  runner: RunnerEnv;
  event: BridgeEvent;
  repo: RepoRef | null;
  repoFullName: string | null;
  octokit: GitHubClient;
  client: AgentRunClient;
  self: BridgeSelf;
  images: string[];
  now: () => number;
  startedAt: number;
  deadline: number;
  poll: PollSchedule;
  /** Filled in as the step learns where it is. */
  summary: SummaryContext;
}

/** Runs the step and reports it; resolves when everything is written (never rejects). */
export async function run(options: RunOptions = {}): Promise<StepResult> {
  const env = options.env ?? process.env;
  // Masked before anything else can print it, even when the rest of the inputs are wrong.
  for (const name of ["api-token", "github-token"]) {
    const secret = rawInput(env, name);
    if (secret) core.setSecret(secret);
  }
  const result = await runStep(env, options.now ?? Date.now);
  await report(result, env);
  return result;
}

async function runStep(env: Env, now: () => number): Promise<StepResult> {
  let inputs: ActionInputs | null = null;
  try {
    inputs = readInputs(env);
    const runner = readRunnerEnv(env);
    const payload = await readEventPayload(runner);
    const event = parseWebhookEvent(runner.eventName, payload);
    const images = await loadImages(inputs.images, runner.workspace);
    const startedAt = now();
    const step = await createStep(inputs, runner, event, images, env, now, startedAt);
    const result = await act(step);
    return { ...result, context: step.summary };
  } catch (error) {
    const message = errorMessage(error);
    // Wrong inputs or a runner that is not one are never "soft": nothing could be tried.
    const hard = error instanceof InputError || error instanceof RunnerEnvError || !inputs || inputs.failOnError;
    return { outcome: { kind: "error", message, run: null, resumed: false, comment: null }, failure: hard ? message : null };
  }
}

async function createStep(inputs: ActionInputs, runner: RunnerEnv, event: BridgeEvent, images: string[], env: Env, now: () => number, startedAt: number): Promise<Step> {
  const repoFullName = event.repo?.fullName ?? runner.repository;
  const [owner, name] = (repoFullName ?? "").split("/");
  const repo = owner && name ? { owner, repo: name } : null;
  if (inputs.githubToken === "") {
    throw new InputError(["`github-token` is empty: leave it unset (the job's token is the default) or pass a token that can write issue comments"]);
  }
  return {
    inputs,
    runner,
    event,
    repo,
    repoFullName,
    octokit: await createActionOctokit(inputs.githubToken, runner.apiUrl, `${ACTION_NAME}/${BRIDGE_VERSION}`),
    client: new AgentRunClient({
      baseUrl: inputs.apiUrl,
      token: inputs.apiToken,
      orgId: inputs.orgId,
      userAgent: `${ACTION_NAME}/${BRIDGE_VERSION}`,
      logsPath: inputs.logsPath,
      logger: { warn: (message) => core.warning(message) },
      // Through a proxy, Node's own fetch as before; otherwise node:http, which starts faster.
      ...(proxyFor(inputs.apiUrl) ? {} : { fetch: nodeFetch }),
    }),
    self: identityFor(null),
    images,
    now,
    startedAt,
    deadline: startedAt + inputs.timeoutMinutes * 60_000,
    poll: pollScheduleFrom(env.AGENT_RUN_POLL_INTERVAL),
    summary: { thread: isThreadEvent(event) ? { label: `${repoFullName ?? event.repo.fullName}#${event.thread.number}`, url: event.thread.url } : null, triggerPhrase: DEFAULT_REPO_CONFIG.trigger_phrase },
  };
}

// ---------------------------------------------------------------------------------------------
// Deciding

async function act(step: Step): Promise<StepResult> {
  const { inputs, event, octokit } = step;
  const config = await loadConfig(step);
  if (!config.ok) return configFailure(step, config.fileRaw, config.errors);
  step.summary.triggerPhrase = config.config.trigger_phrase;

  // `/agent stop` is not a task: this job lets go of the thread's runs (see stop.ts).
  const stop = inputs.prompt || inputs.mode === "resume" ? null : detectStopRequest(event, config.config, step.self);
  if (stop && step.repo) {
    step.self = { botLogins: (await resolveIdentity(octokit)).botLogins };
    const thread = new ThreadReporter(octokit, step.repo, commentThread(step, { number: stop.thread.number }), logSink);
    const outcome = await stopFromThread({ octokit, repo: step.repo, request: stop, config: config.config, self: step.self, client: repositoryRunReader(step.client, step.repoFullName), thread });
    return { outcome, failure: null };
  }

  const detect = () => detectActionTrigger(event, config.config, step.self, inputs.allowedBots, inputs.prompt ? { explicitPrompt: inputs.prompt } : {});
  // Most events of a comment workflow are not for the agent: decide that before asking GitHub who
  // the token is (every bot is already refused by type; the identity only adds which bot is us).
  let detection = inputs.mode === "resume" ? null : detect();
  if (detection?.kind !== "ignore") {
    step.self = { botLogins: (await resolveIdentity(octokit)).botLogins };
    if (inputs.mode === "resume") return resumeExplicitly(step, config.config);
    detection = detect();
  }
  if (detection.kind === "ignore") {
    if (detection.code === "unsupported_event") {
      return fail(step, `The "${event.name}" event has no comment, review or failing CI to act on: give the action a \`prompt\` input to start a run from it.`, null);
    }
    core.info(`Nothing to do: ${detection.reason}`);
    return { outcome: { kind: "ignored", reason: detection.reason }, failure: null };
  }
  let trigger = detection.trigger;
  if (inputs.mode === "create" && !trigger.forceNew) trigger = { ...trigger, forceNew: true };

  const prepared = await prepareRun({
    octokit,
    trigger,
    config: config.config,
    self: step.self,
    client: repositoryRunReader(step.client, step.repoFullName),
    lookup: MARKERS_ONLY_LOOKUP,
    origin: { deliveryId: deliveryId(step.runner), appName: ACTION_NAME, appVersion: BRIDGE_VERSION },
    images: { token: inputs.githubToken, tokenOrigins: [step.runner.serverUrl] },
    allowedBots: (login: string) => isAllowedBotActor(login, step.self, inputs.allowedBots),
    logger: { warn: (_obj, message) => core.warning(message) },
  });
  core.info(prepared.reason);
  if (prepared.thread && step.repoFullName) step.summary.thread = { label: `${step.repoFullName}#${prepared.thread.number}`, url: prepared.thread.url };

  const thread = new ThreadReporter(octokit, step.repo ?? { owner: "", repo: "" }, commentThread(step, prepared.thread), logSink);
  switch (prepared.action) {
    case "ignore":
      return { outcome: { kind: "ignored", reason: prepared.reason }, failure: null };
    case "refuse":
    case "hand_back": {
      const comment = await thread.reply(prepared.body);
      const kind = prepared.action === "refuse" ? "refused" : "handed_back";
      core.notice(prepared.reason, { title: prepared.action === "refuse" ? "Agent run refused" : "Pull request handed back" });
      return { outcome: { kind, reason: prepared.reason, comment }, failure: null };
    }
    default: {
      const held = await holdBySpendLimits({ octokit, repo: step.repo, prepared, config: config.config, self: { botLogins: [...step.self.botLogins] }, now: step.now(), thread });
      if (held) return { outcome: held, failure: null };
      return startAndWatch(step, config.config, prepared, thread);
    }
  }
}

type LoadedConfig = { ok: true; config: RepoConfig } | { ok: false; errors: string[]; fileRaw: unknown };

async function loadConfig(step: Step): Promise<LoadedConfig> {
  const text = step.repo ? await fetchConfigFile(step.octokit, step.repo) : undefined;
  const file = await parseConfigFile(text);
  if (!file.ok) return { ok: false, errors: file.errors, fileRaw: undefined };
  for (const warning of file.warnings) core.warning(warning);
  const parsed = effectiveConfig(file.raw, step.inputs, step.event.name);
  // Judged as the step would have read it: inputs over the file (a `workflow_run` step turns CI auto-fix on).
  return parsed.ok ? { ok: true, config: parsed.config } : { ok: false, errors: parsed.errors, fileRaw: layeredConfigInput(file.raw, step.inputs, step.event.name) };
}

/** A broken configuration: said once in the thread when the event would have been a trigger, and the step fails. */
async function configFailure(step: Step, fileRaw: unknown, errors: string[]): Promise<StepResult> {
  const message = `The agent configuration is invalid, so nothing was started: ${errors.join("; ")}`;
  const despite = detectDespiteConfigError(step.event, fileRaw, step.self);
  const wouldTrigger = step.inputs.prompt !== undefined || step.inputs.mode === "resume" || despite.kind === "trigger";
  if (!wouldTrigger) {
    core.warning(message);
    return { outcome: { kind: "ignored", reason: message }, failure: null };
  }
  // The bot's earlier config-error reply, if any, must be recognised as its own.
  step.self = { botLogins: (await resolveIdentity(step.octokit)).botLogins };
  // A CI failure's thread is its pull request.
  const threadNumber = isThreadEvent(step.event) ? step.event.thread.number : despite.kind === "trigger" ? (triggerThread(despite.trigger)?.number ?? null) : null;
  const thread = new ThreadReporter(step.octokit, step.repo ?? { owner: "", repo: "" }, commentThread(step, threadNumber === null ? null : { number: threadNumber }), logSink);
  let comment = null;
  if (thread.enabled && step.repo && threadNumber !== null) {
    const body = await configErrorReply({ octokit: step.octokit, repo: step.repo, threadNumber, errors, self: { botLogins: [...step.self.botLogins] }, file: CONFIG_PATH });
    if (body) comment = await thread.reply(body);
  }
  return fail(step, message, null, comment);
}

/** `mode: resume`: the workflow names the run and the follow-up; no trigger or permission involved. */
async function resumeExplicitly(step: Step, config: RepoConfig): Promise<StepResult> {
  const { inputs, event } = step;
  const threadNumber = isThreadEvent(event) ? event.thread.number : null;
  const thread = new ThreadReporter(step.octokit, step.repo ?? { owner: "", repo: "" }, commentThread(step, threadNumber === null ? null : { number: threadNumber }), logSink);
  if (step.images.length > 0 || inputs.metadata) core.warning("`images` and `metadata` are only sent when a run is created; a resume sends the prompt alone.");
  const runId = inputs.runId!;
  const marker = newRunMarker({ runId, orgId: inputs.orgId, sourceType: SOURCE.api, requestId: requestIdOf(step.runner) });
  return drive(step, config, thread, {
    marker,
    phase: "resuming",
    triggerUrl: null,
    reaction: null,
    resumed: true,
    start: () => step.client.resumeRun(runId, inputs.prompt!, { deadline: step.deadline }),
  });
}

// ---------------------------------------------------------------------------------------------
// Running

interface Start {
  marker: RunMarker;
  phase: TrackingPhase;
  triggerUrl: string | null;
  reaction: PreparedStart["reaction"];
  resumed: boolean;
  /** Runs of the thread still working when a follow-up arrives are waited for first. */
  waitFor?: number;
  /** A create without `repo_id`: the tracking comment says the organization's default applies. */
  orgDefaultRepository?: boolean;
  start: () => Promise<AgentRun>;
}

function startAndWatch(step: Step, config: RepoConfig, prepared: PreparedStart, thread: ThreadReporter): Promise<StepResult> {
  const { inputs, client } = step;
  const marker = newRunMarker({
    runId: prepared.action === "create" ? null : prepared.runId,
    orgId: inputs.orgId,
    sourceType: prepared.markerHints.sourceType,
    branches: prepared.markerHints.branches,
    requestId: requestIdOf(step.runner),
    ...(prepared.markerHints.headSha ? { headSha: prepared.markerHints.headSha } : {}),
  });
  const common = { marker, triggerUrl: prepared.triggerUrl, reaction: prepared.reaction };
  switch (prepared.action) {
    case "create": {
      const request = createRequest(step, prepared.request);
      return drive(step, config, thread, {
        ...common,
        phase: "starting",
        resumed: false,
        orgDefaultRepository: request.repo_id == null,
        start: () => client.createRun(request, { deadline: step.deadline }),
      });
    }
    case "resume":
      return drive(step, config, thread, {
        ...common,
        phase: "resuming",
        resumed: true,
        start: () => client.resumeRun(prepared.runId, prepared.resumePrompt, { deadline: step.deadline }),
      });
    case "queue": {
      // No queue survives a step: wait here for the thread's run, then send the follow-up.
      const runId = prepared.runId;
      if (runId === null) return Promise.resolve(fail(step, "The thread's run is still being created; trigger the agent again once it has started.", null));
      return drive(step, config, thread, {
        ...common,
        phase: "queued_follow_up",
        resumed: true,
        waitFor: runId,
        start: () => client.resumeRun(runId, prepared.resumePrompt, { deadline: step.deadline }),
      });
    }
  }
}

/** The create body: the prepared one, the workflow's metadata over the event's, the workflow's images added. */
function createRequest(step: Step, prepared: CreateRunRequest & { metadata: Record<string, unknown> }): CreateRunRequest {
  const workflowRun = workflowRunUrl(step.runner);
  const metadata: Record<string, unknown> = {
    ...prepared.metadata,
    ...(workflowRun ? { github_actions_run_url: workflowRun } : {}),
    ...step.inputs.metadata,
    // The origin stays what the event says, whatever the workflow merges in.
    source_type: prepared.metadata.source_type,
  };
  const images = [...(prepared.images ?? []), ...step.images];
  return { ...prepared, metadata, ...(images.length > 0 ? { images } : {}) };
}

async function drive(step: Step, config: RepoConfig, thread: ThreadReporter, start: Start): Promise<StepResult> {
  const { client, inputs, now } = step;
  const triggerPhrase = config.trigger_phrase;
  let marker = start.marker;
  const tracking = (phase: TrackingPhase, webUrl: string | null, currentStep?: Awaited<ReturnType<typeof readCurrentStep>>) =>
    thread.track(
      renderTrackingComment({ marker, webUrl, phase, startedAt: step.startedAt, now: now(), triggerUrl: start.triggerUrl, currentStep, orgDefaultRepository: start.orgDefaultRepository }),
    );

  await thread.react(start.reaction, "eyes");
  await tracking(start.phase, null);
  // A `/agent stop` in another job turns this step's tracking comment into its stopped state.
  const stopWatch = step.repo && thread.enabled
    ? new StopWatch(step.octokit, step.repo, () => thread.comment?.id ?? null, { botLogins: [...step.self.botLogins] }, stopCheckIntervalMs(step.poll), (message) => core.warning(message)).start()
    : null;
  const stoppedBeforeStart = (): StepResult => {
    core.notice("Stopped from the thread before anything was sent; nothing was started.", { title: "Agent stopped" });
    return { outcome: { kind: "stopped", reason: "Stopped from the thread before the follow-up was sent.", comment: thread.comment }, failure: null };
  };

  let run: AgentRun | null = null;
  try {
    if (start.waitFor !== undefined) {
      core.info(`Run ${start.waitFor} is still working on this thread; waiting for it before sending the follow-up.`);
      const earlier = await watchRun(client, await client.getRun(start.waitFor, { deadline: step.deadline }), { deadline: step.deadline, poll: step.poll, ...(stopWatch ? { signal: stopWatch.signal } : {}) });
      if (stopWatch?.stopped) return stoppedBeforeStart();
      if (earlier.timedOut) {
        const message = `Run ${start.waitFor} was still working at the timeout, so the follow-up was not sent; trigger the agent again once it has finished.`;
        await thread.track(renderServiceError({ message: "the thread's run was still working when this step stopped waiting, so your follow-up was not sent.", whatToDo: "Ask again once the run has finished." }));
        return fail(step, message, earlier.run, thread.comment);
      }
    }
    if (await stopWatch?.check()) return stoppedBeforeStart();
    run = await start.start();
    marker = { ...marker, runId: run.id };
    core.info(`Agent run ${run.id} ${start.resumed ? "resumed" : "started"}: ${run.web_url ?? "(no web URL)"}`);
    if (!(await stopWatch?.check())) await tracking(start.resumed ? "resuming" : "starting", run.web_url ?? null);

    if (!inputs.wait) {
      return { outcome: { kind: "run", run, resumed: start.resumed, watch: "started", phase: classifyRunStatus(run.status), comment: thread.comment, startedAt: step.startedAt, endedAt: now() }, failure: null };
    }

    const runId = run.id;
    // Status changes are rare: each gets one edit with what the agent is doing now, in order, all
    // done before the result replaces the comment.
    let progress: Promise<unknown> = Promise.resolve();
    let final = false;
    const watched = await watchRun(client, run, {
      deadline: step.deadline,
      poll: step.poll,
      onUpdate: (latest, phase) => {
        if (phase !== "in_progress" || !thread.enabled) return;
        progress = progress.then(async () => {
          const current = await readCurrentStep(client, runId, { deadline: step.deadline, triggerPhrase });
          if (!final && !(await stopWatch?.check())) await tracking("running", latest.web_url ?? null, current);
        });
      },
      ...(stopWatch ? { signal: stopWatch.signal } : {}),
    });
    final = true;
    await progress;
    run = watched.run;
    const endedAt = now();
    if (stopWatch?.stopped || (await stopWatch?.check())) {
      // The stop job wrote this thread's last word on the run: nothing more is written here.
      core.notice(`Agent run ${run.id} was stopped from the thread; this step stopped watching it. The service has no cancel call: ${run.web_url ?? "stop it on its page"}.`, { title: "Agent stopped" });
      return { outcome: { kind: "run", run, resumed: start.resumed, watch: "stopped", phase: classifyRunStatus(run.status), comment: thread.comment, startedAt: step.startedAt, endedAt }, failure: null };
    }
    const trace = thread.enabled ? await readTraceDigest(client, run.id, { deadline: endedAt + 60_000, triggerPhrase }) : null;
    const phase: RunPhase = watched.timedOut ? "in_progress" : watched.phase;
    await thread.track(renderResultComment({ marker, run, phase, startedAt: step.startedAt, finishedAt: endedAt, trace, triggerPhrase }));
    if (phase === "succeeded") await thread.react(start.reaction, "rocket");
    if (phase === "failed") await thread.react(start.reaction, "confused");
    if (thread.enabled && step.repo && (run.git_host_pull_requests ?? []).length > 0) {
      await linkPullRequests(step.octokit, step.repo, {
        run,
        orgId: inputs.orgId,
        sourceType: marker.sourceType,
        outcome: outcomeForPhase(phase),
        triggerPhrase,
        self: { botLogins: [...step.self.botLogins] },
        log: logSink,
        skipThread: thread.number,
      });
    }

    const outcome: ActionOutcome = {
      kind: "run",
      run,
      resumed: start.resumed,
      watch: watched.timedOut ? "timed_out" : "finished",
      phase,
      comment: thread.comment,
      startedAt: step.startedAt,
      endedAt,
    };
    const link = run.web_url ? `: ${run.web_url}` : "";
    if (watched.timedOut) {
      return { outcome, failure: softFailure(step, `Agent run ${run.id} is still ${run.status ?? "running"} after ${inputs.timeoutMinutes} minute(s) (timeout-minutes); it keeps going${link}`) };
    }
    if (phase === "failed") return { outcome, failure: softFailure(step, `Agent run ${run.id} failed (status ${run.status ?? "none"})${link}`) };
    if (phase === "stopped") return { outcome, failure: softFailure(step, `Agent run ${run.id} was stopped before it finished (status ${run.status ?? "none"})${link}`) };
    if (phase === "waiting_for_input") core.notice(`Agent run ${run.id} is waiting for input${link}. Reply with \`${triggerPhrase} <answer>\` to continue it.`);
    return { outcome, failure: null };
  } catch (error) {
    if (!(error instanceof AgentRunError)) throw error;
    const said = serviceErrorForComment(error);
    await thread.track(renderServiceError({ ...said, secrets: [inputs.apiToken] }));
    return fail(step, errorMessage(error), run, thread.comment, start.resumed);
  } finally {
    stopWatch?.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const logSink = { info: (message: string) => core.info(message), warning: (message: string) => core.warning(message) };

/** The thread to write in, following `comment` (auto: when the event has one). */
function commentThread(step: Step, thread: Pick<ReplyThread, "number"> | null): number | null {
  if (!step.repo) return null;
  switch (step.inputs.comment) {
    case "false":
      return null;
    case "true":
      if (!thread) core.warning("`comment: true`, but this event has no issue or pull request to comment on.");
      return thread?.number ?? null;
    case "auto":
      return thread?.number ?? null;
  }
}

/** The workflow run and its attempt: what a webhook delivery id is for the App. */
function deliveryId(runner: RunnerEnv): string | undefined {
  return runner.runId ? `${runner.runId}-${runner.runAttempt ?? "1"}` : undefined;
}

/** The marker's request id: which workflow run (and attempt) wrote this tracking comment. */
function requestIdOf(runner: RunnerEnv): string | undefined {
  return runner.runId ? `actions:${runner.runId}:${runner.runAttempt ?? "1"}` : undefined;
}

/** A failure that `fail-on-error: false` turns into a warning. */
function softFailure(step: Step, message: string): string | null {
  if (step.inputs.failOnError) return message;
  core.warning(message);
  return null;
}

function fail(step: Step, message: string, run: AgentRun | null, comment: PostedComment | null = null, resumed = false): StepResult {
  return { outcome: { kind: "error", message, run, resumed, comment }, failure: softFailure(step, message) };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

// ---------------------------------------------------------------------------------------------
// Reporting

async function report(result: StepResult, env: Env): Promise<void> {
  const outputs = outputsFor(result.outcome);
  for (const name of OUTPUT_NAMES) core.setOutput(name, outputs[name]);

  const summary = renderJobSummary(result.outcome, result.context ?? { thread: null, triggerPhrase: DEFAULT_REPO_CONFIG.trigger_phrase });
  if (summary !== "" && env.GITHUB_STEP_SUMMARY) {
    try {
      await core.summary.addRaw(summary).write();
    } catch (error) {
      core.warning(`Could not write the job summary: ${errorMessage(error)}`);
    }
  }
  if (result.failure !== null) core.setFailed(result.failure);
}
