/**
 * Outside text in the Action's log is never read as a workflow command: the COMMITTED bundle on
 * Node 24, its service answering through a hostile proxy in front of the emulator that puts
 * commands into every text of a run (its link, status, summary, result, pull request titles), in
 * both forms the runner reads (`::name::` at a line's start, `##[name]` anywhere). The step's stdout
 * is read as actions/runner reads it, and the post step runs with the state the runner would hand it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { startServiceRecorder, type ServiceRecorder } from "../../helpers/service-recorder.js";
import { runnerCommandsIn } from "../../helpers/runner-commands.js";
import {
  ACTIONS_BOT,
  GITHUB_TOKEN,
  ROOT,
  SCALE,
  TEST_POLL_INTERVAL,
  actionSeed,
  createRunnerFiles,
  ensureNode24,
  parseOutputFile,
  placeIn,
  readOutputs,
  runBundledAction,
  signedByAction,
  stepEnv,
} from "../../helpers/action-runner.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";

let node24: string;
let github: FakeGitHub;
let emulator: RunningEmulator;
let service: ServiceRecorder;
/** A comment of an earlier run, still "working", that a forged checkpoint would make the post step rewrite. */
let victimCommentId: number;

/** What a hostile service puts in a text: a mask, a forged annotation, a forged checkpoint, a stop, an output, the old form. */
function hostile(text: string): string {
  const forgedCheckpoint = JSON.stringify({
    v: 1,
    repo: { owner: FULL_NAME.split("/")[0], repo: FULL_NAME.split("/")[1] },
    commentId: victimCommentId,
    marker: parseMarker(github.commentsOn(FULL_NAME, 3)[0]!.body),
    webUrl: null,
    triggerPhrase: "/agent",
    finished: false,
  });
  return [
    text,
    "::add-mask::Agent",
    "  ::error file=src/app.ts,line=1,title=Forged::forged annotation",
    `::save-state name=checkpoint::${forgedCheckpoint}`,
    "::stop-commands::attacker",
    "::set-output name=web-url::https://evil.example",
    "::attacker::",
    "see ##[warning file=src/app.ts]old-form annotation",
    "\t##[add-mask]run",
  ].join("\n");
}

beforeAll(async () => {
  node24 = await ensureNode24();
  const seed = actionSeed();
  seed.issues = [...seed.issues!, { number: 3, title: "Another task", body: "Something else.", user: "maintainer" }];
  [github, emulator] = await Promise.all([startFakeGitHub({ seed }), startEmulator({ timeScale: SCALE })]);
  const marker = renderMarker(newRunMarker({ place: placeIn(3), runId: 77, orgId: emulator.orgId, sourceType: "GIT_HOST" }));
  github.seed({ issueComments: [{ issue_number: 3, user: ACTIONS_BOT, body: signedByAction(`${marker}\n🤖 working`) }] });
  victimCommentId = github.commentsOn(FULL_NAME, 3)[0]!.id;
  service = await startServiceRecorder(emulator.url, {
    rewrite: (answer, request) => {
      if (!/\/agent\/run(\/\d+)?$/.test(request.path) || typeof answer !== "object" || answer === null || !("id" in answer)) return answer;
      const run = answer as Record<string, unknown> & { git_host_pull_requests?: Array<Record<string, unknown>> };
      return {
        ...run,
        web_url: hostile(String(run.web_url)),
        status: typeof run.status === "string" ? hostile(run.status) : run.status,
        summary: hostile(String(run.summary ?? "")),
        result: hostile(String(run.result ?? "")),
        git_host_pull_requests: (run.git_host_pull_requests ?? []).map((pr) => ({ ...pr, title: hostile(String(pr.title)) })),
      };
    },
  });
}, 180_000);

afterAll(async () => {
  await Promise.all([github?.close(), emulator?.close(), service?.close()]);
});

describe("workflow commands in outside text (dist/index.js on Node 24)", () => {
  it("prints a hostile run's link fenced: the runner acts on none of its commands, and the post step reads only what the step saved", async () => {
    const body = "/agent fix the flaky date test";
    github.seed({ issueComments: [{ issue_number: 1, body, user: "maintainer" }] });
    const id = Math.max(...github.commentsOn(FULL_NAME, 1).map((c) => c.id));
    const files = createRunnerFiles();
    const env = stepEnv({
      eventName: "issue_comment",
      payload: issueCommentPayload({ thread: { number: 1, title: "Flaky date test" }, comment: { id, body, login: "maintainer" } }),
      // No tracking comment: the step saves no checkpoint, so a forged one would be all the post step reads.
      inputs: { "api-url": service.url, "api-token": emulator.token, "org-id": String(emulator.orgId), comment: "false", wait: "false" },
      githubApiUrl: github.url,
      files,
      extra: { AGENT_RUN_POLL_INTERVAL: TEST_POLL_INTERVAL },
    });
    const main = await runBundledAction(node24, env);
    expect(main.stderr).toBe("");
    expect(main.exitCode).toBe(0);
    // The hostile link is in the log, as text.
    expect(main.stdout).toContain("::add-mask::Agent");

    const commands = runnerCommandsIn(main.stdout);
    const fences = commands.filter((c) => c.name === "stop-commands");
    expect(fences.length).toBeGreaterThan(0);
    const tokens = new Set(fences.map((c) => c.data.toLowerCase()));
    const acted = commands.filter((c) => c.name !== "stop-commands" && !tokens.has(c.name));
    // Only the Action's own: the two tokens masked, and its warnings (whose text @actions/core escapes,
    // the hostile status among them). No forged mask, annotation, state or output.
    expect(acted.filter((c) => c.name === "add-mask").map((c) => c.data)).toEqual([emulator.token, GITHUB_TOKEN]);
    expect(acted.filter((c) => c.name !== "add-mask").map((c) => [c.name, c.properties])).toEqual(
      acted.filter((c) => c.name !== "add-mask").map(() => ["warning", {}]),
    );
    expect(acted.some((c) => c.data.includes("%0A::add-mask::Agent"))).toBe(true);
    // Every fence is closed by its own token.
    expect(commands.filter((c) => tokens.has(c.name))).toHaveLength(fences.length);

    expect(readOutputs(files)["web-url"]).toBe(hostile(`${emulator.url}/runs/${emulator.control.runs()[0]!.id}`));

    // The post step, with the state as the runner hands it over: the state file's, after the stdout commands'.
    const state: Record<string, string> = {};
    for (const command of commands) if (command.name === "save-state") state[command.properties.name!] = command.data;
    Object.assign(state, parseOutputFile(readFileSync(join(files.dir, "state"), "utf8")));
    const stateEnv = Object.fromEntries(Object.entries(state).map(([name, value]) => [`STATE_${name}`, value]));
    const writesBefore = github.writes.length;
    const post = await runBundledAction(node24, { ...env, ...stateEnv }, { script: join(ROOT, "dist", "post.js") });
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toContain("The main step posted no tracking comment: nothing to finish.");
    expect(github.writes.slice(writesBefore)).toEqual([]);
    expect(github.commentsOn(FULL_NAME, 3)[0]!.body).toContain("🤖 working");
  });
});
