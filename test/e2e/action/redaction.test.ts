/**
 * What the Action writes, from the bundled `dist/index.js` on Node 24 as a runner starts it: the
 * emulator answers with secrets and foreign images in its summary and result, the fake GitHub
 * records every comment and edit. The comments, the job summary, the `summary`/`result` outputs and
 * the log redact them and say what each was; images render only from GitHub's hosts.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { readGfm } from "../../unit/core-output/gfm.js";
import { startFakeGitHub, type FakeGitHub, type FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import {
  ACTIONS_BOT,
  SCALE,
  TEST_POLL_INTERVAL,
  actionSeed,
  createRunnerFiles,
  ensureNode24,
  readOutputs,
  readSummary,
  runBundledAction,
  stepEnv,
} from "../../helpers/action-runner.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";

const GITHUB_TOKEN_IN_TEXT = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
const AWS_KEY = "AKIAIOSFODNN7EXAMPLE";
const PEM =
  "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5xQHkdhkDjKBcoAoGCCqGSM49\n-----END EC PRIVATE KEY-----";

let node24: string;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

beforeAll(async () => {
  node24 = await ensureNode24();
}, 180_000);

async function world(seed: FakeGitHubSeed): Promise<{ github: FakeGitHub; emulator: RunningEmulator }> {
  const [github, emulator] = await Promise.all([startFakeGitHub({ seed }), startEmulator({ timeScale: SCALE })]);
  closers.push(
    () => github.close(),
    () => emulator.close(),
  );
  return { github, emulator };
}

async function runStep(github: FakeGitHub, emulator: RunningEmulator, commentBody: string, inputs: Record<string, string> = {}) {
  github.seed({ issueComments: [{ id: 9101, issue_number: 1, body: commentBody, user: "maintainer" }] });
  const payload = issueCommentPayload({
    thread: { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." },
    comment: { id: 9101, body: commentBody, login: "maintainer" },
  });
  const files = createRunnerFiles();
  const env = stepEnv({
    eventName: "issue_comment",
    payload,
    inputs: { "api-url": emulator.url, "api-token": emulator.token, "org-id": String(emulator.orgId), ...inputs },
    githubApiUrl: github.url,
    files,
    extra: { AGENT_RUN_POLL_INTERVAL: TEST_POLL_INTERVAL },
  });
  const child = await runBundledAction(node24, env);
  return { child, outputs: readOutputs(files), summary: readSummary(files) };
}

/** Every body the step sent GitHub: each comment as created, each edit, and what stands now. */
function everyBodyWritten(github: FakeGitHub): string[] {
  const bodies: string[] = [];
  for (const write of github.writes) {
    if (write.kind === "comment_created") bodies.push(write.comment.body);
    if (write.kind === "comment_updated") bodies.push(write.previousBody, write.comment.body);
  }
  return bodies;
}

describe("the Action's one door out (dist/index.js on Node 24)", () => {
  it("redacts the comments, the job summary and the summary/result outputs, and renders images only from GitHub", async () => {
    const { github, emulator } = await world(actionSeed());
    emulator.control.script({
      summary: [
        `Pushed with ${GITHUB_TOKEN_IN_TEXT} and ${AWS_KEY}; the service token is ${emulator.token}.`,
        "Mirror at https://ci:hunter2-pw@git.example.com/o/r.git, ticket INTERNAL-4711.",
        "![chart](https://elsewhere.example/p.png?d=stolen) ![shot](https://github.com/user-attachments/assets/abc-1)",
      ].join("\n\n"),
      result: `The key:\n\n${PEM}`,
    });
    const { child, outputs, summary } = await runStep(github, emulator, "/agent fix the flaky date test", {
      "redact-patterns": "INTERNAL-[0-9]{4}",
    });
    expect(child.stderr).toBe("");
    expect(child.exitCode).toBe(0);

    const comments = github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === ACTIONS_BOT);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(parseMarker(body)).toMatchObject({ state: "done", outcome: "succeeded" });
    const texts = { comment: body, jobSummary: summary, summaryOutput: outputs.summary!, resultOutput: outputs.result! };
    for (const [where, text] of Object.entries(texts)) {
      for (const secret of [GITHUB_TOKEN_IN_TEXT, AWS_KEY, emulator.token, "hunter2-pw", "MHcCAQEEIBkg", "INTERNAL-4711"]) {
        expect(text, where).not.toContain(secret);
      }
    }
    for (const text of [body, summary, outputs.summary!]) {
      expect(text).toContain("[redacted GitHub token] and [redacted AWS access key id]; the service token is [redacted API token].");
      expect(text).toContain("https://[redacted credentials]@git.example.com/o/r.git, ticket [redacted by an operator pattern].");
    }
    expect(body).toContain("[redacted private key]");
    expect(outputs.result).toBe("The key:\n\n[redacted private key]");
    for (const written of everyBodyWritten(github)) expect(written).not.toContain(GITHUB_TOKEN_IN_TEXT);
    for (const markdown of [body, summary]) {
      const reading = readGfm(markdown);
      expect(reading.imageSources).toEqual(["https://github.com/user-attachments/assets/abc-1"]);
      expect(reading.hrefs).toContain("https://elsewhere.example/p.png?d=stolen");
    }
    expect(child.stdout).not.toContain(GITHUB_TOKEN_IN_TEXT);
  });

  it("redacts the log too: a token echoed by a configuration error (as an unknown key: values are never quoted) is not in the failure, the reply or the job summary", async () => {
    const seed = actionSeed();
    seed.files = [{ path: ".github/agent-run.yml", content: `check_suite:\n  ${GITHUB_TOKEN_IN_TEXT}: 3\n` }];
    const { github, emulator } = await world(seed);
    const { child, summary } = await runStep(github, emulator, "/agent fix it");
    expect(child.exitCode).toBe(1);
    expect(child.stdout).toContain(
      "::error::The agent configuration is invalid, so nothing was started: `check_suite.[redacted GitHub token]` in .github/agent-run.yml: unknown key",
    );
    const reply = github.commentsOn(FULL_NAME, 1).find((c) => c.user.login === ACTIONS_BOT)!.body;
    for (const text of [child.stdout, reply, summary]) {
      expect(text).toContain("[redacted GitHub token]");
      expect(text).not.toContain(GITHUB_TOKEN_IN_TEXT);
    }
  });

  it("refuses a redaction pattern that is not a regular expression, naming its line and not quoting it", async () => {
    const { github, emulator } = await world(actionSeed());
    const { child } = await runStep(github, emulator, "/agent fix it", { "redact-patterns": "ok-[0-9]+\n(hunter2" });
    expect(child.exitCode).toBe(1);
    expect(child.stdout).toContain(
      "::error::Invalid input: `redact-patterns` line 2 is not a valid regular expression (Unterminated group).",
    );
    expect(child.stdout).not.toContain("hunter2");
    expect(emulator.control.runs()).toHaveLength(0);
  });
});
