/**
 * What the App writes, over real HTTP: a signed `issue_comment` delivery, the emulator scripted to
 * answer with secrets and foreign images in its summary and result, the fake GitHub recording every
 * comment body and edit. Nothing secret reaches GitHub, each redaction says what it was, the marker
 * survives, images render only from GitHub's hosts, and a body that redaction grew still fits.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { GITHUB_COMMENT_MAX_LENGTH } from "../../../src/core/render/fit.js";
import { readGfm } from "../../unit/core-output/gfm.js";
import { WEBHOOK_SECRET, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test" };
const GITHUB_TOKEN = "ghs_16C7e42F292c6912E7710c838347Ae178B4a";
const FINE_GRAINED = `github_pat_11AAAAAAA0${"b".repeat(30)}_${"C".repeat(41)}`;
const AWS_KEY = "AKIAIOSFODNN7EXAMPLE";
const PEM =
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----";

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

/** Every body the App sent GitHub for a thread: each comment as created, each edit, and what stands now. */
function everyBodyWritten(h: AppHarness): string[] {
  const bodies: string[] = [];
  for (const write of h.github.writes) {
    if (write.kind === "comment_created") bodies.push(write.comment.body);
    if (write.kind === "comment_updated") bodies.push(write.previousBody, write.comment.body);
  }
  return bodies;
}

describe("the App's one door out", () => {
  it("redacts secrets from the result (and every edit before it), keeps the marker, and shows only GitHub-hosted images", async () => {
    harness = await startAppHarness({ env: { REDACT_PATTERNS: "INTERNAL-[0-9]{4}\n(?i)project falcon" } });
    const apiToken = harness.emulator.token;
    harness.emulator.control.script({
      summary: [
        `Used ${GITHUB_TOKEN} and ${FINE_GRAINED} to push.`,
        `Cloned https://deploy:hunter2-pw@git.example.com/o/r.git with ${AWS_KEY}.`,
        `The service token is ${apiToken}, the webhook secret ${WEBHOOK_SECRET}.`,
        "Ticket INTERNAL-4711 belongs to Project Falcon.",
        "![chart](https://elsewhere.example/p.png?d=stolen) ![shot](https://github.com/user-attachments/assets/abc-1)",
      ].join("\n\n"),
      result: `Here is the key:\n\n\`\`\`\n${PEM}\n\`\`\`\n\nAuthorization: Bearer abcdef.1234567890`,
    });
    const trigger = harness.humanComment(ISSUE, "/agent fix the flaky test");
    expect((await harness.deliver("issue_comment", trigger.payload)).status).toBe(200);
    await harness.idle();

    const [final] = harness.botComments(1);
    const body = final!.body;
    expect(parseMarker(body)).toMatchObject({ state: "done", outcome: "succeeded" });
    for (const label of [
      "[redacted GitHub token]",
      "https://[redacted credentials]@git.example.com",
      "[redacted AWS access key id]",
      "[redacted API token]",
      "[redacted webhook secret]",
      "[redacted private key]",
      "Bearer [redacted bearer token]",
      "Ticket [redacted by an operator pattern] belongs to [redacted by an operator pattern].",
    ]) {
      expect(body).toContain(label);
    }
    for (const written of everyBodyWritten(harness)) {
      for (const secret of [
        GITHUB_TOKEN,
        FINE_GRAINED,
        "hunter2-pw",
        AWS_KEY,
        apiToken,
        WEBHOOK_SECRET,
        "b3BlbnNzaC1rZXkt",
        "INTERNAL-4711",
      ]) {
        expect(written).not.toContain(secret);
      }
    }
    const reading = readGfm(body);
    expect(reading.imageSources).toEqual(["https://github.com/user-attachments/assets/abc-1"]);
    expect(reading.hrefs).toContain("https://elsewhere.example/p.png?d=stolen");
  });

  it("fits a result that redaction made longer into GitHub's limit, with its marker", async () => {
    harness = await startAppHarness();
    // 3,200 AWS key ids: each label is 8 characters longer than the key it replaces (+25,600 in all).
    const keys = Array.from({ length: 3_200 }, (_, i) => `AKIA${String(i).padStart(16, "0")}`).join(" ");
    harness.emulator.control.script({ summary: keys, result: keys.split(" ").reverse().join(" ") });
    const trigger = harness.humanComment(ISSUE, "/agent list the keys");
    expect((await harness.deliver("issue_comment", trigger.payload)).status).toBe(200);
    await harness.idle();

    const body = harness.botComments(1)[0]!.body;
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_MAX_LENGTH);
    expect(body.length).toBeGreaterThan(GITHUB_COMMENT_MAX_LENGTH - 2_000);
    expect(parseMarker(body)).toMatchObject({ state: "done", outcome: "succeeded" });
    expect(body).toContain("[redacted AWS access key id]");
    expect(body).not.toMatch(/AKIA[0-9]{16}/);
    // Cut by the renderer (its note says so), not at the door: the footer is still there.
    expect(body).toContain("cut to fit in a comment");
    expect(body).toMatch(/to continue this run\.<\/sub>$/);
  });
});
