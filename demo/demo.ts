/**
 * `runDemo`: the GitHub App's main job end to end on loopback, with nothing real behind it. The
 * App (real Probot, real webhook endpoint) talks to the Agent Run Service emulator and to a fake
 * GitHub API; people and CI are played by signed deliveries of real webhook payloads. Each step
 * waits for its effect and fails with a clear message when it does not happen in time.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { parseMarker } from "../src/core/markers/read.js";
import type { RunMarker } from "../src/core/markers/schema.js";
import type { FakeGitHub, FakeWrite } from "../test/helpers/fake-github/index.js";
import type { RunningEmulator } from "../src/emulator/index.js";
import { classifyRunStatus, isFinalPhase } from "../src/service/status.js";
import { SOURCE, type AgentRun, type SourceType } from "../src/service/wire.js";
import { BOT_LOGIN, postWebhook } from "../test/helpers/app-harness.js";
import { checkSuiteCompletedPayload, issueCommentPayload, reviewSubmittedPayload } from "../test/helpers/app-payloads.js";
import {
  COURSE_CORRECTION,
  DEMO_TIME_SCALE,
  FAILING_CHECK,
  FULL_NAME,
  ISSUE,
  MAINTAINER,
  MAX_FIX_ATTEMPTS,
  OWNER,
  REPO,
  REPO_CONFIG,
  SERVICE_GIT_USER,
  SERVICE_REPOSITORIES,
  TEXTS,
  agentScripts,
  demoSeed,
  failingSuiteSeed,
  producedPull,
  pullSeed,
  reviewSeed,
  REVIEWED_FILE,
  REVIEWED_LINE,
} from "./scenario.js";
import {
  requireRedisServer,
  startEmbeddedStage,
  startReplicatedStage,
  type DemoStage,
  type ReplicaActivity,
  type ReplicaSet,
} from "./stage.js";
import {
  createStyle,
  renderCheck,
  renderDelivery,
  renderHandledBy,
  renderNote,
  renderRecap,
  renderStepHeader,
  renderWrite,
  visibleText,
  type Recap,
  type Style,
  type WriteView,
} from "./terminal.js";

export interface DemoOptions {
  /** Where the story is printed (process.stdout for the script). */
  out: { write(chunk: string): unknown };
  /** ANSI colours on or off. */
  color: boolean;
  /** Columns to wrap at; default 100. */
  width?: number;
  /** Longest wait for one step's effect, in real milliseconds; default 20 s. */
  stepTimeoutMs?: number;
  /** Stops the demo between or during steps (everything started is closed). */
  signal?: AbortSignal;
  /**
   * 1 (default): one App in this process on SQLite. More: that many `agent-run app` processes on a
   * Redis the demo starts, behind a round-robin load balancer (throws ReplicasUnavailableError
   * when there is no `redis-server` to start).
   */
  replicas?: number;
}

export interface DemoResult {
  /** The run created in step 1 and resumed by every later step. */
  runId: number;
  pullRequestNumber: number;
  recap: Recap;
}

/** A step's expected effect did not happen; the message says which and what was seen instead. */
export class DemoStepError extends Error {
  override name = "DemoStepError";
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(`${step}: ${message}`);
  }
}

const STEPS = 5;
const DEFAULT_STEP_TIMEOUT_MS = 20_000;

interface Expectation {
  what: string;
  met: () => boolean | Promise<boolean>;
  /** What was seen instead, for the failure message. */
  seen?: () => string | Promise<string>;
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const started = performance.now();
  const style = createStyle(options.color);
  const width = Math.max(40, options.width ?? 100);
  const view = { width, style };
  const out = (text: string) => void options.out.write(text);
  const stepTimeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  options.signal?.throwIfAborted();

  // Fresh secrets for this process only; neither is ever printed.
  const webhookSecret = randomBytes(32).toString("hex");
  const serviceToken = `demo-${randomBytes(24).toString("base64url")}`;

  const replicas = options.replicas ?? 1;
  if (replicas > 1) requireRedisServer();
  const stageOptions = {
    seed: demoSeed(),
    config: REPO_CONFIG,
    emulator: {
      timeScale: DEMO_TIME_SCALE,
      tokens: [{ token: serviceToken, orgIds: [1] }],
      repositories: SERVICE_REPOSITORIES,
      // A resume of a working run reaches its agent as a USER_MESSAGE (the repository has `follow_up: interrupt`).
      resumeWhileRunning: "interrupt" as const,
    },
    // The comment of step 1 is sent before the App runs: recovery on start brings it back.
    env: {
      WEBHOOK_SECRET: webhookSecret,
      AGENT_RUN_TIME_SCALE: String(DEMO_TIME_SCALE),
      LOG_LEVEL: "warn",
      DELIVERY_RECOVERY_INTERVAL: "5m",
    },
  };
  out(
    `${style.bold("agent-run-bridge demo")} ${style.dim("· the GitHub App, the Agent Run Service emulator and a stand-in GitHub API, all on 127.0.0.1")}\n`,
  );
  let missed: MissedComment | undefined;
  const whileAppIsDown = async (world: { github: FakeGitHub; emulator: RunningEmulator }) => {
    for (const script of agentScripts()) world.emulator.control.script(script);
    missed = await commentWhileAppIsDown(world.github, { out, view, replicas });
  };
  const stage =
    replicas > 1
      ? await startReplicatedStage({ ...stageOptions, replicas, whileAppIsDown })
      : await startEmbeddedStage({ ...stageOptions, whileAppIsDown });
  try {
    const scale = `(time ×${Math.round(1 / DEMO_TIME_SCALE)})`;
    if (stage.replicas) {
      const pids = stage.replicas.activity().map((r) => r.pid);
      out(
        `${style.dim(`  ${stage.replicas.count} App replicas (agent-run app, pids ${pids.join(", ")}) on Redis ${stage.replicas.redisUrl} (started for the demo), behind a round-robin load balancer ${stage.webhookUrl}`)}\n`,
      );
      out(`${style.dim(`  Service emulator ${stage.emulator.url} ${scale} · GitHub API ${stage.github.url}`)}\n`);
    } else {
      out(
        `${style.dim(`  App started: ${stage.webhookUrl} · service emulator ${stage.emulator.url} ${scale} · GitHub API ${stage.github.url}`)}\n`,
      );
    }
    const writes = printWrites(stage, out, view);
    try {
      const result = await playSteps(stage, { out, writes, view, webhookSecret, stepTimeoutMs, signal: options.signal, missed: missed! });
      const recap = recapOf(stage, result.runId, performance.now() - started);
      out(renderRecap(recap, view));
      if (recap.rateLimited > 0) {
        throw new DemoStepError(
          "Recap",
          `the service answered 429 (rate limited) ${recap.rateLimited} times: the App sent more than its rate budget allows.`,
        );
      }
      return { ...result, recap };
    } finally {
      writes.stop();
    }
  } finally {
    await stage.close();
  }
}

interface StepContext {
  out: (text: string) => void;
  writes: WritePrinter;
  view: { width: number; style: Style };
  webhookSecret: string;
  stepTimeoutMs: number;
  signal: AbortSignal | undefined;
  /** Step 1's comment, sent while the App was down. */
  missed: MissedComment;
}

interface MissedComment {
  commentId: number;
  /** Its delivery's GUID (`X-GitHub-Delivery`). */
  guid: string;
  /** What GitHub recorded: 0 (nothing listening) or the load balancer's 502. */
  statusCode: number;
}

/**
 * Before the App runs: the repository, step 1's header, and the maintainer's comment, which GitHub
 * delivers and records as failed (GitHub never retries it by itself).
 */
async function commentWhileAppIsDown(
  github: FakeGitHub,
  ctx: { out: (text: string) => void; view: { width: number; style: Style }; replicas: number },
): Promise<MissedComment> {
  const { out, view } = ctx;
  out(
    `${view.style.dim(`  Repository ${FULL_NAME}: issue #${ISSUE.number} “${ISSUE.title}”, @${MAINTAINER} can write; .github/agent-run.yml turns CI auto-fix on and sends follow-ups to a working agent (follow_up: interrupt)`)}\n`,
  );
  out(renderStepHeader({ index: 1, total: STEPS, title: "A maintainer asks the bot on an issue, then corrects its course" }, view));
  github.seed({ issueComments: [{ issue_number: ISSUE.number, body: TEXTS.trigger, user: MAINTAINER }] });
  const comment = github.state.issueComments.at(-1)!;
  const payload = issueCommentPayload({ thread: ISSUE, comment: { id: comment.id, body: TEXTS.trigger, login: MAINTAINER } });
  const delivery = await github.sendWebhook("issue_comment", payload);
  out(
    renderDelivery(
      {
        actor: `@${MAINTAINER}`,
        action: `comments on issue #${ISSUE.number} while the App is down`,
        text: TEXTS.trigger,
        event: "issue_comment",
        status: delivery.status_code,
        ...(ctx.replicas > 1 ? { via: "no replica yet" } : {}),
      },
      view,
    ),
  );
  if (delivery.status_code >= 200 && delivery.status_code < 300) {
    throw new DemoStepError(
      "Step 1 (a /agent comment while the App is down)",
      `the delivery succeeded (HTTP ${delivery.status_code}) though no App was running.`,
    );
  }
  out(renderNote("GitHub records the delivery as failed and does not retry it. Now the App starts.", view));
  return { commentId: comment.id, guid: delivery.guid, statusCode: delivery.status_code };
}

async function playSteps(h: DemoStage, ctx: StepContext): Promise<{ runId: number; pullRequestNumber: number }> {
  const { out, view } = ctx;
  /** With replicas: what each had done when the step's delivery went out, to say afterwards who handled the step. */
  let activityBefore: ReplicaActivity[] | null = null;
  /**
   * Sends one signed delivery and prints it; what the App writes meanwhile is printed right after.
   * `withinStep`: a second delivery of the same step, whose work counts with the step's first.
   */
  const deliver = async (
    step: string,
    event: string,
    payload: object,
    what: { actor: string; action: string; text: string },
    { withinStep = false } = {},
  ) => {
    ctx.signal?.throwIfAborted();
    ctx.writes.hold();
    try {
      if (!withinStep) activityBefore = h.replicas?.activity() ?? null;
      const deliveryId = randomUUID();
      const status = await postWebhook(h.webhookUrl, event, payload, deliveryId, ctx.webhookSecret);
      const receiver = h.replicas?.receiverOf(deliveryId);
      out(renderDelivery({ ...what, event, status, ...(receiver ? { via: receiver } : {}) }, view));
      if (status < 200 || status >= 300)
        throw new DemoStepError(step, `the App's webhook endpoint answered HTTP ${status} to a signed ${event} delivery (expected 2xx).`);
    } finally {
      ctx.writes.release();
    }
  };
  const settle = (step: string, expectations: Expectation[]) => waitForEffects(h, step, expectations, ctx);
  /** A step's effect confirmed; with replicas, which of them did the work (`expected`: how much of each kind the step made). */
  const check = async (text: string, expected: HandledCounts = ONE_OF_EACH) => {
    out(renderCheck(text, view));
    if (h.replicas && activityBefore) out(renderHandledBy(await describeHandling(h.replicas, activityBefore, expected), view));
  };
  const resumes = () => h.service.resumes();
  const firstRun = () => h.emulator.control.runs()[0];

  // 1. A maintainer asked on the issue while the App was down: on start the App has GitHub redeliver
  //    the failed delivery; run created, tracking comment. While the run works the maintainer corrects
  //    its course: the follow-up reaches the working agent at once; then the result with a pull request.
  const step1 = "Step 1 (a /agent comment on the issue)";
  const trigger = { id: ctx.missed.commentId };
  // Nothing was done before the replicas started: step 1's work is everything they did since.
  activityBefore = h.replicas?.activity().map((r) => ({ ...r, received: 0, accepted: 0, started: 0, results: 0 })) ?? null;
  out(renderNote("The App lists its webhook deliveries, finds the failed one and asks GitHub to redeliver it", view));
  ctx.writes.release();
  const attemptsOfMissed = () =>
    h.github.hookDeliveries
      .filter((d) => d.guid === ctx.missed.guid)
      .map((d) => `${d.redelivery ? "redelivery" : "delivery"} ${d.status_code}`)
      .join(", ");
  await until(() => h.github.hookDeliveries.some((d) => d.guid === ctx.missed.guid && d.redelivery), ctx.stepTimeoutMs);
  await waitFor(step1, runAtWork(h), ctx);
  const correction = h.humanComment(ISSUE, TEXTS.courseCorrection, MAINTAINER);
  await deliver(
    step1,
    "issue_comment",
    correction.payload,
    {
      actor: `@${MAINTAINER}`,
      action: `comments on issue #${ISSUE.number} while the run works`,
      text: TEXTS.courseCorrection,
    },
    { withinStep: true },
  );
  const reached = correctionInLog(h);
  await settle(step1, [
    {
      what: "the failed delivery redelivered once, and answered 200",
      met: () => attemptsOfMissed() === `delivery ${ctx.missed.statusCode}, redelivery 200`,
      seen: attemptsOfMissed,
    },
    {
      what: "the App creates one run",
      met: () => h.emulator.control.stats().runsCreated === 1,
      seen: () => `${h.emulator.control.stats().runsCreated} runs created`,
    },
    reactedTo(h, trigger.id),
    {
      what: "the tracking comment says the follow-up reached the working agent, quoting it",
      met: () => trackingEdits(h, ISSUE.number).some((body) => body.includes(REACHED_NOTICE) && body.includes(`> ${COURSE_CORRECTION}`)),
      seen: () => `${trackingEdits(h, ISSUE.number).length} edits of the bot's comments on #${ISSUE.number}, none quoting it`,
    },
    reached.expectation,
    resumedOnce(h, firstRun()!, 1),
    reactedTo(h, correction.id),
    {
      what: "the run's result in the tracking comment the App posted first",
      met: () => hasResult(h, ISSUE.number, firstRun()?.id, SOURCE.gitHost, 1) && h.botComments(ISSUE.number).length === 1,
      seen: () => seenMarkers(h, ISSUE.number),
    },
    {
      what: "a pull request produced by the run",
      met: () => (firstRun()?.git_host_pull_requests?.[0]?.head_branch_name ?? "") !== "",
      seen: () => `pull requests: ${JSON.stringify(firstRun()?.git_host_pull_requests ?? null)}`,
    },
  ]);
  const run = firstRun()!;
  const produced = run.git_host_pull_requests![0]!;
  out(renderCheck("the missed comment came back: GitHub redelivered it when the App asked (same delivery id, answered 200)", view));
  out(
    renderCheck(
      `the follow-up reached run #${run.id} while it worked: its tracking comment quoted it, and the run's log shows it as a USER_MESSAGE after ${reached.stepsBefore()} steps of work, then the rest of the work`,
      view,
    ),
  );
  // Two deliveries taken (the comment and the course correction), two sends (the create and the interrupt), one result.
  await check(`run #${run.id} created; its result names the pull request on \`${produced.head_branch_name!}\``, {
    accepted: 2,
    started: 2,
    results: 1,
  });

  // The service's git integration opens the pull request on GitHub: the fake gets it the same way.
  const pr = producedPull({ number: nextThreadNumber(h), title: produced.title ?? "Agent changes", branch: produced.head_branch_name! });
  h.github.seed(pullSeed(pr));
  out(
    renderNote(
      `${SERVICE_GIT_USER} opens pull request #${pr.number} “${pr.title}” from \`${pr.headRef}\` (the service's git integration does this on GitHub)`,
      view,
    ),
  );

  // 2. A follow-up in the same issue resumes the same run.
  const step2 = "Step 2 (a follow-up comment on the issue)";
  out(renderStepHeader({ index: 2, total: STEPS, title: "A follow-up on the issue resumes the same run" }, view));
  const followUp = h.humanComment(ISSUE, TEXTS.followUp, MAINTAINER);
  await deliver(step2, "issue_comment", followUp.payload, {
    actor: `@${MAINTAINER}`,
    action: `comments on issue #${ISSUE.number}`,
    text: TEXTS.followUp,
  });
  await settle(step2, [
    resumedOnce(h, run, 2),
    reactedTo(h, followUp.id),
    {
      what: "no second run",
      met: () => h.emulator.control.stats().runsCreated === 1,
      seen: () => `${h.emulator.control.stats().runsCreated} runs created`,
    },
    {
      what: "the resumed run's result in a new comment on the issue",
      met: () => hasResult(h, ISSUE.number, run.id, SOURCE.gitHost, 2),
      seen: () => seenMarkers(h, ISSUE.number),
    },
  ]);
  await check(`run #${run.id} resumed (${ordinal(resumes().length)} resume), no new run`);

  // 3. Changes requested on the run's pull request: the run resumes with the review.
  const step3 = "Step 3 (a changes-requested review on the pull request)";
  out(renderStepHeader({ index: 3, total: STEPS, title: "Changes requested on the agent's pull request" }, view));
  const review = reviewSeed(pr);
  h.github.seed(review.seed);
  const reviewPayload = reviewSubmittedPayload({
    pr,
    review: { id: review.reviewId, state: "changes_requested", body: TEXTS.review, login: MAINTAINER },
  });
  await deliver(step3, "pull_request_review", reviewPayload, {
    actor: `@${MAINTAINER}`,
    action: `requests changes on PR #${pr.number}`,
    text: `${TEXTS.review} (+1 inline comment)`,
  });
  await settle(step3, [
    resumedOnce(h, run, 3),
    {
      what: `the result on PR #${pr.number}, tagged ${SOURCE.gitHostPrReview}`,
      met: () => hasResult(h, pr.number, run.id, SOURCE.gitHostPrReview, 1),
      seen: () => seenMarkers(h, pr.number),
    },
  ]);
  await check(`run #${run.id} resumed with the review (${SOURCE.gitHostPrReview})`);

  // 4. CI fails on the pull request: auto-fix resumes the run that produced the branch.
  const step4 = "Step 4 (a failing check suite on the pull request)";
  out(renderStepHeader({ index: 4, total: STEPS, title: "CI fails on the agent's pull request" }, view));
  h.github.seed(failingSuiteSeed(pr));
  const suitePayload = checkSuiteCompletedPayload({
    id: FAILING_CHECK.suiteId,
    conclusion: "failure",
    headSha: pr.headSha,
    headBranch: pr.headRef,
    pullRequests: [{ number: pr.number }],
  });
  const ciText = `${FAILING_CHECK.name}: ${FAILING_CHECK.title} (${FAILING_CHECK.annotation.path}:${FAILING_CHECK.annotation.line} ${FAILING_CHECK.annotation.message})`;
  await deliver(step4, "check_suite", suitePayload, {
    actor: "GitHub Actions",
    action: `reports a failing check suite on PR #${pr.number}`,
    text: ciText,
  });
  const fixAttempts = async () => (await h.checkAttempts(OWNER, REPO, pr.number)).count;
  await settle(step4, [
    resumedOnce(h, run, 4),
    {
      what: "one CI fix attempt recorded for the pull request",
      met: async () => (await fixAttempts()) === 1,
      seen: async () => `${await fixAttempts()} attempts`,
    },
    {
      what: `the result on PR #${pr.number}, tagged ${SOURCE.gitHostCheckSuite}`,
      met: () => hasResult(h, pr.number, run.id, SOURCE.gitHostCheckSuite, 1),
      seen: () => seenMarkers(h, pr.number),
    },
  ]);
  await check(`run #${run.id} resumed to fix CI (${SOURCE.gitHostCheckSuite}, attempt ${await fixAttempts()} of ${MAX_FIX_ATTEMPTS})`);

  // 5. Review mode: `/agent review` on the pull request resumes the run, which answers with an
  //    `agent-run-review` block; the App posts one pull-request review with an inline comment.
  const step5 = "Step 5 (/agent review on the pull request)";
  out(renderStepHeader({ index: 5, total: STEPS, title: "A review of the agent's pull request, with inline comments" }, view));
  const askReview = h.humanComment({ number: pr.number, title: pr.title, pullRequest: true }, TEXTS.askReview, MAINTAINER);
  await deliver(step5, "issue_comment", askReview.payload, {
    actor: `@${MAINTAINER}`,
    action: `comments on PR #${pr.number}`,
    text: TEXTS.askReview,
  });
  const botReviews = () => h.github.state.reviews.filter((r) => r.pull_number === pr.number && r.user.login === BOT_LOGIN);
  const inlineOf = (reviewId: number) => h.github.state.reviewComments.filter((c) => c.review_id === reviewId);
  await settle(step5, [
    resumedOnce(h, run, 5),
    {
      what: `one COMMENT review on PR #${pr.number} at its head, with one inline comment on ${REVIEWED_FILE}:${REVIEWED_LINE}`,
      met: () => {
        const reviews = botReviews();
        const inline = reviews[0] ? inlineOf(reviews[0].id) : [];
        return (
          reviews.length === 1 &&
          reviews[0]!.state === "COMMENTED" &&
          reviews[0]!.commit_id === pr.headSha &&
          inline.length === 1 &&
          inline[0]!.path === REVIEWED_FILE &&
          inline[0]!.line === REVIEWED_LINE &&
          inline[0]!.body.includes("```suggestion")
        );
      },
      seen: () =>
        `${botReviews().length} reviews by the bot; inline comments [${botReviews()
          .flatMap((r) => inlineOf(r.id))
          .map((c) => `${c.path}:${c.line ?? "?"}`)
          .join(", ")}]`,
    },
    {
      what: `the tracking comment on PR #${pr.number} links the review`,
      met: () => {
        const review = botReviews()[0];
        return review !== undefined && h.botComments(pr.number).some((c) => c.body.includes(`pullrequestreview-${review.id}`));
      },
      seen: () => seenMarkers(h, pr.number),
    },
  ]);
  const posted = botReviews()[0]!;
  await check(
    `run #${run.id} reviewed PR #${pr.number}: one COMMENT review (${posted.id}) with a suggestion inline on \`${REVIEWED_FILE}:${REVIEWED_LINE}\``,
  );

  return { runId: run.id, pullRequestNumber: pr.number };
}

/** Waits (bounded) until `condition` holds; the step's own check says what is missing if it never does. */
async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!condition() && Date.now() < giveUpAt) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Waits until the App has nothing left to do (bounded), then checks every expected effect. */
async function waitForEffects(h: DemoStage, step: string, expectations: Expectation[], ctx: StepContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ctx.stepTimeoutMs);
  });
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    ctx.signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([h.idle().then(() => "idle" as const), timedOut, aborted]);
    if (outcome === "aborted") ctx.signal!.throwIfAborted();
    const missing: Expectation[] = [];
    for (const e of expectations) if (!(await e.met())) missing.push(e);
    if (missing.length === 0) return;
    const waited =
      outcome === "timeout" ? `within ${boundOf(ctx.stepTimeoutMs)} (the App was still working)` : "once the App had finished its work";
    const details = (await Promise.all(missing.map(async (e) => `${e.what}${e.seen ? ` (seen: ${await e.seen()})` : ""}`))).join("; ");
    throw new DemoStepError(step, `expected effects did not happen ${waited}: ${details}.`);
  } finally {
    clearTimeout(timer);
    if (onAbort) ctx.signal?.removeEventListener("abort", onAbort);
  }
}

/** 👀 when the App took the comment, 🚀 when its run succeeded. */
function reactedTo(h: DemoStage, commentId: number): Expectation {
  const contents = () =>
    h.github.state.reactions
      .filter((r) => r.target.kind === "issue_comment" && r.target.id === commentId && r.user.login === BOT_LOGIN)
      .map((r) => r.content);
  return {
    what: `👀 then 🚀 on comment ${commentId}`,
    met: () => contents().join(",") === "eyes,rocket",
    seen: () => `reactions [${contents().join(", ")}]`,
  };
}

function resumedOnce(h: DemoStage, run: AgentRun, expectedCount: number): Expectation {
  return {
    what: `run #${run.id} resumed (resume ${expectedCount}), no other run`,
    met: () => {
      const resumes = h.service.resumes();
      return (
        resumes.length === expectedCount &&
        resumes.every((r) => r.agent_run_id === run.id) &&
        h.emulator.control.stats().runsResumed === expectedCount
      );
    },
    seen: () =>
      `resumes of runs [${h.service
        .resumes()
        .map((r) => r.agent_run_id)
        .join(", ")}]`,
  };
}

/**
 * Waits (bounded) for one effect a step needs before it goes on, failing as `waitForEffects` does
 * when it does not happen in time.
 */
async function waitFor(step: string, expectation: Expectation, ctx: StepContext): Promise<void> {
  const giveUpAt = Date.now() + ctx.stepTimeoutMs;
  for (;;) {
    ctx.signal?.throwIfAborted();
    if (await expectation.met()) return;
    if (Date.now() >= giveUpAt) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const seen = expectation.seen ? ` (seen: ${await expectation.seen()})` : "";
  throw new DemoStepError(
    step,
    `expected effects did not happen within ${boundOf(ctx.stepTimeoutMs)} (the App was still working): ${expectation.what}${seen}.`,
  );
}

const boundOf = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(0)} s`);

/** Steps the first run's agent has logged before the maintainer corrects its course: it is well under way. */
const STEPS_BEFORE_CORRECTION = 3;

/** The first run is at work: its agent has logged steps, it is not done, and its tracking comment names it. */
function runAtWork(h: DemoStage): Expectation {
  const state = () => {
    const run = h.emulator.control.runs()[0];
    if (!run) return { run: null, entries: 0, named: false };
    return { run, entries: h.emulator.control.logs(run.id).length, named: botMarkers(h, ISSUE.number).some((m) => m.runId === run.id) };
  };
  return {
    what: `the first run at work (its agent has logged ${STEPS_BEFORE_CORRECTION} steps) and named in its tracking comment`,
    met: () => {
      const { run, entries, named } = state();
      return run !== null && entries >= STEPS_BEFORE_CORRECTION && named && !isFinalPhase(classifyRunStatus(run.status));
    },
    seen: () => {
      const { run, entries, named } = state();
      return run ? `run #${run.id} ${run.status}, ${entries} log entries, ${named ? "" : "not "}named in a bot comment` : "no run created";
    },
  };
}

/** The tracking comment's line for a follow-up that reached the working agent (src/core/render/tracking.ts). */
const REACHED_NOTICE = "💬 Your follow-up reached the working agent:";

/** The bodies the bot's edits gave its comments in a thread, oldest first. */
function trackingEdits(h: DemoStage, thread: number): string[] {
  return h.github.writes.flatMap((w) =>
    w.kind === "comment_updated" && w.repo === FULL_NAME && w.issueNumber === thread && w.comment.user.login === BOT_LOGIN
      ? [w.comment.body]
      : [],
  );
}

/**
 * The course correction in the first run's log: a USER_MESSAGE holding it, after the steps the agent
 * had already taken but before any final answer (it reached the agent at work, not a finished run),
 * followed by the rest of the work.
 */
function correctionInLog(h: DemoStage): { expectation: Expectation; stepsBefore: () => number } {
  const entries = () => {
    const run = h.emulator.control.runs()[0];
    return run ? h.emulator.control.logs(run.id) : [];
  };
  const at = () =>
    entries().findIndex(
      (e) => e.message_type === "USER_MESSAGE" && typeof e.observation === "string" && e.observation.includes(COURSE_CORRECTION),
    );
  return {
    expectation: {
      what: "a USER_MESSAGE with the follow-up in the run's log, amid its work (after some steps, before its final answer)",
      met: () => {
        const log = entries();
        const index = at();
        const finishedBefore = log.slice(0, Math.max(0, index)).some((e) => e.message_type === "FINAL_ANSWER");
        return index > 0 && !finishedBefore && log.slice(index + 1).some((e) => e.message_type === "FINAL_ANSWER");
      },
      seen: () =>
        `log entries [${entries()
          .map((e) => e.message_type ?? "?")
          .join(", ")}]`,
    },
    stepsBefore: at,
  };
}

/** The bot's finished-run markers in a thread. */
function botMarkers(h: DemoStage, thread: number): RunMarker[] {
  return h.botComments(thread).flatMap((c) => {
    const marker = parseMarker(c.body);
    return marker ? [marker] : [];
  });
}

function hasResult(h: DemoStage, thread: number, runId: number | undefined, sourceType: SourceType, count: number): boolean {
  if (runId === undefined) return false;
  const done = botMarkers(h, thread).filter(
    (m) => m.runId === runId && m.sourceType === sourceType && m.state === "done" && m.outcome === "succeeded",
  );
  return done.length === count;
}

function seenMarkers(h: DemoStage, thread: number): string {
  const markers = botMarkers(h, thread);
  if (markers.length === 0) return `no bot comment with a run marker on #${thread}`;
  return markers.map((m) => `run ${m.runId ?? "?"} ${m.sourceType} ${m.state}${m.outcome ? `/${m.outcome}` : ""}`).join(", ");
}

function nextThreadNumber(h: DemoStage): number {
  return Math.max(0, ...h.github.state.issues.filter((i) => i.repo === FULL_NAME).map((i) => i.number)) + 1;
}

const ordinal = (n: number) => (n === 1 ? "first" : n === 2 ? "second" : n === 3 ? "third" : `#${n}`);

interface WritePrinter {
  /** Keeps writes back (while a delivery is being printed) until `release`. */
  hold(): void;
  release(): void;
  stop(): void;
}

/**
 * Prints every write of the fake GitHub as it happens, rendered from the state at that moment. It
 * starts held, with the writes the App made while it started (step 1's redelivered comment may be
 * at work by then, on replicas especially): the first `release` prints them where the story needs them.
 */
function printWrites(h: DemoStage, out: (text: string) => void, view: { width: number; style: Style }): WritePrinter {
  const lastVisible = new Map<number, string>();
  let held: string[] | null = h.github.writes.map((write) => renderWrite(writeView(h, write, lastVisible), view));
  const stop = h.github.onWrite((write) => {
    const text = renderWrite(writeView(h, write, lastVisible), view);
    if (held) held.push(text);
    else out(text);
  });
  return {
    hold: () => {
      held ??= [];
    },
    release: () => {
      const pending = held ?? [];
      held = null;
      for (const text of pending) out(text);
    },
    stop,
  };
}

/** Looks up the names a reader needs for one write: which thread, whose comment, whether it looks any different. */
function writeView(h: DemoStage, write: FakeWrite, lastVisible: Map<number, string>): WriteView {
  const threadLabel = (number: number) => {
    const issue = h.github.state.issues.find((i) => i.repo === write.repo && i.number === number);
    return `${issue?.pull_request ? "PR" : "issue"} #${number}`;
  };
  if (write.kind === "reaction_added") {
    const { target } = write.reaction;
    let label: string;
    if (target.kind === "issue") {
      label = threadLabel(target.id);
    } else if (target.kind === "issue_comment") {
      const comment = h.github.state.issueComments.find((c) => c.id === target.id);
      label = comment ? `@${comment.user.login}'s comment ${target.id} on ${threadLabel(comment.issue_number)}` : `comment ${target.id}`;
    } else {
      const comment = h.github.state.reviewComments.find((c) => c.id === target.id);
      label = comment
        ? `@${comment.user.login}'s review comment ${target.id} on PR #${comment.pull_number}`
        : `review comment ${target.id}`;
    }
    return { kind: "reaction", content: write.reaction.content, author: write.reaction.user.login, target: label };
  }
  const action = write.kind === "comment_created" ? "created" : write.kind === "comment_updated" ? "edited" : "deleted";
  const visible = visibleText(write.comment.body);
  const sameVisibleText = action === "edited" && lastVisible.get(write.comment.id) === visible;
  lastVisible.set(write.comment.id, visible);
  return {
    kind: "comment",
    action,
    commentId: write.comment.id,
    thread: threadLabel(write.issueNumber),
    author: write.comment.user.login,
    body: write.comment.body,
    sameVisibleText,
  };
}

function recapOf(h: DemoStage, runId: number, elapsedMs: number): Recap {
  const stats = h.emulator.control.stats();
  const writes = h.github.writes.filter((w) => (w.kind === "reaction_added" ? w.reaction.user.login : w.comment.user.login) === BOT_LOGIN);
  const resumedTimes = h.service.resumes().filter((r) => r.agent_run_id === runId).length;
  return {
    runsCreated: stats.runsCreated,
    runsResumed: stats.runsResumed,
    resumedRuns: resumedTimes > 0 ? [{ runId, times: resumedTimes }] : [],
    serviceRequests: stats.requests,
    byEndpoint: stats.byRoute,
    rateLimited: stats.rateLimited,
    githubWrites: {
      comments: writes.filter((w) => w.kind === "comment_created").length,
      edits: writes.filter((w) => w.kind === "comment_updated").length,
      reactions: writes.filter((w) => w.kind === "reaction_added").length,
    },
    elapsedMs,
    timeScale: DEMO_TIME_SCALE,
    ...(h.replicas ? { replicas: h.replicas.activity() } : {}),
  };
}

const HANDLED_FIELDS = ["accepted", "started", "results"] as const;

type HandledCounts = Record<(typeof HANDLED_FIELDS)[number], number>;

const ONE_OF_EACH: HandledCounts = { accepted: 1, started: 1, results: 1 };

/**
 * Which replica took the delivery, sent the run to the service and posted the result, from their
 * logs' counts before and after a step. A log line can reach the demo a moment after the effect it
 * follows, so this waits (briefly) until the step's work (`expected`) shows up, summed over the replicas.
 */
async function describeHandling(replicas: ReplicaSet, before: ReplicaActivity[], expected: HandledCounts): Promise<string> {
  const grown = (after: ReplicaActivity[], field: (typeof HANDLED_FIELDS)[number]) =>
    after.reduce((sum, r, i) => sum + r[field] - (before[i]?.[field] ?? 0), 0) >= expected[field];
  const waitUntil = Date.now() + 3_000;
  let after = replicas.activity();
  while (!HANDLED_FIELDS.every((field) => grown(after, field)) && Date.now() < waitUntil) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    after = replicas.activity();
  }
  const who = (field: (typeof HANDLED_FIELDS)[number]) =>
    after
      .map((replica, index) => ({ label: replica.label, more: replica[field] - (before[index]?.[field] ?? 0) }))
      .filter((r) => r.more > 0)
      .map((r) => (r.more > 1 ? `${r.label} (×${r.more})` : r.label))
      .join(" and ");
  const parts = [
    [who("accepted"), expected.accepted > 1 ? "took the deliveries" : "took the delivery"],
    [who("started"), expected.started > 1 ? "sent them to the service" : "sent it to the service"],
    [who("results"), "posted the result"],
  ].flatMap(([labels, what]) => (labels ? [`${labels} ${what}`] : []));
  return parts.length > 0 ? parts.join(" · ") : "no replica logged work for this step";
}
