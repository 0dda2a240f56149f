import { describe, expect, it } from "vitest";
import { newRunMarker } from "../../../src/core/markers/write.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import type { RunMarker } from "../../../src/core/markers/schema.js";
import { renderTrackingComment } from "../../../src/core/render/tracking.js";
import { describeCurrentStep } from "../../../src/core/trace.js";
import { SOURCE } from "../../../src/service/wire.js";
import { entries, expectWellFormed, marker, RUN_URL } from "./fixtures.js";

describe("renderTrackingComment", () => {
  const base = { marker, webUrl: RUN_URL, startedAt: 0, now: 65_000 };

  it("queued for rate budget, before any run exists", () => {
    const queued = newRunMarker({
      place: { repository: "octo-org/widgets", thread: 1 },
      runId: null,
      orgId: 1,
      sourceType: SOURCE.gitHost,
    });
    const body = renderTrackingComment({
      ...base,
      marker: queued,
      phase: "queued",
      queuePosition: 3,
      triggerUrl: "https://github.com/acme/widgets/issues/1#issuecomment-5",
    });
    expect(body).toBe(
      [
        '<!-- agent-run-bridge:run {"v":2,"repo":"octo-org/widgets","thread":1,"runId":null,"orgId":1,"sourceType":"GIT_HOST","branches":[],"state":"queued"} -->',
        "⏳ **Queued** (position 3): waiting for the Agent Run Service's rate budget. The run starts by itself.",
        "",
        "<sub>Triggered by [this comment](https://github.com/acme/widgets/issues/1#issuecomment-5) · this comment updates as the run progresses.</sub>",
      ].join("\n"),
    );
    expectWellFormed(body);
  });

  it("a new run without repo_id says the organization's default repository applies; a resume does not", () => {
    const note =
      "ℹ️ No `repo_id` is configured for this repository and the Agent Run Service did not list it, so the organization's default repository applies.";
    for (const phase of ["queued", "starting", "running"] as const) {
      expect(renderTrackingComment({ ...base, phase, orgDefaultRepository: true })).toContain(`\n\n${note}\n\n<sub>`);
      expect(renderTrackingComment({ ...base, phase })).not.toContain("repo_id");
    }
    expect(renderTrackingComment({ ...base, phase: "resuming", orgDefaultRepository: true })).not.toContain("repo_id");
  });

  it("started, then working with the current step and a queued follow-up", () => {
    expect(renderTrackingComment({ ...base, phase: "starting" })).toContain(`🤖 Agent run [#123](${RUN_URL}) started…`);
    const step = describeCurrentStep(entries.slice(0, 1));
    const body = renderTrackingComment({ ...base, phase: "running", currentStep: step, followUps: 1 });
    expect(body).toBe(
      [
        '<!-- agent-run-bridge:run {"v":2,"repo":"octo-org/widgets","thread":1,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":[],"state":"running","requestId":"delivery-1"} -->',
        `🤖 Agent run [#123](${RUN_URL}) is working · 1m 5s so far`,
        "",
        "**Now:** Searching the code for `retryDelay` in `src/`",
        "",
        "📝 Your follow-up is queued: it will be sent when the run finishes.",
        "",
        "<sub>This comment updates as the run progresses.</sub>",
      ].join("\n"),
    );
    expectWellFormed(body);
  });

  it("queued_follow_up, resuming and CI-started runs", () => {
    expect(renderTrackingComment({ ...base, phase: "queued_follow_up", followUps: 2 })).toContain(
      `🤖 Agent run [#123](${RUN_URL}) is still working · 1m 5s so far\n\n📝 2 follow-ups are queued: they will be sent when the run finishes.`,
    );
    expect(renderTrackingComment({ ...base, phase: "resuming" })).toContain(
      `🔁 Resuming agent run [#123](${RUN_URL}) with your follow-up…`,
    );
    expect(renderTrackingComment({ ...base, phase: "resuming", sourceType: "GIT_HOST_PR_REVIEW" })).toContain(
      `🔁 Resuming agent run [#123](${RUN_URL}) with this review…`,
    );
    expect(renderTrackingComment({ ...base, phase: "resuming", sourceType: "GIT_HOST_CHECK_SUITE" })).toContain(
      `🔁 Resuming agent run [#123](${RUN_URL}) to fix the failing checks…`,
    );
    const ci = renderTrackingComment({
      ...base,
      marker: { ...marker, sourceType: SOURCE.gitHostCheckSuite },
      phase: "running",
      triggerUrl: "https://github.com/acme/widgets/runs/9",
    });
    expect(ci).toContain(
      "<sub>Started because [checks failed](https://github.com/acme/widgets/runs/9) · this comment updates as the run progresses.</sub>",
    );
    const review = renderTrackingComment({ ...base, phase: "running", sourceType: SOURCE.gitHostPrReview });
    expect(review).toContain("<sub>Started for this review · this comment updates as the run progresses.</sub>");
  });

  it("sets the marker state from the phase and drops a final outcome", () => {
    const wasDone: RunMarker = { ...marker, state: "done", outcome: "succeeded" };
    expect(parseMarker(renderTrackingComment({ ...base, marker: wasDone, phase: "resuming" }))).toEqual({ ...marker, state: "running" });
    expect(parseMarker(renderTrackingComment({ ...base, phase: "queued" }))?.state).toBe("queued");
    expect(() => renderTrackingComment({ ...base, marker: { ...marker, runId: null, state: "queued" }, phase: "resuming" })).toThrow(
      'renderTrackingComment: the "resuming" phase is about an existing run, but the marker has no runId',
    );
  });
});
