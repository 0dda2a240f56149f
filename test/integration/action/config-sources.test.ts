/**
 * Repository settings stay where they belong (the Action, in process against the fake GitHub): the
 * Action reads its own file alone, and judges `_extends` by the App's rule; no reply, summary or log
 * line quotes a value of the file; someone who may not trigger runs hears nothing of a broken file.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { startActionHarness, type ActionHarness, type InProcessStep } from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
const SECRET = "codename-NIGHTJAR-42";

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const botComments = () => h.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === "github-actions[bot]");

/** Runs a step for `body` commented by `login`, keeping every line the step wrote to the job's log. */
async function commentStep(body: string, login = "maintainer"): Promise<{ step: InProcessStep; log: string }> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    lines.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  try {
    const step = await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE, body, login).payload, inputs: {} });
    return { step, log: lines.join("") };
  } finally {
    process.stdout.write = write;
  }
}

/** Everything the step let out: its GitHub request bodies, its summary and its log. */
const everythingOut = (step: InProcessStep, log: string) =>
  JSON.stringify([h.github.requests.map((request) => request.body), step.summary, step.result, log]);

describe("the Action judges _extends by the App's rule", () => {
  it("another repository of the owner: a config error naming the rule, and the step fails", async () => {
    h = await startActionHarness({ config: "_extends: octo-org/payroll\n" });
    const { step } = await commentStep("/agent fix the flaky test");
    expect(step.result.outcome.kind).toBe("error");
    const [reply] = botComments();
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    expect(reply!.body).toContain(
      "`_extends` in `.github/agent-run.yml`: names another repository; settings are read only from this repository and the owner's `.github` repository",
    );
    expect(reply!.body).not.toContain("payroll");
    expect(h.service.requests).toEqual([]);
  });

  it("the owner's .github: not read by the Action, which says so and goes on", async () => {
    h = await startActionHarness({ config: "_extends: .github\n" });
    const { step, log } = await commentStep("/agent fix the flaky test");
    expect(log).toContain("`_extends` is resolved by the App only; the Action reads this file alone.");
    expect(step.result.failure).toBeNull();
    expect(h.service.creates()).toHaveLength(1);
  });
});

describe("no reply, summary or log line quotes a value of the file", () => {
  it("an invalid value: named by key, rule and file", async () => {
    h = await startActionHarness({ config: `permissions:\n  minimum: ${SECRET}\n` });
    const { step, log } = await commentStep("/agent fix the flaky test");
    const [reply] = botComments();
    expect(reply!.body).toContain(
      "`permissions.minimum` in .github/agent-run.yml: must be one of: write, maintain, admin (got text of 20 characters)",
    );
    expect(everythingOut(step, log)).not.toContain(SECRET);
  });

  it("broken YAML: where and what kind of mistake, never the file's text", async () => {
    h = await startActionHarness({ config: `instructions: *${SECRET}\n` });
    const { step, log } = await commentStep("/agent fix the flaky test");
    const [reply] = botComments();
    expect(reply!.body).toContain("`.github/agent-run.yml`: not valid YAML (an alias that names no anchor)");
    expect(everythingOut(step, log)).not.toContain(SECRET);
  });
});

describe("a broken configuration is told only to someone who may trigger runs", () => {
  it("a reader's trigger: nothing posted, the step does not fail, one warning says why", async () => {
    h = await startActionHarness({ config: "follow_up: later\n" });
    const { step, log } = await commentStep("/agent fix the flaky test", "reader");
    expect(h.github.writes).toEqual([]);
    expect(step.result).toMatchObject({ failure: null, outcome: { kind: "ignored" } });
    const warnings = log.split("\n").filter((line) => line.startsWith("::warning::"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("Nothing was said in the thread: @reader has the read role");
  });
});
