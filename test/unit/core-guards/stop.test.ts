/**
 * `/agent stop` as pure decisions on real webhook payloads: who may be heard, what the thread is
 * told (the run's link, no cancel call), and when CI auto-fix is paused.
 */
import { describe, expect, it } from "vitest";
import { findKillSwitch } from "../../../src/core/kill-switch.js";
import { bindKindMarker, newRunMarker } from "../../../src/core/markers/write.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { detectTrigger } from "../../../src/core/detect/index.js";
import type { BridgeSelf } from "../../../src/core/actors.js";
import { isCiPausedByStop, renderStopReply, renderStoppedComment } from "../../../src/core/stop.js";
import { parseTriggerComment } from "../../../src/core/trigger.js";
import { planFromEvent } from "../../../src/flows/facts.js";
import { commentEvent, labelEvent, repoConfig, reviewCommentEvent, reviewEvent } from "../core-events/scenarios.js";
import { mentionsIn, readGfm } from "../core-output/gfm.js";

const self: BridgeSelf & { botLogins: string[] } = { appSlug: "run-bot", botLogins: ["run-bot[bot]"] };
const config = repoConfig();
const TRIGGER = { phrase: "/agent", appSlug: "run-bot", mention: true };

/** The stop detectTrigger answers for an event, or null when it answers something else. */
function detectStopRequest(...args: Parameters<typeof detectTrigger>) {
  const detection = detectTrigger(...args);
  return detection.kind === "stop" ? detection.stop : null;
}

describe("the stop detectTrigger answers", () => {
  it("a person's `/agent stop` comment: the thread, who, and the comment to react to", () => {
    expect(detectStopRequest(commentEvent("/agent stop"), config, self)).toMatchObject({
      actor: { login: "Codertocat" },
      thread: { kind: "issue", number: 1 },
      reaction: { kind: "issue_comment", id: 492700400 },
      dedupeKey: "stop:comment:492700400",
    });
  });

  it("in a review comment and in a review body too", () => {
    expect(detectStopRequest(reviewCommentEvent("@run-bot stop"), config, self)).toMatchObject({
      reaction: { kind: "review_comment" },
      thread: { kind: "pull_request" },
    });
    expect(detectStopRequest(reviewEvent("commented", "/agent stop"), config, self)).toMatchObject({
      reaction: null,
      dedupeKey: expect.stringMatching(/^stop:review:\d+$/),
    });
  });

  it("never from a bot, never from an edit, never for an ordinary instruction", () => {
    expect(detectStopRequest(commentEvent("/agent stop", { login: "ci-helper[bot]", type: "Bot" }), config, self)).toBeNull();
    expect(detectStopRequest(commentEvent("/agent stop", { action: "edited" }), config, self)).toBeNull();
    expect(detectStopRequest(commentEvent("/agent stop the flaky test"), config, self)).toBeNull();
    expect(detectStopRequest(labelEvent("agent"), config, self)).toBeNull();
  });

  it("follows the configured phrase", () => {
    expect(detectStopRequest(commentEvent("/bot stop"), repoConfig({ trigger_phrase: "/bot" }), self)).not.toBeNull();
    expect(detectStopRequest(commentEvent("/agent stop"), repoConfig({ trigger_phrase: "/bot" }), self)).toBeNull();
  });

  it("is never a task: detectTrigger answers a stop, never a trigger, so no shell resumes a run with the word `stop`", () => {
    for (const event of [commentEvent("/agent stop"), reviewCommentEvent("/agent stop"), reviewEvent("changes_requested", "/agent stop")]) {
      expect(detectTrigger(event, config, self)).toMatchObject({ kind: "stop", stop: { flow: "stop" } });
    }
  });
});

describe("what the thread is told", () => {
  const marker = {
    ...newRunMarker({
      place: { repository: "octo-org/widgets", thread: 1 },
      runId: 1842,
      orgId: 42,
      sourceType: "GIT_HOST",
      requestId: "actions:9100:1",
    }),
  };
  const webUrl = "https://agents.example.com/runs/1842";

  it("the tracking comment's final state: stopped by whom, the run's link, no cancel call, a done/stopped marker", () => {
    const body = renderStoppedComment({ marker, webUrl, stoppedBy: "octocat", role: "run", triggerPhrase: "/agent" });
    expect(parseMarker(body)).toEqual({ ...marker, state: "done", outcome: "stopped" });
    const reading = readGfm(body);
    expect(reading.hrefs).toEqual([webUrl, webUrl]);
    expect(body).toContain("### ⏹️ Agent run [#1842](https://agents.example.com/runs/1842) stopped by @octocat");
    expect(body).toContain(
      "The Agent Run Service has no cancel call, so **the run itself may still be working**: stop it on [its page](https://agents.example.com/runs/1842)",
    );
    expect(parseTriggerComment(body, TRIGGER)).toBeNull();
  });

  it("a follow-up that waited behind the run is dropped, and says so", () => {
    const body = renderStoppedComment({ marker, webUrl, stoppedBy: "octocat", role: "follow_up", triggerPhrase: "/agent" });
    expect(parseMarker(body)).toMatchObject({ state: "done", outcome: "stopped", runId: 1842 });
    expect(body).toContain("**Dropped:** @octocat stopped agent run [#1842]");
  });

  it("a request stopped before its run existed ends without a run id", () => {
    const queued = newRunMarker({ place: { repository: "octo-org/widgets", thread: 1 }, runId: null, orgId: 42, sourceType: "GIT_HOST" });
    expect(parseMarker(renderStoppedComment({ marker: queued, stoppedBy: "octocat", role: "run", triggerPhrase: "/agent" }))).toMatchObject(
      { runId: null, outcome: "stopped" },
    );
  });

  it("the reply: what was stopped and dropped, the cancel note, CI paused on pull requests; never an error when nothing runs", () => {
    const stopped = renderStopReply({
      stoppedBy: "octocat",
      stopped: { runId: 1842, webUrl },
      droppedFollowUps: 2,
      pullRequest: true,
      triggerPhrase: "/agent",
    });
    expect(parseCommentKind(stopped)).toBe("stop");
    expect(stopped).toContain(
      "⏹️ @octocat, I stopped watching agent run [#1842](https://agents.example.com/runs/1842) and dropped 2 follow-ups waiting for it.",
    );
    expect(stopped).toContain("no cancel call");
    expect(stopped).toContain("CI auto-fix is paused on this pull request until the next `/agent` comment.");
    // The person who asked is the only one notified.
    expect(
      mentionsIn(readGfm(stopped))
        .join(" ")
        .match(/@[\w-]+/g),
    ).toEqual(["@octocat"]);

    const nothing = renderStopReply({
      stoppedBy: "octocat",
      stopped: null,
      droppedFollowUps: 0,
      pullRequest: false,
      triggerPhrase: "/agent",
    });
    expect(nothing).toBe("<!-- agent-run-bridge:stop -->\n⏹️ @octocat, nothing is running in this thread, so there was nothing to stop.");
    expect(parseTriggerComment(nothing, TRIGGER)).toBeNull();
  });
});

describe("isCiPausedByStop", () => {
  const PR = { repository: "octo/app", thread: 7 };
  const bot = { login: "run-bot[bot]", type: "Bot" };
  const human = { login: "octocat", type: "User" };
  const stopReply = renderStopReply({
    stoppedBy: "octocat",
    stopped: null,
    droppedFollowUps: 0,
    pullRequest: true,
    triggerPhrase: "/agent",
  });

  it("paused after the bot answered a stop, until a person's next `/agent` request", () => {
    const base = [
      { id: 1, user: human, body: "/agent fix CI" },
      { id: 2, user: human, body: "/agent stop" },
      { id: 3, user: bot, body: stopReply },
    ];
    expect(isCiPausedByStop(base, config, self, PR)).toBe(true);
    expect(isCiPausedByStop([...base, { id: 4, user: human, body: "looks good" }], config, self, PR)).toBe(true);
    expect(isCiPausedByStop([...base, { id: 5, user: { login: "helper[bot]", type: "Bot" }, body: "/agent fix" }], config, self, PR)).toBe(
      true,
    );
    expect(isCiPausedByStop([...base, { id: 6, user: human, body: "/agent try again" }], config, self, PR)).toBe(false);
    expect(isCiPausedByStop([...base, { id: 6, user: human, body: "/agent stop" }], config, self, PR)).toBe(true);
  });

  it("a stop reply bound to this pull request pauses it; one bound to another thread (a copy) does not", () => {
    const here = bindKindMarker(stopReply, PR);
    expect(isCiPausedByStop([{ id: 3, user: bot, body: here }], config, self, PR)).toBe(true);
    expect(isCiPausedByStop([{ id: 3, user: bot, body: here }], config, self, { ...PR, thread: 8 })).toBe(false);
    expect(isCiPausedByStop([{ id: 3, user: bot, body: here }], config, self, { ...PR, repository: "octo/other" })).toBe(false);
    // Written before stop replies named their thread: still believed (not believing it would restart fixes a maintainer stopped).
    expect(isCiPausedByStop([{ id: 3, user: bot, body: stopReply }], config, self, { ...PR, thread: 8 })).toBe(true);
  });

  it("not paused without the bot's own stop reply (a pasted one does not count)", () => {
    expect(isCiPausedByStop([{ id: 2, user: human, body: "/agent stop" }], config, self, PR)).toBe(false);
    expect(isCiPausedByStop([{ id: 3, user: human, body: stopReply }], config, self, PR)).toBe(false);
  });
});

describe("the kill switch", () => {
  it("is found case-insensitively among the thread's labels, as configured", () => {
    expect(findKillSwitch(["bug", "Agent:Off"], config)).toBe("Agent:Off");
    expect(findKillSwitch(["bug"], config)).toBeNull();
    expect(findKillSwitch(["no-bots"], repoConfig({ kill_switch_label: "no-bots" }))).toBe("no-bots");
  });

  it("holds back every trigger on a thread that carries it (the labels come from the payload)", () => {
    const labelled = (event: ReturnType<typeof commentEvent>) => {
      if ("thread" in event) event.thread.labels = [...event.thread.labels, "agent:off"];
      return event;
    };
    // planRun's answer from the payload alone: null while it still needs a read (the permission), a "no" for the kill switch.
    const planned = (event: ReturnType<typeof commentEvent>, explicitPrompt?: string) => {
      const detection = detectTrigger(event, config, self, explicitPrompt ? { explicitPrompt } : {});
      if (detection.kind !== "trigger") throw new Error(`not a trigger: ${detection.kind}`);
      return planFromEvent(detection.trigger, config);
    };
    for (const event of [
      commentEvent("/agent fix it"),
      labelEvent("agent"),
      reviewEvent("changes_requested", "Handle null."),
      reviewCommentEvent("/agent rename"),
    ]) {
      expect(planned(event)).toBeNull();
      expect(planned(labelled(event))).toMatchObject({
        action: "ignore",
        code: "kill_switch",
        reason: expect.stringContaining('"agent:off"'),
      });
    }
    expect(planned(labelled(commentEvent("anything")), "Do it")).toMatchObject({
      code: "kill_switch",
    });
  });

  it("a stop still works where the kill switch is on", () => {
    const event = commentEvent("/agent stop");
    if ("thread" in event) event.thread.labels = ["agent:off"];
    expect(detectStopRequest(event, config, self)).not.toBeNull();
  });
});
