/**
 * A cancelled job, as a runner cancels it: the COMMITTED bundle on Node 24 in a child process,
 * sent SIGINT while it watches a run (the runner's first signal on a cancel or `timeout-minutes`),
 * or killed with SIGKILL and then followed by its post step (dist/post.js) with the state the main
 * step saved (the runner hands GITHUB_STATE's values over as STATE_<name>). The thread never keeps
 * a comment saying "working": the main step's own last word, or the post step's, written once.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { renderStoppedComment } from "../../../src/core/stop.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import {
  ACTIONS_BOT,
  GITHUB_TOKEN,
  ROOT,
  SCALE,
  TEST_POLL_INTERVAL,
  actionSeed,
  createRunnerFiles,
  ensureNode24,
  parseOutputFile,
  readOutputs,
  readSummary,
  runBundledAction,
  signedByAction,
  stepEnv,
  type RunnerFiles,
} from "../../helpers/action-runner.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";

/** The runner sends SIGTERM 7.5 s after SIGINT: the step must be gone before. */
const SIGINT_GRACE_MS = 7_500;

let node24: string;
let github: FakeGitHub;
let emulator: RunningEmulator;

beforeAll(async () => {
  node24 = await ensureNode24();
  // One issue per test: a thread whose run goes on makes the next trigger there wait for it.
  const seed = actionSeed();
  seed.issues = [1, 3, 4, 5].map((number) => ({ number, title: `Task ${number}`, body: "Something to do.", user: "maintainer" }));
  [github, emulator] = await Promise.all([startFakeGitHub({ seed }), startEmulator({ timeScale: SCALE })]);
  // 100 s of real time: still working whenever the job is cancelled.
  emulator.control.script({ match: "long job", durationMs: 50_000_000, summary: "Did the long job." });
  emulator.control.script({ match: "quick job", durationMs: 5_000, summary: "Did the quick job." });
  // Working without a step in its log: nothing for the step to write while it watches.
  emulator.control.script({ match: "quiet job", durationMs: 50_000_000, logSteps: 0, summary: "Did the quiet job." });
}, 180_000);

afterAll(async () => {
  await Promise.all([github?.close(), emulator?.close()]);
});

/** A /agent comment on an issue and the step environment for it. */
function stepFor(
  issue: number,
  body: string,
  pollInterval = TEST_POLL_INTERVAL,
): { files: RunnerFiles; env: Record<string, string>; issue: number } {
  // Numbered by the fake, after every comment so far (the bot's included), as GitHub would.
  github.seed({ issueComments: [{ issue_number: issue, body, user: "maintainer" }] });
  const id = Math.max(...github.commentsOn(FULL_NAME, issue).map((c) => c.id));
  const payload = issueCommentPayload({ thread: { number: issue, title: `Task ${issue}` }, comment: { id, body, login: "maintainer" } });
  const files = createRunnerFiles();
  const env = stepEnv({
    eventName: "issue_comment",
    payload,
    inputs: { "api-url": emulator.url, "api-token": emulator.token, "org-id": String(emulator.orgId) },
    githubApiUrl: github.url,
    files,
    extra: { AGENT_RUN_POLL_INTERVAL: pollInterval },
  });
  return { files, env, issue };
}

/** The main step started as a runner starts it, in a child we can signal. */
function startMainStep(env: Record<string, string>) {
  const child = spawn(node24, [join(ROOT, "dist", "index.js")], {
    cwd: env.GITHUB_WORKSPACE,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** The post step with the main step's saved state, as the runner runs `runs.post`. */
function runPostStep(env: Record<string, string>, files: RunnerFiles) {
  const saved = parseOutputFile(readFileSync(join(files.dir, "state"), "utf8"));
  const state = Object.fromEntries(Object.entries(saved).map(([name, value]) => [`STATE_${name}`, value]));
  return runBundledAction(node24, { ...env, ...state }, { script: join(ROOT, "dist", "post.js") });
}

const trackingComment = (issue: number) =>
  github.commentsOn(FULL_NAME, issue).find((c) => c.user.login === ACTIONS_BOT && parseMarker(c.body) !== null);

async function until<T>(read: () => T | undefined | null | false, what: string, timeoutMs = 30_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the step watches its run: the tracking comment names it and says running. */
async function watching(issue: number) {
  return until(() => {
    const comment = trackingComment(issue);
    const marker = parseMarker(comment?.body);
    return comment && marker?.runId != null && marker.state === "running" ? { comment, runId: marker.runId } : null;
  }, "the tracking comment to name the run");
}

const updatesOf = (commentId: number) => github.writes.filter((w) => w.kind === "comment_updated" && w.comment.id === commentId).length;

describe("a cancelled job on Node 24", () => {
  it("SIGINT mid-watch: the comment says cancelled with the run's link, the outputs are set, the step exits within the grace period", async () => {
    const { files, env, issue } = stepFor(1, "/agent do the long job");
    const step = startMainStep(env);
    const { comment, runId } = await watching(issue);
    const sentAt = Date.now();
    step.child.kill("SIGINT");
    const exit = await step.exited;
    expect(exit.at - sentAt).toBeLessThan(SIGINT_GRACE_MS);
    expect(exit.code).toBe(1);

    const body = trackingComment(issue)!.body;
    expect(parseMarker(body)).toMatchObject({ runId, state: "done", outcome: "watch_timed_out" });
    expect(body).toContain("This job was cancelled");
    expect(body).toContain(`[#${runId}](${emulator.url}/runs/${runId})`);
    expect(body).toContain("`/agent <instructions>`");
    expect(readOutputs(files)).toMatchObject({
      "run-id": String(runId),
      "web-url": `${emulator.url}/runs/${runId}`,
      "comment-id": String(comment.id),
      resumed: "false",
    });
    expect(readSummary(files)).toContain(`## ⏹️ The job was cancelled; agent run #${runId} goes on`);
    expect(step.stdout()).toContain(`::error::The job was cancelled (SIGINT); agent run ${runId} goes on`);
    expect(emulator.control.runs().find((r) => r.id === runId)!.status).not.toBe("completed");

    // Its post step finds the comment final and leaves it alone.
    const before = updatesOf(comment.id);
    const post = await runPostStep(env, files);
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain("already has its last word");
    expect(updatesOf(comment.id)).toBe(before);
    expect(trackingComment(issue)!.body).toBe(body);
  });

  it("SIGINT after another job's /agent stop: the stopped comment stays, the cancel does not write over it", async () => {
    // Polls a second apart, so the step looks at its comment for a stop every 15 s (and before a write, but a quiet
    // run gives it none): the cancel comes first.
    const { env, issue } = stepFor(5, "/agent do the quiet job", "1");
    const step = startMainStep(env);
    const { runId } = await watching(issue);
    // Settled: no write of the step's for longer than a poll.
    let writes = github.writes.length;
    let quietSince = Date.now();
    await until(() => {
      if (github.writes.length !== writes) [writes, quietSince] = [github.writes.length, Date.now()];
      return Date.now() - quietSince > 1_500;
    }, "the step to stop writing");
    const comment = trackingComment(issue)!;
    // The stop's own workflow run turns this step's tracking comment into its "stopped" state, as the job's token.
    const stopped = signedByAction(
      renderStoppedComment({
        marker: parseMarker(comment.body)!,
        webUrl: `${emulator.url}/runs/${runId}`,
        stoppedBy: "maintainer",
        role: "run",
        triggerPhrase: "/agent",
      }),
      emulator.token,
    );
    const edit = await fetch(`${github.url}/repos/${FULL_NAME}/issues/comments/${comment.id}`, {
      method: "PATCH",
      headers: { authorization: `token ${GITHUB_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ body: stopped }),
    });
    expect(edit.status).toBe(200);
    const before = updatesOf(comment.id);
    step.child.kill("SIGINT");
    expect((await step.exited).code).toBe(1);

    expect(updatesOf(comment.id)).toBe(before);
    expect(trackingComment(issue)!.body).toBe(stopped);
    expect(parseMarker(trackingComment(issue)!.body)).toMatchObject({ runId, state: "done", outcome: "stopped" });
  });

  it("SIGKILL mid-watch: the post step finishes the comment from the saved state, once", async () => {
    const { files, env, issue } = stepFor(3, "/agent do the long job");
    const step = startMainStep(env);
    const { comment, runId } = await watching(issue);
    step.child.kill("SIGKILL");
    expect((await step.exited).signal).toBe("SIGKILL");
    expect(parseMarker(trackingComment(issue)!.body)).toMatchObject({ runId, state: "running" });

    const before = updatesOf(comment.id);
    const post = await runPostStep(env, files);
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain("its tracking comment now says the job was cancelled");
    expect(updatesOf(comment.id)).toBe(before + 1);
    const body = trackingComment(issue)!.body;
    expect(parseMarker(body)).toMatchObject({ runId, state: "done", outcome: "watch_timed_out" });
    expect(body).toContain("This job was cancelled");
    expect(body).toContain(`[#${runId}](${emulator.url}/runs/${runId})`);

    // A second post step (a re-run of the job's cleanup) writes nothing more.
    const again = await runPostStep(env, files);
    expect(again.exitCode).toBe(0);
    expect(updatesOf(comment.id)).toBe(before + 1);
    expect(github.commentsOn(FULL_NAME, issue).filter((c) => c.user.login === ACTIONS_BOT)).toHaveLength(1);
  });

  it("a post step after a main step that finished changes nothing (and asks GitHub nothing)", async () => {
    const { files, env, issue } = stepFor(4, "/agent do the quick job");
    const main = await runBundledAction(node24, env);
    expect(main.exitCode).toBe(0);
    const body = trackingComment(issue)!.body;
    expect(parseMarker(body)).toMatchObject({ state: "done", outcome: "succeeded" });

    github.clearRequests();
    const post = await runPostStep(env, files);
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain("nothing to do");
    expect(github.requests).toHaveLength(0);
    expect(trackingComment(issue)!.body).toBe(body);
  });
});
