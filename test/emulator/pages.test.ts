import { describe, expect, it } from "vitest";
import { createRun, emulator, finishAllRuns, resumeRun, runLogs } from "./helpers.js";

const HOSTILE = `Fix <script>alert("x")</script> & "quotes" 'too' <img src=x onerror=alert(1)>`;

describe("web_url pages", () => {
  it("serves the run page at web_url, every value escaped", async () => {
    const emu = await emulator();
    const run = (await createRun(emu, { prompt: HOSTILE, metadata: { note: "<b>bold</b>" } })).body;
    finishAllRuns(emu);
    const page = await fetch(run.web_url!);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>bold");
    expect(html).toContain("Fix &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;");
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
    // Status, summary, PRs and the trace table are there.
    expect(html).toContain(`Agent run #${run.id}`);
    expect(html).toContain(">completed<");
    expect(html).toContain(`agent/run-${run.id}`);
    expect(html).toContain(`${emu.url}/fake-git-host/pr/`);
    const logs = (await runLogs(emu, run.id)).body;
    expect(html).toContain(`Trace (${logs.total_logs} entries)`);
    expect(html.match(/<tr><td>\d+<\/td>/g)).toHaveLength(logs.total_logs!);
    for (const type of new Set(logs.logs.map((e) => e.message_type!))) expect(html).toContain(type);
    expect(html).not.toContain('http-equiv="refresh"');
  });

  it("refreshes itself while the run is in progress", async () => {
    const emu = await emulator();
    const run = (await createRun(emu, { prompt: "in progress" })).body;
    const html = await (await fetch(run.web_url!)).text();
    expect(html).toContain('<meta http-equiv="refresh" content="2">');
    expect(html).toContain("No log entries yet.");
  });

  it("shows follow-up prompts after a resume", async () => {
    const emu = await emulator();
    const run = (await createRun(emu, { prompt: "first ask" })).body;
    finishAllRuns(emu);
    await resumeRun(emu, run.id, "second <ask>");
    const html = await (await fetch(run.web_url!)).text();
    expect(html).toContain("Follow-up 1");
    expect(html).toContain("second &lt;ask&gt;");
  });

  it("lists runs at the root, newest first, escaped", async () => {
    const emu = await emulator();
    await createRun(emu, { prompt: "older run" });
    const hostile = (await createRun(emu, { prompt: HOSTILE })).body;
    const html = await (await fetch(`${emu.url}/`)).text();
    expect(html).not.toContain("<script>");
    expect(html.indexOf(`#${hostile.id}`)).toBeLessThan(html.indexOf("older run"));
    expect(html).toContain(`href="${hostile.web_url}"`);
    expect(html).toContain("Runs (2)");
  });

  it("serves the fake git host's pull request pages", async () => {
    const emu = await emulator();
    const run = (await createRun(emu, { prompt: "make a <PR>" })).body;
    finishAllRuns(emu);
    const pr = emu.control.runs()[0]!.git_host_pull_requests![0]!;
    const answer = await fetch(pr.url!);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain("make a &lt;PR&gt;");
    expect(html).toContain(`href="${run.web_url}"`);
  });

  it("answers 404 pages for unknown runs and pull requests", async () => {
    const emu = await emulator();
    for (const path of ["/runs/99", "/runs/abc", "/fake-git-host/pr/5"]) {
      const answer = await fetch(`${emu.url}${path}`);
      expect(answer.status).toBe(404);
      expect(await answer.text()).toContain("not found");
    }
  });
});
