/** The demo's terminal rendering, on comment bodies made by the bot's own renderers. */
import { describe, expect, it } from "vitest";
import {
  compactBody,
  createStyle,
  displayWidth,
  renderBody,
  renderWrite,
  shouldColor,
  visibleText,
  wrapSegments,
} from "../../../demo/terminal.js";
import { newRunMarker } from "../../../src/core/markers/write.js";
import { renderResultComment } from "../../../src/core/render/result.js";
import { renderTrackingComment } from "../../../src/core/render/tracking.js";
import type { SafeMarkdown } from "../../../src/core/sanitize-output/safe-markdown.js";
import { SOURCE } from "../../../src/service/wire.js";

const plain = createStyle(false);
const colour = createStyle(true);
const stripAnsi = (text: string) => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");

function resultBody(): string {
  return renderResultComment({
    marker: newRunMarker({ place: { repository: "octo-org/widgets", thread: 1 }, runId: 7, orgId: 1, sourceType: SOURCE.gitHost }),
    run: {
      id: 7,
      status: "completed",
      web_url: "http://127.0.0.1:4010/runs/7",
      summary: "The row splitter dropped a final line without a newline. It now keeps it, with a regression test that exports three rows.",
      git_host_pull_requests: [
        {
          id: 1,
          title: "Keep the last CSV row",
          url: "http://127.0.0.1:4010/pr/1",
          created_at: null,
          head_branch_name: "agent/csv-last-row",
        },
      ],
    },
    phase: "succeeded",
    startedAt: 0,
    finishedAt: 61_000,
    trace: {
      errors: [],
      lastSteps: ["Searched the code for `split`" as SafeMarkdown, "Wrote `src/export.ts`" as SafeMarkdown],
      finalAnswer: null,
      totalEntries: 12,
    },
    triggerPhrase: "/agent",
  });
}

describe("compactBody", () => {
  it("drops the hidden marker, folds <details> to one line, marks the heading, the list item and the footnote", () => {
    const body = resultBody();
    expect(body).toContain("<!-- agent-run-bridge:run");
    expect(body).toContain("<details>");
    const lines = compactBody(body).map((line) => `${line.kind}: ${line.segments.map((s) => s.text).join("")}`);
    expect(lines).toEqual([
      "heading: ✅ Agent run #7 succeeded",
      "text: Status completed · took 1m 1s",
      "text: Pull request",
      "item: Keep the last CSV row · agent/csv-last-row",
      "text: Summary",
      "text: The row splitter dropped a final line without a newline. It now keeps it, with a regression test that exports three rows.",
      expect.stringMatching(/^collapsed: Trace: 12 log entries \(\d+ lines folded\)$/),
      "note: Reply with /agent <instructions> to continue this run.",
    ]);
  });

  it("sees two tracking comments that differ only in their marker as the same text", () => {
    const running = (branches: string[]) =>
      renderTrackingComment({
        marker: newRunMarker({
          place: { repository: "octo-org/widgets", thread: 1 },
          runId: 7,
          orgId: 1,
          sourceType: SOURCE.gitHost,
          branches,
        }),
        phase: "running",
        startedAt: 0,
        now: 5_000,
      });
    const a = running([]);
    const b = running(["agent/csv-last-row"]);
    expect(a).not.toBe(b);
    expect(visibleText(a)).toBe(visibleText(b));
    expect(visibleText(a)).not.toBe(visibleText(resultBody()));
  });
});

describe("renderBody", () => {
  it("wraps every line within the width, and colours change nothing but escapes", () => {
    const body = resultBody();
    for (const width of [40, 57, 80, 120]) {
      const bare = renderBody(body, { width, prefix: "  │ ", style: plain });
      const painted = renderBody(body, { width, prefix: "  │ ", style: colour });
      for (const line of [...bare, ...painted]) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(bare.some((line) => line.includes(String.fromCharCode(27)))).toBe(false);
      expect(painted.some((line) => line.includes(String.fromCharCode(27)))).toBe(true);
      // Without colours a code span keeps one pair of backticks around the whole span.
      expect(bare.join("\n")).toContain("`agent/csv-last-row`");
      // The same words either way (code spans are shown by colour instead of backticks).
      const words = (lines: string[]) =>
        lines
          .map((line) => line.replace(/^ {2}│ /, ""))
          .join(" ")
          .split(/\s+/);
      expect(words(painted.map(stripAnsi))).toEqual(
        words(bare)
          .map((word) => word.replace(/`/g, ""))
          .filter((word) => word !== ""),
      );
    }
    expect(renderBody(body, { width: 200, prefix: "", style: plain }).at(-1)).toBe(
      "Reply with `/agent <instructions>` to continue this run.",
    );
  });

  it("cuts a word longer than the line and keeps all of it", () => {
    const long = "x".repeat(125);
    const lines = wrapSegments([{ text: `see ${long} here` }], 50, plain);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(50);
    expect(lines.join("").replace(/\s/g, "")).toBe(`see${long}here`);
  });
});

describe("widths and colour", () => {
  it("counts emoji as two columns and escapes as none", () => {
    expect(displayWidth("👀")).toBe(2);
    expect(displayWidth("✅ ok")).toBe(5);
    expect(displayWidth(colour.bold("ab"))).toBe(2);
    expect(displayWidth("é")).toBe(1);
  });

  it("colours only a terminal without NO_COLOR", () => {
    expect(shouldColor(true, {})).toBe(true);
    expect(shouldColor(true, { NO_COLOR: "1" })).toBe(false);
    expect(shouldColor(true, { NO_COLOR: "" })).toBe(true);
    expect(shouldColor(false, {})).toBe(false);
    expect(shouldColor(undefined, {})).toBe(false);
  });
});

describe("renderWrite", () => {
  it("shows a reaction as its emoji, and an edit nobody can see as one line", () => {
    expect(
      renderWrite(
        { kind: "reaction", content: "rocket", author: "bot[bot]", target: "@maintainer's comment 5 on issue #1" },
        { width: 80, style: plain },
      ),
    ).toBe("  🚀 bot[bot] reacted rocket on @maintainer's comment 5 on issue #1\n");
    const edit = renderWrite(
      { kind: "comment", action: "edited", commentId: 9, thread: "PR #2", author: "bot[bot]", body: resultBody(), sameVisibleText: true },
      { width: 80, style: plain },
    );
    expect(edit).toBe("  ✏️  bot[bot] edited comment 9 on PR #2 (no change a reader sees)\n");
    const created = renderWrite(
      { kind: "comment", action: "created", commentId: 9, thread: "PR #2", author: "bot[bot]", body: resultBody() },
      { width: 80, style: plain },
    );
    expect(created.split("\n")[0]).toBe("  💬 bot[bot] created comment 9 on PR #2");
    expect(created.split("\n")[1]).toBe("     │ ✅ Agent run #7 succeeded");
  });
});
