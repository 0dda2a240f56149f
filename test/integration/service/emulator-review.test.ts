/**
 * The emulator scripts a review run's answer (#37): `POST /_emulator/script` with `review` makes the
 * run's result one `agent-run-review` block that the bridge's parser reads back; a review prompt
 * without a script gets a review with nothing to flag; a bad review script is refused, said plainly.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { parseReviewResult } from "../../../src/core/review/parse.js";
import { AgentRunClient, classifyRunStatus } from "../../../src/service/index.js";

const SCALE = 0.01;
let emulator: RunningEmulator;

beforeEach(async () => {
  emulator = await startEmulator({ timeScale: SCALE, tokens: [{ token: "token-org-1", orgIds: [1] }], defaultScript: { durationMs: 500 } });
});
afterEach(async () => {
  await emulator.close();
});

const client = () => new AgentRunClient({ baseUrl: emulator.url, token: "token-org-1", orgId: 1, timeScale: SCALE });

async function finishedResult(prompt: string): Promise<string | null | undefined> {
  const run = await client().createRun({ prompt });
  for (;;) {
    const now = await client().getRun(run.id);
    if (classifyRunStatus(now.status) !== "in_progress") return now.result;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const post = (path: string, body: unknown) =>
  fetch(`${emulator.url}/_emulator${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("a scripted review", () => {
  it("answers with one agent-run-review block the bridge reads", async () => {
    const review = { summary: "One finding.", comments: [{ path: "src/a.ts", line: 3, body: "Off by one.", suggestion: "i < n" }] };
    expect((await post("/script", { review, pullRequests: 0 })).status).toBe(200);
    const parsed = parseReviewResult(await finishedResult("Review this."));
    expect(parsed).toEqual({ kind: "review", review });
  });

  it("gives a review prompt without a script a review with nothing to flag", async () => {
    const parsed = parseReviewResult(await finishedResult("…end with one fenced block whose info string is agent-run-review…"));
    expect(parsed).toMatchObject({ kind: "review", review: { comments: [] } });
  });

  it("refuses a review script that does not match the format", async () => {
    const answer = await post("/script", { review: { summary: "s", comments: [{ path: "a", line: 0, body: "x" }] } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(await answer.json())).toContain("line must be 1 or more");
  });
});
