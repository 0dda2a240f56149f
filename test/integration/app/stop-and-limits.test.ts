/**
 * `/agent stop` and the spend limits in the App, over signed webhooks, the fake GitHub and the
 * emulator: both decided in the delivery worker under the thread's lock, counted in the shared store.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { BOT_LOGIN, startAppHarness, type AppHarness, until } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

async function comment(h: AppHarness, body: string, login = "maintainer", issue = ISSUE): Promise<number> {
  const c = h.humanComment(issue, body, login);
  expect((await h.deliver("issue_comment", c.payload)).status).toBe(200);
  return c.id;
}

describe("/agent stop", () => {
  it("ends the watch and the held follow-ups, leaves a final 'stopped by' comment with the run's link, reacts and replies", async () => {
    harness = await startAppHarness();
    harness.emulator.control.script({ match: "slow", durationMs: 600_000 });
    await comment(harness, "/agent a slow task");
    await until(async () => (await harness.app.store.listTasks(["watching"])).length === 1, "the run to be watched");
    const [watched] = await harness.app.store.listTasks(["watching"]);
    await comment(harness, "/agent and also this");
    await until(async () => (await harness.app.store.listTasks(["held"])).length === 1, "the follow-up to be held");

    const stopId = await comment(harness, "/agent stop");
    await harness.idle();

    expect(await harness.app.store.listTasks(["held", "queued", "sending", "watching", "reporting"])).toEqual([]);
    const tracking = harness.github.state.issueComments.find((c) => c.id === watched!.trackingCommentId)!;
    expect(parseMarker(tracking.body)).toMatchObject({ runId: watched!.runId, state: "done", outcome: "stopped" });
    expect(tracking.body).toContain("stopped by @maintainer");
    expect(tracking.body).toContain(watched!.webUrl!);
    expect(tracking.body).toContain("no cancel call");
    const reply = harness.botComments(1).at(-1)!;
    expect(parseCommentKind(reply.body)).toBe("stop");
    expect(reply.body).toContain("dropped the follow-up");
    expect(harness.github.state.reactions.filter((r) => r.target.id === stopId).map((r) => `${r.content} ${r.user.login}`)).toEqual([
      `+1 ${BOT_LOGIN}`,
    ]);
    // Nothing more reaches the service, and the stopped comment stays stopped.
    expect(harness.service.resumes()).toEqual([]);
    expect(harness.service.creates()).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(parseMarker(harness.github.state.issueComments.find((c) => c.id === watched!.trackingCommentId)!.body)).toMatchObject({
      outcome: "stopped",
    });
  });

  it("is no error when nothing is running: it says so", async () => {
    harness = await startAppHarness();
    await comment(harness, "/agent stop");
    await harness.idle();
    const [reply] = harness.botComments(1);
    expect(reply!.body).toContain("nothing is running in this thread");
    expect(harness.service.requests).toEqual([]);
  });

  it("from someone who may not trigger runs is refused like a trigger", async () => {
    harness = await startAppHarness();
    harness.emulator.control.script({ match: "slow", durationMs: 600_000 });
    await comment(harness, "/agent a slow task");
    await until(async () => (await harness.app.store.listTasks(["watching"])).length === 1, "the run to be watched");
    await comment(harness, "/agent stop", "reader");
    await until(() => harness.botComments(1).length === 2, "the refusal");
    expect(await harness.app.store.listTasks(["watching"])).toHaveLength(1);
  });
});

describe("spend limits", () => {
  it("a thread over runs_per_thread_per_day gets one reply naming the limit and no run, however often it asks", async () => {
    harness = await startAppHarness({ config: "limits:\n  runs_per_thread_per_day: 1\n" });
    await comment(harness, "/agent fix it");
    await harness.idle();
    await comment(harness, "/agent and again");
    await harness.idle();
    await comment(harness, "/agent please?");
    await harness.idle();

    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.resumes()).toEqual([]);
    const replies = harness.botComments(1).filter((c) => parseCommentKind(c.body) === "over_limit");
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toContain("limits.runs_per_thread_per_day: 1");
    expect(replies[0]!.body).toContain("this issue has started 1 run in the last 24 hours");
    expect(replies[0]!.body).toMatch(/The next run can start at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });

  it("runs_per_repo_per_hour counts runs across threads", async () => {
    const other = { number: 3, title: "Another", body: "" };
    harness = await startAppHarness({
      config: "limits:\n  runs_per_repo_per_hour: 1\n",
      seed: {
        ...(await import("../../helpers/app-harness.js")).baseSeed(),
        issues: [
          { number: 1, title: ISSUE.title, body: ISSUE.body, user: "maintainer" },
          { number: 3, title: "Another", user: "maintainer" },
        ],
      },
    });
    await comment(harness, "/agent fix it");
    await harness.idle();
    await comment(harness, "/agent fix this too", "maintainer", other);
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    const [reply] = harness.botComments(3);
    expect(reply!.body).toContain("this repository has started 1 run in the last hour");
  });
});
