/**
 * Acting on a prepared run, in the delivery worker: a reply (refusal, hand-back, spend limit) is
 * handed to the engine, which posts it; a run to start, or a follow-up to hold, becomes a task in
 * the store, decided and stored under the thread's lock so that one thread never has two runs
 * starting at once. The engine owns everything the task writes from then on: 👀, the tracking
 * comment, progress, the result.
 */
import type { RepoConfig, RunLimitName } from "../../config/schema.js";
import { LIMIT_WINDOW_MS, judgeSpendLimits, type OverLimitReply, type SpendVerdict } from "../../core/limits.js";
import type { RefusalCode } from "../../core/decision-codes.js";
import type { KnownRun } from "../../core/plan.js";
import { REFUSAL_WINDOW_MS, refusalKey } from "../../core/refusals.js";
import { replanWithKnownRun, type PreparedRun, type PreparedStart } from "../../flows/index.js";
import { threadLockKey } from "../engine.js";
import type { Task, TaskThread } from "../store/types.js";
import type { AppDependencies, HandlerLogger } from "./types.js";

export interface ActContext {
  installationId: number | null;
  /** The repository's configuration (spend limits). */
  config: RepoConfig;
  /** When the webhook arrived (time to the first acknowledgement is measured from here). */
  receivedAt: number;
  triggerPhrase: string;
  deps: AppDependencies;
  log: HandlerLogger;
}

export async function actOnPrepared(prepared: PreparedRun, ctx: ActContext): Promise<void> {
  const { log } = ctx;
  const trigger = prepared.trigger;
  if (prepared.action === "ignore") {
    // planRun's "no"s that carry a code (the kill switch, a paused CI auto-fix) are counted under it.
    const code = (prepared.plan.action === "ignore" ? prepared.plan.code : undefined) ?? "nothing_to_do";
    log.info({ flow: trigger.flow, code, reason: prepared.reason }, "nothing to do");
    ctx.deps.observer?.ignored(code);
    return;
  }
  if (!trigger.repo || !prepared.thread) return;
  const thread: TaskThread = {
    installationId: ctx.installationId,
    owner: trigger.repo.owner,
    repo: trigger.repo.name,
    issueNumber: prepared.thread.number,
    triggerPhrase: ctx.triggerPhrase,
  };
  // Two deliveries of one request (a review and its inline comments, check_suite and a re-run) act once;
  // an automation once per thread for good (its claim is never pruned).
  const triggerKey = `${trigger.repo.id}:${trigger.dedupeKey}`;
  const { store } = ctx.deps;
  const once = trigger.flow === "automation";
  if (!(await (once ? store.claimAutomation(triggerKey) : store.claimTrigger(triggerKey)))) {
    log.info({ key: trigger.dedupeKey }, once ? "this automation already started in this thread" : "this trigger was already handled");
    ctx.deps.observer?.ignored("already_handled");
    return;
  }
  try {
    if (prepared.action === "refuse" && prepared.facts.permission?.allowed === false) {
      await refuseOutsider(prepared, thread, ctx);
      return;
    }
    if (prepared.action === "refuse" || prepared.action === "hand_back") {
      await ctx.deps.engine.reply(thread, prepared.body, "acknowledge");
      ctx.deps.observer?.refused(refusalCodeOf(prepared));
      log.info(
        { action: prepared.action, reason: prepared.reason },
        prepared.action === "refuse" ? "refused" : "handed the pull request back",
      );
      return;
    }
    await decideAndStore(prepared, thread, ctx);
  } catch (error) {
    // Nothing was stored: the job's retry (or a redelivery) handles the trigger afresh.
    await (once ? store.releaseAutomation(triggerKey) : store.releaseTrigger(triggerKey));
    throw error;
  }
}

/** Which refusal a reply is: the configured `repo_id` naming another repository, a permission, or CI attempts used up. */
function refusalCodeOf(prepared: Extract<PreparedRun, { action: "refuse" | "hand_back" }>): RefusalCode {
  if (prepared.action === "hand_back") return "ci_attempts_used";
  return prepared.facts.permission?.allowed === false ? "permission" : "repository_mismatch";
}

/**
 * Re-reads, under the thread's lock, what the fetches above may have missed: a run that started or
 * finished meanwhile (on this replica or another) turns a resume into a queued follow-up or back.
 */
async function freshKnownRun(
  prepared: Extract<PreparedStart, { action: "resume" | "queue" }>,
  thread: TaskThread,
  ctx: ActContext,
): Promise<KnownRun | null> {
  const { store } = ctx.deps;
  if (prepared.runId !== null) {
    return { runId: prepared.runId, orgId: prepared.orgId, inProgress: (await store.activeTaskForRun(prepared.runId)) !== null };
  }
  // The thread's run had no id yet: any unfinished task in the thread releases held follow-ups when it ends.
  if (await store.activeTaskForThread(thread.owner, thread.repo, thread.issueNumber)) return null;
  const finished = await store.lastFinishedTaskForThread(thread.owner, thread.repo, thread.issueNumber);
  return finished ? { runId: finished.runId!, orgId: finished.orgId, inProgress: false } : null;
}

/** A create that found the thread busy after all: held behind the thread's run, like any follow-up. */
async function holdInsteadOfCreate(prepared: PreparedStart, thread: TaskThread, ctx: ActContext): Promise<PreparedStart> {
  if (prepared.action !== "create" || prepared.trigger.forceNew || prepared.facts.followUp === "new" || prepared.checkAttempt !== null)
    return prepared;
  const active = await ctx.deps.store.activeTaskForThread(thread.owner, thread.repo, thread.issueNumber);
  if (!active) return prepared;
  const { request: _request, skippedImages: _skipped, ...rest } = prepared;
  return {
    ...rest,
    action: "queue",
    runId: active.runId,
    orgId: active.orgId,
    reason: "The thread's run started a moment ago; the follow-up is queued behind it.",
    // A run that is only starting has no agent to interrupt yet.
    interrupt: null,
  };
}

const LIMIT_NAMES: readonly RunLimitName[] = ["runs_per_thread_per_day", "runs_per_repo_per_hour", "ci_fixes_per_repo_per_day"];

/** The store keys spend guards count under: shared by every replica with Redis. */
function spendKeys(thread: TaskThread) {
  const repo = `${thread.owner.toLowerCase()}/${thread.repo.toLowerCase()}`;
  return {
    thread: `runs:thread:${repo}#${thread.issueNumber}`,
    repo: `runs:repo:${repo}`,
    ciFixes: `runs:ci:${repo}`,
    reply: (limit: RunLimitName) => `limit-reply:${limit}:${repo}#${thread.issueNumber}`,
  };
}

/**
 * The spend guards, before anything is stored or sent: runs started (creates and resumes, held
 * follow-ups included) in the thread, the repository, and CI fixes in the repository, within each
 * limit's window. Over a limit: the reply to post (once per thread per window), and no task.
 */
async function spendVerdict(prepared: PreparedStart, thread: TaskThread, ctx: ActContext, now: number) {
  const { store } = ctx.deps;
  const keys = spendKeys(thread);
  const day = now - LIMIT_WINDOW_MS.runs_per_thread_per_day;
  const [threadStarts, repoStarts, ciStarts] = await Promise.all([
    store.eventTimes(keys.thread, day),
    store.eventTimes(keys.repo, now - LIMIT_WINDOW_MS.runs_per_repo_per_hour),
    store.eventTimes(keys.ciFixes, day),
  ]);
  const earlierReplies: OverLimitReply[] = [];
  for (const limit of LIMIT_NAMES) for (const at of await store.eventTimes(keys.reply(limit), day)) earlierReplies.push({ limit, at });
  const isCiFix = prepared.checkAttempt !== null;
  const verdict = judgeSpendLimits({
    starts: { thread: threadStarts, repo: repoStarts, ciFixes: ciStarts },
    limits: ctx.config.limits,
    isCiFix,
    now,
    earlierReplies,
    threadKind: prepared.thread?.kind ?? null,
  });
  return { verdict, keys, isCiFix };
}

/**
 * The task the engine takes from here: a queued follow-up is held (a resume of the run it waits
 * for); a create or a resume is queued to be sent.
 */
function submitTask(prepared: PreparedStart, thread: TaskThread, ctx: ActContext): Promise<Task> {
  const { engine, client } = ctx.deps;
  const base = {
    sourceType: prepared.sourceType,
    thread,
    trackingCommentId: null,
    reaction: prepared.reaction,
    requestedBy: prepared.requester,
    receivedAt: ctx.receivedAt,
  };
  return prepared.action === "queue"
    ? engine.submit({
        ...base,
        kind: "resume",
        state: "held",
        runId: prepared.runId,
        orgId: prepared.orgId,
        request: { prompt: prepared.resumePrompt, ...(prepared.review ? { review: prepared.review } : {}) },
        // While the service is known to refuse follow-ups to a working run, held as with `queue` (the run's comment says why).
        interrupt: prepared.interrupt && client.interrupts.accepted ? prepared.interrupt : null,
      })
    : engine.submit({
        ...base,
        kind: prepared.action,
        state: "queued",
        runId: prepared.action === "resume" ? prepared.runId : null,
        orgId: prepared.action === "resume" ? prepared.orgId : client.orgId,
        // A review's head and limit ride in the stored request for the report; sending.ts leaves them out of the create.
        request: {
          ...(prepared.action === "create" ? prepared.request : { prompt: prepared.resumePrompt }),
          ...(prepared.review ? { review: prepared.review } : {}),
        },
      });
}

/**
 * Someone who may not trigger: one refusal per person per thread per day (remembered in the store,
 * decided under the thread's lock so that a burst of comments is answered once), at the lowest
 * write priority. Recorded before it is written: a failed write is not retried into a second reply.
 */
async function refuseOutsider(prepared: Extract<PreparedRun, { action: "refuse" }>, thread: TaskThread, ctx: ActContext): Promise<void> {
  const { store, locks } = ctx.deps;
  const login = prepared.trigger.actor?.login ?? "";
  const key = refusalKey(thread, login);
  const section = await locks.withLock(threadLockKey(thread), async () => {
    const now = Date.now();
    if ((await store.eventTimes(key, now - REFUSAL_WINDOW_MS)).length > 0) return false;
    await store.recordEvent([key], now);
    return true;
  });
  if (section === null) throw new Error(`the lock of ${threadLockKey(thread)} stayed busy; the delivery is retried`);
  ctx.deps.observer?.refused("permission");
  if (!section.value) {
    ctx.log.info({ reason: prepared.reason, login }, "refused; this person was already told in this thread today");
    return;
  }
  await ctx.deps.engine.reply(thread, prepared.body, "outsider");
  ctx.log.info({ action: prepared.action, reason: prepared.reason }, "refused");
}

/** Over a spend limit, after the lock: nothing is sent; the reply (if this window has not had one yet) says which limit. */
async function refuseOverLimit(overLimit: Extract<SpendVerdict, { allowed: false }>, thread: TaskThread, ctx: ActContext): Promise<void> {
  ctx.log.info({ limit: overLimit.over.limit, count: overLimit.over.count, reason: overLimit.reason }, "over a spend limit; nothing sent");
  ctx.deps.observer?.refused("over_limit");
  if (overLimit.reply !== null) await ctx.deps.engine.reply(thread, overLimit.reply, "acknowledge");
}

/**
 * Under the thread's lock: the spend guards, a fresh look at the thread's run, the task and the
 * counts it adds. Replies and logs come after the lock is released.
 */
async function decideAndStore(initial: PreparedStart, thread: TaskThread, ctx: ActContext): Promise<void> {
  const { store, locks } = ctx.deps;
  const section = await locks.withLock(threadLockKey(thread), async () => {
    const now = Date.now();
    const spend = await spendVerdict(initial, thread, ctx, now);
    if (!spend.verdict.allowed) {
      if (spend.verdict.reply !== null) await store.recordEvent([spend.keys.reply(spend.verdict.over.limit)], now);
      return { kind: "over_limit" as const, verdict: spend.verdict };
    }
    let prepared = await holdInsteadOfCreate(initial, thread, ctx);
    if (prepared.action !== "create") {
      const known = await freshKnownRun(prepared, thread, ctx);
      if (known) prepared = replanWithKnownRun(prepared, known);
      else if (prepared.action === "queue" && !(await store.activeTaskForThread(thread.owner, thread.repo, thread.issueNumber))) {
        ctx.log.warn({ reason: prepared.reason }, "the run this follow-up waited for never started; the follow-up is dropped");
        return { kind: "dropped" as const };
      }
    }
    const task = await submitTask(prepared, thread, ctx);
    if (prepared.checkAttempt)
      await store.recordCheckAttempt(thread.owner, thread.repo, prepared.checkAttempt.prNumber, prepared.checkAttempt.headSha);
    await store.recordEvent([spend.keys.thread, spend.keys.repo, ...(spend.isCiFix ? [spend.keys.ciFixes] : [])], now);
    return { kind: "stored" as const, task, prepared };
  });
  if (section === null) throw new Error(`the lock of ${threadLockKey(thread)} stayed busy; the delivery is retried`);
  if (section.value.kind === "dropped") {
    ctx.deps.observer?.ignored("follow_up_dropped");
    return;
  }
  if (section.value.kind === "over_limit") {
    await refuseOverLimit(section.value.verdict, thread, ctx);
    return;
  }
  const { task, prepared } = section.value;
  ctx.deps.observer?.accepted?.(prepared.action === "create" ? "started" : prepared.action === "resume" ? "resumed" : "queued");
  ctx.log.info(
    { taskId: task.id, action: prepared.action, flow: prepared.trigger.flow, reason: prepared.reason },
    prepared.action !== "queue"
      ? "run accepted"
      : task.interrupt
        ? "follow-up on its way to the working agent"
        : "follow-up held until the run finishes",
  );
}
