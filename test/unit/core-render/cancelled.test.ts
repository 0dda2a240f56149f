import { describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { newRunMarker } from "../../../src/core/markers/write.js";
import { isWorkingMarker, renderCancelledComment } from "../../../src/core/render/cancelled.js";
import { SOURCE } from "../../../src/service/wire.js";
import { marker } from "./fixtures.js";

describe("renderCancelledComment", () => {
  it("a run that goes on: its link, how to continue it, and a marker a later trigger resumes from", () => {
    const body = renderCancelledComment({ marker, webUrl: "https://agents.example.com/runs/123", triggerPhrase: "/agent" });
    expect(parseMarker(body)).toEqual({ ...marker, state: "done", outcome: "watch_timed_out" });
    expect(body).toContain("⏹️ **This job was cancelled**; agent run [#123](https://agents.example.com/runs/123) goes on");
    expect(body).toContain("[the run page](https://agents.example.com/runs/123)");
    expect(body).toContain("Reply with `/agent <instructions>` to continue it");
    expect(isWorkingMarker(parseMarker(body))).toBe(false);
  });

  it("without a link, and with the repository's trigger phrase", () => {
    const body = renderCancelledComment({ marker, webUrl: "javascript:alert(1)", triggerPhrase: "@bot" });
    expect(body).toContain("agent run 123 goes on on the Agent Run Service");
    expect(body).not.toContain("javascript:");
    expect(body).toContain("`@bot <instructions>`");
  });

  it("a job cancelled before its run existed: nothing was sent, the marker ends without a run", () => {
    const queued = newRunMarker({
      place: { repository: "octo-org/widgets", thread: 1 },
      runId: null,
      orgId: 1,
      sourceType: SOURCE.gitHost,
    });
    expect(isWorkingMarker(queued)).toBe(true);
    const body = renderCancelledComment({ marker: queued, triggerPhrase: "/agent" });
    expect(parseMarker(body)).toMatchObject({ runId: null, state: "done", outcome: "stopped" });
    expect(body).toContain("before an agent run was started; nothing was sent");
  });
});
