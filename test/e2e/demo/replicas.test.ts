/**
 * `npm run demo -- --replicas 3` as a newcomer runs it: the same four steps on three `agent-run app`
 * processes over a Redis the demo starts and stops, deliveries spread round robin, and a recap that
 * says which replica did what. Without redis-server on the PATH it says how to get one and exits 2.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function runDemoProcess(
  args: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string | undefined> = { ...env, NO_COLOR: "1" };
    delete childEnv.FORCE_COLOR;
    const child = spawn(process.execPath, ["--import", "tsx", "demo/run.ts", ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const killer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Whether something accepts connections on the port now. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("npm run demo -- --replicas 3", () => {
  it("plays the five steps on three App processes over its own Redis, round robin, says who did what, and stops everything", async () => {
    const { code, stdout, stderr } = await runDemoProcess(["--replicas", "3"]);
    expect(stderr).not.toContain("Demo failed");
    expect(code).toBe(0);

    const header =
      /3 App replicas \(agent-run app, pids (\d+), (\d+), (\d+)\) on Redis redis:\/\/127\.0\.0\.1:(\d+) \(started for the demo\), behind a round-robin load balancer/.exec(
        stdout,
      );
    expect(header).not.toBeNull();
    const pids = header!.slice(1, 4).map(Number);
    expect(new Set(pids).size).toBe(3);
    const redisPort = Number(header![4]);

    // The same story as the embedded demo: one run, created once and resumed by each later step.
    const positions = ["Step 1/5", "Step 2/5", "Step 3/5", "Step 4/5", "Step 5/5", "━━ Recap"].map((h) => stdout.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const runId = /run #(\d+) created; its result names the pull request on `agent\/csv-last-row`/.exec(stdout)?.[1];
    expect(runId).toBeDefined();
    // Step 1 in the order it happened: the bot's first writes (made while the replicas started, on the redelivered
    // comment), the course correction while the run works, the tracking comment quoting it, the result.
    const step1 = stdout.slice(stdout.indexOf("Step 1/5"), stdout.indexOf("Step 2/5"));
    const order = [
      "⤷ The App lists its webhook deliveries",
      "👀 agent-run-bridge[bot] reacted eyes on @maintainer's comment",
      "💬 agent-run-bridge[bot] created comment",
      "▶ @maintainer comments on issue #1 while the run works",
      "💬 Your follow-up reached the working agent:",
      `✅ Agent run #${runId} succeeded`,
      `✔ the follow-up reached run #${runId} while it worked`,
    ].map((text) => step1.indexOf(text));
    expect(order.every((p) => p >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(stdout).toContain(`run #${runId} resumed (second resume), no new run`);
    expect(stdout).toContain(`run #${runId} resumed with the review (GIT_HOST_PR_REVIEW)`);
    expect(stdout).toContain(`run #${runId} resumed to fix CI (GIT_HOST_CHECK_SUITE, attempt 1 of 2)`);
    expect(stdout.match(new RegExp(`✅ Agent run #${runId} succeeded`, "g"))).toHaveLength(5);

    // Step 1's comment reached the balancer before any replica listened (502); its redelivery went to whichever
    // replica listened first in the rotation, then round robin: the five later deliveries (the course correction
    // and steps 2 to 5) went to the three replicas, the first two of them twice.
    expect(stdout).toContain("signed issue_comment webhook → the load balancer → no replica yet → HTTP 502");
    const routes = [...stdout.matchAll(/webhook → the load balancer → (replica \d) → HTTP (\d+)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(routes).toHaveLength(5);
    expect(routes[3]).toBe(routes[0]);
    expect(new Set(routes)).toEqual(new Set(["replica 1 200", "replica 2 200", "replica 3 200"]));
    // Under each step's check: which replica took the delivery, sent the run to the service, posted the result. Step 1 has
    // two deliveries (the redelivered comment and the course correction) and two sends (the create and the interrupt).
    // A longer line wraps: any space may be a line break followed by the same indentation.
    const replicasDid = (what: string) => `replica \\d(?: \\(×2\\))?(?: and replica \\d)? ${what}`;
    const handledBy = (took: string, sent: string) =>
      new RegExp(`^ {4}${`${replicasDid(took)} · ${replicasDid(sent)} · replica \\d posted the result$`.replace(/ /g, "\\s+")}`, "gm");
    expect(stdout.match(handledBy("took the deliveries", "sent them to the service"))).toHaveLength(1);
    expect(stdout.match(handledBy("took the delivery", "sent it to the service"))).toHaveLength(4);

    // The recap: the emulator's counts as in the embedded demo, and one line per replica from its own logs.
    expect(stdout).toMatch(/Runs created {6}1\n/);
    expect(stdout).toMatch(new RegExp(`Runs resumed {6}5  run #${runId} ×5\\n`));
    expect(stdout).toMatch(/429s {14}0\n/);
    expect(stdout).toMatch(/GitHub writes {5}\d+ {2}5 comments · \d+ edits · 8 reactions\n/);
    expect(stdout).toMatch(/Replicas {10}3 {2}agent-run app processes on one Redis, behind a round-robin load balancer\n/);
    const lines = [
      ...stdout.matchAll(
        /^ {4}(replica \d) +received (\d+) webhooks? · took (\d+) deliver(?:y|ies) · sent (\d+) runs? · posted (\d+) results?$/gm,
      ),
    ];
    expect(lines.map((m) => m[1])).toEqual(["replica 1", "replica 2", "replica 3"]);
    const total = (column: number) => lines.reduce((sum, m) => sum + Number(m[column]), 0);
    expect(lines.map((m) => Number(m[2])).sort()).toEqual([2, 2, 2]);
    // Six deliveries taken and six sends (a create, the interrupt, four resumes); one result per run phase.
    expect([total(3), total(4), total(5)]).toEqual([6, 6, 5]);

    // Everything the demo started is gone: its Redis and the replicas.
    expect(await listening(redisPort)).toBe(false);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();

    // No secret in any shape the demo makes one (see demo.test.ts).
    const printed = stdout + stderr;
    expect(printed).not.toContain("-----BEGIN");
    expect(printed).not.toMatch(/\b[0-9a-f]{64}\b/);
    expect(printed).not.toContain("sha256=");
    expect(printed).not.toMatch(/demo-[A-Za-z0-9_-]{32}/);
    expect(printed).not.toMatch(/\bghs_|\beyJ[\w-]+\.|Bearer /);
    // Three App processes, Redis and the demo's servers: up to the child's own 90 s limit on a busy machine.
  }, 90_000);

  it("without redis-server on the PATH, says how to get one and exits 2 before starting anything", async () => {
    // A PATH that has node and nothing else.
    const bin = mkdtempSync(join(tmpdir(), "arb-demo-path-"));
    try {
      symlinkSync(process.execPath, join(bin, "node"));
      const { code, stdout, stderr } = await runDemoProcess(["--replicas", "3"], { HOME: process.env.HOME, PATH: bin });
      expect(code).toBe(2);
      expect(stderr).toContain("--replicas needs redis-server on the PATH");
      expect(stderr).toContain("apt-get install redis-server");
      expect(stderr).toContain("run `npm run demo` without --replicas");
      expect(stdout).toBe("");
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("rejects a replica count it cannot play with a usage line and exit 2", async () => {
    const { code, stderr } = await runDemoProcess(["--replicas", "many"]);
    expect(code).toBe(2);
    expect(stderr).toContain('--replicas must be a whole number from 1 to 5 (1 = the single embedded App), got "many"');
    expect(stderr).toContain("usage: npm run demo [-- --replicas <1-5>]");
  });
});
