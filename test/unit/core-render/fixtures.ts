/** Fixtures shared by the renderer tests: a run, its log, its marker, and the checks every bot body must pass. */
import { expect } from "vitest";
import { newRunMarker } from "../../../src/core/markers/write.js";
import type { RunMarker } from "../../../src/core/markers/schema.js";
import { GITHUB_COMMENT_MAX_LENGTH } from "../../../src/core/render/fit.js";
import { parseTriggerComment } from "../../../src/core/trigger.js";
import { LogEntrySchema, SOURCE, TOOL_NAMES, type AgentRun, type LogEntry } from "../../../src/service/wire.js";
import { mentionsIn, readGfm } from "../core-output/gfm.js";

export const TRIGGER = { phrase: "/agent", appSlug: "my-app", mention: true };
export const RUN_URL = "https://agents.example.com/runs/123";
export const marker: RunMarker = newRunMarker({
  place: { repository: "octo-org/widgets", thread: 1 },
  runId: 123,
  orgId: 1,
  sourceType: SOURCE.gitHost,
  requestId: "delivery-1",
});

export const entries: LogEntry[] = [
  {
    message_type: "ACTION",
    tool_name: TOOL_NAMES.search,
    tool_input: { pattern: "retryDelay", path: "src/" },
    tool_output: { matches: 3 },
  },
  { message_type: "PLAN_EVALUATION", thought: "The plan holds." },
  { message_type: "ACTION", tool_name: TOOL_NAMES.write, tool_input: { path: "src/retry.ts", content: "…" }, tool_output: {} },
  { message_type: "INITIAL_PR_GENERATION", observation: { pull_request: { id: 7 } } },
  { message_type: "FINAL_ANSWER", observation: "Made retryDelay configurable." },
].map((fields) => LogEntrySchema.parse(fields));

export const succeeded: AgentRun = {
  id: 123,
  organization_id: 1,
  status: "COMPLETE",
  web_url: RUN_URL,
  summary: "Made `retryDelay` configurable and documented it. Thanks @octocat!",
  result: "Two pull requests:\n\n```ts\nconst delay: Promise<number> = retry(fn);\n```",
  git_host_pull_requests: [
    {
      id: 7,
      title: "Make retryDelay configurable",
      url: "https://github.com/acme/widgets/pull/7",
      created_at: "2025-06-21T11:30:00Z",
      head_branch_name: "agent/run-123-retry",
    },
    {
      id: 8,
      title: "Docs: explain <retryDelay>",
      url: "https://github.com/acme/widgets/pull/8",
      created_at: "2025-06-21T11:31:00Z",
      head_branch_name: "agent/run-123-docs",
    },
  ],
};

/** Checks every bot body must pass: size, one trusted marker, balanced details, nothing that acts. */
export function expectWellFormed(body: string, maxLength = GITHUB_COMMENT_MAX_LENGTH): void {
  expect(body.length).toBeLessThanOrEqual(maxLength);
  const reading = readGfm(body);
  expect(reading.comments).toHaveLength(1);
  expect(reading.html.filter((tag) => tag === "<details>").length).toBe(reading.html.filter((tag) => tag === "</details>").length);
  expect(reading.html.filter((tag) => !/^(<\/?(details|sub|code)>|<summary>[^<]*<\/summary>)$/.test(tag))).toEqual([]);
  expect(mentionsIn(reading)).toEqual([]);
  expect([...reading.hrefs, ...reading.imageSources].filter((href) => !/^https?:\/\//.test(href))).toEqual([]);
  expect(parseTriggerComment(body, TRIGGER)).toBeNull();
}
