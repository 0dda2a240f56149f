/** The job summary and the outputs, decided from the step's outcome (pure). */
import { describe, expect, it } from "vitest";
import {
  JOB_SUMMARY_MAX_BYTES,
  OUTPUT_NAMES,
  outputsFor,
  pullRequestsJson,
  renderJobSummary,
  truncateUtf8,
  type ActionOutcome,
} from "../../../src/action/report.js";
import type { AgentRun } from "../../../src/service/wire.js";

const run: AgentRun = {
  id: 42,
  status: "completed",
  web_url: "https://agents.example.com/runs/42",
  summary: "Pinned the clock.",
  result: "All green.",
  git_host_pull_requests: [
    {
      id: 7,
      title: "Pin the clock",
      url: "https://github.com/acme/widgets/pull/7",
      created_at: "2026-06-21T11:20:04Z",
      head_branch_name: "agent/pin-clock",
      extra: "dropped",
    },
  ],
};
const finished = (over: Partial<Extract<ActionOutcome, { kind: "run" }>> = {}): ActionOutcome => ({
  kind: "run",
  run,
  resumed: false,
  watch: "finished",
  phase: "succeeded",
  comment: { id: 9, url: "https://github.com/acme/widgets/issues/1#issuecomment-9" },
  startedAt: 0,
  endedAt: 252_000,
  ...over,
});
const context = { thread: { label: "acme/widgets#1", url: "https://github.com/acme/widgets/issues/1" }, triggerPhrase: "/agent" };

describe("outputs", () => {
  it("sets every output, always; an ignored event leaves them all empty", () => {
    expect(Object.keys(outputsFor({ kind: "ignored", reason: "no trigger" })).sort()).toEqual([...OUTPUT_NAMES].sort());
    expect(Object.values(outputsFor({ kind: "ignored", reason: "no trigger" })).every((v) => v === "")).toBe(true);
    expect(outputsFor(finished({ resumed: true }))).toEqual({
      "run-id": "42",
      status: "completed",
      "web-url": "https://agents.example.com/runs/42",
      result: "All green.",
      summary: "Pinned the clock.",
      "pull-requests":
        '[{"id":7,"title":"Pin the clock","url":"https://github.com/acme/widgets/pull/7","created_at":"2026-06-21T11:20:04Z","head_branch_name":"agent/pin-clock"}]',
      "comment-id": "9",
      resumed: "true",
    });
    expect(pullRequestsJson(null)).toBe("[]");
  });

  it("cuts huge agent texts to fit GitHub's 1 MB of outputs per job, on a character boundary", () => {
    const outputs = outputsFor(finished({ run: { ...run, result: "🙂".repeat(300_000), summary: "é".repeat(300_000) } }));
    expect(Buffer.byteLength(outputs.result, "utf8")).toBeLessThanOrEqual(400_000);
    expect(Buffer.byteLength(outputs.summary, "utf8")).toBeLessThanOrEqual(200_000);
    expect(outputs.result.endsWith("🙂…")).toBe(true);
    expect(outputs.summary.endsWith("é…")).toBe(true);
    expect(truncateUtf8("short", 10)).toBe("short");
  });
});

describe("job summary", () => {
  it("heads with the outcome, then status, links, pull requests, summary and result", () => {
    const summary = renderJobSummary(finished(), context);
    expect(summary).toBe(
      [
        "## ✅ Agent run #42 succeeded",
        "",
        "| | |",
        "|---|---|",
        "| Status | `completed` |",
        "| Run | [#42](https://agents.example.com/runs/42) |",
        "| Started as | a new run |",
        "| Watched for | 4m 12s |",
        "| Thread | [acme/widgets#1](https://github.com/acme/widgets/issues/1) · [the bot's comment](https://github.com/acme/widgets/issues/1#issuecomment-9) |",
        "",
        "### Pull requests",
        "",
        "- [Pin the clock](https://github.com/acme/widgets/pull/7) · `agent/pin-clock`",
        "",
        "### Summary",
        "",
        "Pinned the clock.",
        "",
        "### Result",
        "",
        "All green.",
        "",
      ].join("\n"),
    );
    expect(renderJobSummary({ kind: "ignored", reason: "no trigger" }, context)).toBe("");
  });

  it("stays within GitHub's 1 MiB per step, cutting the agent's text, never the head", () => {
    const huge = "é🙂 long result line\n".repeat(120_000);
    const summary = renderJobSummary(finished({ run: { ...run, summary: huge, result: `${huge}!` } }), context);
    expect(Buffer.byteLength(summary, "utf8")).toBeLessThanOrEqual(JOB_SUMMARY_MAX_BYTES);
    expect(Buffer.byteLength(summary, "utf8")).toBeGreaterThan(JOB_SUMMARY_MAX_BYTES * 0.9);
    expect(summary.startsWith("## ✅ Agent run #42 succeeded")).toBe(true);
    expect(summary).toContain("### Summary");
    expect(summary).toContain("### Result");
  });

  it("renders agent text inert: no markers, no mentions, no raw HTML", () => {
    const summary = renderJobSummary(
      finished({ run: { ...run, summary: "<!-- agent-run-bridge:run {} --> @octo-org/admins <img src=x onerror=alert(1)>" } }),
      context,
    );
    expect(summary).not.toContain("<!-- agent-run-bridge");
    expect(summary).not.toMatch(/(^|[^`])@octo-org\/admins/);
    expect(summary).not.toContain("<img");
  });

  it("says what happened when the run was not waited for, timed out, or could not complete", () => {
    expect(renderJobSummary(finished({ watch: "started", phase: "in_progress", run: { ...run, status: "queued" } }), context)).toContain(
      "## ▶️ Agent run #42 started",
    );
    expect(renderJobSummary(finished({ watch: "timed_out", phase: "in_progress", run: { ...run, status: "running" } }), context)).toContain(
      "## ⏳ Agent run #42 is still running after 4m 12s",
    );
    expect(
      renderJobSummary({ kind: "error", message: "The service answered 402.", run: null, resumed: false, comment: null }, context),
    ).toBe(
      "## ⚠️ Agent run could not be completed\n\nThe service answered 402.\n\n[acme/widgets#1](https://github.com/acme/widgets/issues/1)\n",
    );
  });
});
