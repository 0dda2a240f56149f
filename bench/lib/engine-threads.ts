/**
 * The GitHub side of the benchmarks that watch runs with the RunEngine (polling, watch-scale): a
 * fake GitHub with one issue per run, the App's thread writer on it, and one "watching" task per
 * run with its tracking comment, as the App leaves them after creating the runs.
 */
import { ProbotOctokit } from "probot";
import { createOctokitThreadWriter, type ThreadWriter } from "../../src/app/thread-writer.js";
import { SOURCE, type AgentRun } from "../../src/service/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../test/helpers/fake-github/index.js";
import { queueTaskStep, type EngineHarness } from "../../test/helpers/engine-harness.js";
import { OWNER, REPO } from "./app.js";
import { BENCH_ORG_ID } from "./service.js";

const TestOctokit = ProbotOctokit.defaults((o: object) => ({ ...o, retry: { enabled: false }, throttle: { enabled: false } }));

/** A fake GitHub with issues 1…`threads`, and the App's thread writer on it. */
export async function startThreadsGitHub(threads: number): Promise<{ github: FakeGitHub; writer: ThreadWriter }> {
  const github = await startFakeGitHub({
    seed: {
      repositories: [{ owner: OWNER, name: REPO }],
      issues: Array.from({ length: threads }, (_, i) => ({ number: i + 1, title: `Issue ${i + 1}`, body: "Please fix." })),
    },
  });
  const octokit = new TestOctokit({ auth: { token: "installation-token" }, baseUrl: github.url });
  const writer = createOctokitThreadWriter(async () => octokit, { botLogins: ["agent-run-bridge[bot]"] });
  return { github, writer };
}

/**
 * Run i is watched from issue i + 1: the App posts a tracking comment when it accepts a trigger
 * (the engine edits it and finally replaces it with the result), stores the task and queues its step.
 * `sentAtCreated`: the task's send time is the run's `created_at` (what sweeps of the runs list go by).
 */
export async function watchRunsInThreads(
  harness: Pick<EngineHarness, "store" | "queue">,
  writer: ThreadWriter,
  runs: readonly AgentRun[],
  prompts: readonly string[],
  options: { sentAtCreated?: boolean } = {},
): Promise<void> {
  for (const [i, run] of runs.entries()) {
    const thread = { installationId: 1, owner: OWNER, repo: REPO, issueNumber: i + 1, triggerPhrase: "/agent" };
    const trackingCommentId = await writer.createComment(thread, "tracking", { priority: "acknowledge" });
    const task = await harness.store.insertTask({
      kind: "create",
      state: "watching",
      sourceType: SOURCE.gitHost,
      thread,
      runId: run.id,
      orgId: BENCH_ORG_ID,
      trackingCommentId,
      reaction: null,
      request: { prompt: prompts[i]! },
      requestedBy: "maintainer",
      deadlineAt: Date.now() + 24 * 3_600_000,
    });
    if (options.sentAtCreated) await harness.store.updateTask(task.id, { sentAt: Date.parse(run.created_at!) });
    await queueTaskStep(harness.queue, task.id);
  }
}

/** True when `work` did not settle within `ms` (the timer is cleared either way, so nothing lingers). */
export async function finishesWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), ms);
  });
  try {
    return await Promise.race([work.then(() => false), limit]);
  } finally {
    clearTimeout(timer);
  }
}
