/**
 * `npm run demo` as a newcomer runs it: a child process, no colours, nothing but loopback. The
 * demo checks its own steps; this test checks what it printed and that it printed no secret.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DemoStepError, runDemo } from "../../../demo/run.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function runDemoProcess(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, ["--import", "tsx", "demo/run.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm run demo", () => {
  it("plays the five steps on one run, prints the bot's writes and a recap with zero 429s, and exits 0", async () => {
    const { code, stdout, stderr } = await runDemoProcess();
    expect(stderr).not.toContain("Demo failed");
    expect(code).toBe(0);

    for (const header of [
      "Step 1/5 · A maintainer asks the bot on an issue, then corrects its course",
      "Step 2/5 · A follow-up on the issue resumes the same run",
      "Step 3/5 · Changes requested on the agent's pull request",
      "Step 4/5 · CI fails on the agent's pull request",
      "Step 5/5 · A review of the agent's pull request, with inline comments",
      "━━ Recap",
    ]) {
      expect(stdout).toContain(header);
    }
    // The headers come in order, each after the previous one.
    const positions = ["Step 1/5", "Step 2/5", "Step 3/5", "Step 4/5", "Step 5/5", "━━ Recap"].map((h) => stdout.indexOf(h));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    // Step 1's comment is sent while the App is down; the App has GitHub redeliver it once it starts.
    expect(stdout).toContain("▶ @maintainer comments on issue #1 while the App is down");
    expect(stdout).toContain("signed issue_comment webhook → the App's endpoint → no answer (nothing listens there)");
    expect(stdout.indexOf("no answer (nothing listens there)")).toBeLessThan(stdout.indexOf("App started: http://127.0.0.1:"));
    expect(stdout).toMatch(/✔ the missed comment came back: GitHub redelivered it when the App asked \(same delivery id,\s+answered 200\)/);

    // One run, created in step 1 and resumed by each later step: the same id throughout.
    const runId = /run #(\d+) created; its result names the pull request on `agent\/csv-last-row`/.exec(stdout)?.[1];
    expect(runId).toBeDefined();

    // While that run works, a course correction reaches its agent (follow_up: interrupt): the tracking comment quotes it
    // while the run is still working, the run's log holds it as a USER_MESSAGE, and the run's one result follows.
    const step1 = stdout.slice(stdout.indexOf("Step 1/5"), stdout.indexOf("Step 2/5"));
    expect(step1).toContain("▶ @maintainer comments on issue #1 while the run works");
    expect(step1).toContain("“/agent keep the fix small: no new dependencies”");
    const reached = step1.indexOf("💬 Your follow-up reached the working agent:\n     │ > keep the fix small: no new dependencies");
    expect(reached).toBeGreaterThan(step1.indexOf("while the run works"));
    expect(reached).toBeLessThan(step1.indexOf(`✅ Agent run #${runId} succeeded`));
    expect(step1).toMatch(
      new RegExp(
        `✔ the follow-up reached run #${runId} while it worked: its tracking comment quoted it, and the run's\\s+log shows it as a USER_MESSAGE after [3-9] steps of work`,
      ),
    );
    expect(step1.match(/🚀 agent-run-bridge\[bot\] reacted rocket on @maintainer's comment/g)).toHaveLength(2);
    expect(step1.match(/💬 agent-run-bridge\[bot\] created comment/g)).toHaveLength(1);

    expect(stdout).toContain(`run #${runId} resumed (second resume), no new run`);
    expect(stdout).toContain(`run #${runId} resumed with the review (GIT_HOST_PR_REVIEW)`);
    expect(stdout).toContain(`run #${runId} resumed to fix CI (GIT_HOST_CHECK_SUITE, attempt 1 of 2)`);
    expect(stdout).toMatch(
      new RegExp(`✔ run #${runId} reviewed PR #2: one COMMENT review \\(\\d+\\) with a suggestion inline on\\s+\`src/export.ts:15\``),
    );
    expect(stdout).toMatch(/\[Review posted\]\(https:\/\/github\.com\/octo-org\/widgets\/pull\/2#pullrequestreview-\d+\): 1 inline/);
    expect(stdout.match(new RegExp(`✅ Agent run #${runId} succeeded`, "g"))).toHaveLength(5);
    expect(stdout).toMatch(/opens pull request #2 “Keep the last CSV row/);

    // The bot's writes, rendered: reactions as emoji, comments on the issue and on the PR, markers hidden, traces folded.
    expect(stdout).toContain("👀 agent-run-bridge[bot] reacted eyes on @maintainer's comment");
    expect(stdout).toContain("🚀 agent-run-bridge[bot] reacted rocket on @maintainer's comment");
    expect(stdout).toMatch(/💬 agent-run-bridge\[bot\] created comment \d+ on issue #1/);
    expect(stdout).toMatch(/💬 agent-run-bridge\[bot\] created comment \d+ on PR #2/);
    expect(stdout).toMatch(/▸ Trace: \d+ log entries \(\d+ lines? folded\)/);
    expect(stdout).not.toContain("<!--");
    expect(stdout).not.toContain("<details>");

    // The recap, from the emulator's own counts.
    expect(stdout).toMatch(/Runs created {6}1\n/);
    expect(stdout).toMatch(new RegExp(`Runs resumed {6}5  run #${runId} ×5\\n`));
    // Which reads watch a run depends on timing: a sweep of the runs list may see every state change, leaving
    // no run read on its own (getRun), or a run's own read may come first.
    expect(stdout).toMatch(
      /Service requests {2}\d+ {2}createRun 1 · (?:getRun \d+ · )?listRepositories 1 · (?:listRuns \d+ · )?resumeRun 5 · runLogs \d+\n/,
    );
    expect(stdout).toMatch(/429s {14}0\n/);
    expect(stdout).toMatch(/GitHub writes {5}\d+ {2}5 comments · \d+ edits · 8 reactions\n/);
    expect(stdout).toMatch(/Elapsed {11}\d+\.\d s/);

    // NO_COLOR: no escape sequences at all.
    expect(stdout.includes("\u001b[")).toBe(false);

    // No secret in any shape the demo makes one: the PEM private key (armour or its 64-column
    // base64 lines), the 64-hex webhook secret or a signature, the service token, GitHub tokens.
    const printed = stdout + stderr;
    expect(printed).not.toContain("-----BEGIN");
    expect(printed).not.toContain("PRIVATE KEY");
    expect(printed).not.toMatch(/^[A-Za-z0-9+/]{64}$/m);
    expect(printed).not.toMatch(/\b[0-9a-f]{64}\b/);
    expect(printed).not.toContain("sha256=");
    expect(printed).not.toMatch(/demo-[A-Za-z0-9_-]{32}/);
    expect(printed).not.toMatch(/\bghs_|\beyJ[\w-]+\.|Bearer /);
  });

  it("fails with a message naming the step and the missing effects when a step's wait runs out", async () => {
    let printed = "";
    const attempt = runDemo({ out: { write: (chunk: string) => (printed += chunk) }, color: false, stepTimeoutMs: 1 });
    const error = await attempt.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DemoStepError);
    expect((error as DemoStepError).message).toMatch(
      // Step 1 waits for its run to be at work before the maintainer corrects its course: that wait runs out first.
      /^Step 1 \(a \/agent comment on the issue\): expected effects did not happen within 1 ms \(the App was still working\): the first run at work \(its agent has logged 3 steps\) and named in its tracking comment \(seen: /,
    );
    expect(printed).toContain("Step 1/5 · A maintainer asks the bot on an issue");
    expect(printed).not.toContain("while the run works");
    expect(printed).not.toContain("Step 2/5");
  });
});
