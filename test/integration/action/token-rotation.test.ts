/**
 * The Action's markers across a rotation of the service's API token: the markers an earlier step
 * signed with the old token's key stay the bot's when the step is given `previous-api-token`, so
 * `/agent continue` resumes the thread's run instead of starting a fresh one; the old key never
 * signs, and a marker under any other key is still not believed. The Action in process against the
 * fake GitHub and an emulator that knows both tokens (one organization), as a service does while
 * a token is rotated.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createMarkerSigner } from "../../../src/action/marker-signer.js";
import { hasValidMarkerSignature } from "../../../src/core/markers/signature.js";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { AgentRunClient } from "../../../src/service/client.js";
import { ACTIONS_BOT, placeIn, signedByAction, startActionHarness, type ActionHarness } from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const OLD_TOKEN = "old-api-token-before-rotation";
const NEW_TOKEN = "new-api-token-after-rotation";
const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

/** Issue 1 with a finished run whose result comment an earlier step signed under `signingToken`. */
async function threadWithRunSignedBy(signingToken: string): Promise<number> {
  h = await startActionHarness({
    emulator: {
      tokens: [
        { token: NEW_TOKEN, orgIds: [1], userId: 1 },
        { token: OLD_TOKEN, orgIds: [1], userId: 1 },
      ],
    },
  });
  const client = new AgentRunClient({ baseUrl: h.emulator.url, token: OLD_TOKEN, orgId: 1 });
  const run = await client.createRun({ prompt: "first", metadata: { source_type: "GIT_HOST", repository: FULL_NAME, issue_number: 1 } });
  h.emulator.control.advanceTime(60_000);
  const marker = { ...newRunMarker({ place: placeIn(1), runId: run.id, orgId: 1, sourceType: "GIT_HOST" }), state: "done" as const };
  const body = signedByAction(`${renderMarker({ ...marker, outcome: "succeeded" })}\n### ✅ Agent run #${run.id} succeeded`, signingToken);
  h.github.seed({ issueComments: [{ issue_number: 1, user: ACTIONS_BOT, body }] });
  return run.id;
}

async function continueWith(inputs: Record<string, string>) {
  const trigger = h.humanComment(ISSUE, "/agent continue");
  return h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "api-token": NEW_TOKEN, ...inputs } });
}

describe("the Action's markers across an API token rotation", () => {
  it("with previous-api-token, a marker the old token signed still resumes its run; what the step writes is signed with the new key", async () => {
    const runId = await threadWithRunSignedBy(OLD_TOKEN);
    const step = await continueWith({ "previous-api-token": OLD_TOKEN });

    expect(step.result.failure).toBeNull();
    expect(step.outputs).toMatchObject({ resumed: "true", "run-id": String(runId) });
    expect(h.service.creates()).toEqual([]);
    expect(h.service.resumes()).toEqual([{ agent_run_id: runId, prompt: expect.stringContaining("continue") }]);
    const written = h.github.writes.flatMap((w) => (w.kind === "comment_created" || w.kind === "comment_updated" ? [w.comment.body] : []));
    expect(written.length).toBeGreaterThan(0);
    for (const body of written.filter((text) => text.includes("<!-- agent-run-bridge:"))) {
      expect(hasValidMarkerSignature(body, createMarkerSigner(NEW_TOKEN))).toBe(true);
      expect(hasValidMarkerSignature(body, createMarkerSigner(OLD_TOKEN))).toBe(false);
      expect(body).not.toContain(OLD_TOKEN);
    }
  });

  it("without it, the old token's marker is a stranger's: a fresh run, never a resume (as before this change)", async () => {
    await threadWithRunSignedBy(OLD_TOKEN);
    const step = await continueWith({});
    expect(step.outputs).toMatchObject({ resumed: "false" });
    expect(h.service.resumes()).toEqual([]);
    expect(h.service.creates()).toHaveLength(1);
  });

  it("a marker signed with any other key is still not believed, whatever previous-api-token says", async () => {
    await threadWithRunSignedBy("a-key-some-other-workflow-made-up");
    const step = await continueWith({ "previous-api-token": OLD_TOKEN });
    expect(step.outputs).toMatchObject({ resumed: "false" });
    expect(h.service.resumes()).toEqual([]);
  });

  it("the previous token is masked and redacted like the current one", async () => {
    await threadWithRunSignedBy(OLD_TOKEN);
    const step = await continueWith({ "previous-api-token": OLD_TOKEN, prompt: `say ${OLD_TOKEN}` });
    for (const write of h.github.writes) expect(JSON.stringify(write)).not.toContain(OLD_TOKEN);
    expect(step.summary).not.toContain(OLD_TOKEN);
  });
});
