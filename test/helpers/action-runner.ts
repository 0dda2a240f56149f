/**
 * Running the Action the way a GitHub runner does: the INPUT_* variables (every input declared
 * with a default gets it, as the runner does), the GITHUB_* variables, an event payload file, and
 * the GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files the step writes to. Two ways to run it:
 *
 * - `runActionInProcess`: runner.ts's `runAction()` in the test's process (fast; @actions/core writes to the
 *   files named by process.env, so those variables (and GITHUB_STATE) are set there too);
 * - `runBundledAction`: the committed `dist/index.js` in a child process under a given Node binary.
 */
import { createMarkerSigner } from "../../src/action/marker-signer.js";
import { signMarkers } from "../../src/core/markers/signature.js";
import { newRunMarker, renderMarker } from "../../src/core/markers/write.js";
import type { MarkerPlace } from "../../src/core/markers/schema.js";
import { AgentRunClient } from "../../src/service/client.js";
import { DEFAULT_TOKEN } from "../../src/emulator/options.js";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { WebhookDefinition } from "@octokit/webhooks-examples";
import type { WebhookEventMap } from "@octokit/webhooks-types";
import { afterAll } from "vitest";
import { parse as parseYaml } from "yaml";
import { startHeadStart, type HeadStart } from "../../src/action/head-start.js";
import { inputVariable, type Env } from "../../src/action/raw-inputs.js";
import { runAction, type StepResult } from "../../src/action/runner.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub, type FakeGitHubSeed } from "./fake-github/index.js";
import { FULL_NAME, HTML, OWNER, REPO, REPO_ID, issueCommentPayload, reviewSubmittedPayload, type ThreadSpec } from "./app-payloads.js";
import { startServiceRecorder, type ServiceRecorder, type ServiceRecorderOptions } from "./service-recorder.js";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const GITHUB_TOKEN = "ghs_test_job_token_0123456789";
export const WORKFLOW_RUN_ID = "9100";

interface ActionYml {
  inputs: Record<string, { default?: string }>;
}
const actionYml = parseYaml(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionYml;

export interface RunnerFiles {
  dir: string;
  eventPath: string;
  outputPath: string;
  summaryPath: string;
  workspace: string;
}

/** Every temporary directory this helper made, removed after the test file that imported it (each file loads it afresh). */
const temporaryDirs: string[] = [];
afterAll(() => {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporaryDirs.push(dir);
  return dir;
}

/** A fresh temporary directory holding the runner's files for one step. */
export function createRunnerFiles(): RunnerFiles {
  const dir = temporaryDir("action-step-");
  const workspace = join(dir, "workspace");
  mkdirSync(workspace);
  const files = {
    dir,
    eventPath: join(dir, "event.json"),
    outputPath: join(dir, "output"),
    summaryPath: join(dir, "summary.md"),
    workspace,
  };
  for (const path of [files.outputPath, files.summaryPath, join(dir, "state"), join(dir, "env"), join(dir, "path")])
    writeFileSync(path, "");
  return files;
}

export interface StepSpec {
  eventName: string;
  payload: object;
  /** `with:` values, by input name; the runner adds action.yml's defaults for the rest. */
  inputs: Record<string, string>;
  githubApiUrl: string;
  /** GITHUB_GRAPHQL_URL (default `{githubApiUrl}/graphql`, github.com's layout). */
  githubGraphqlUrl?: string;
  /** GITHUB_SERVER_URL (default https://github.com). */
  githubServerUrl?: string;
  files: RunnerFiles;
  repository?: string;
  /** More variables (e.g. AGENT_RUN_POLL_INTERVAL). */
  extra?: Record<string, string>;
}

/** The environment of a step: what a GitHub-hosted runner sets for a JavaScript action. */
export function stepEnv(spec: StepSpec): Record<string, string> {
  writeFileSync(spec.files.eventPath, JSON.stringify(spec.payload));
  const repository = spec.repository ?? FULL_NAME;
  const env: Record<string, string> = {
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: spec.eventName,
    GITHUB_EVENT_PATH: spec.files.eventPath,
    GITHUB_OUTPUT: spec.files.outputPath,
    GITHUB_STEP_SUMMARY: spec.files.summaryPath,
    GITHUB_STATE: join(spec.files.dir, "state"),
    GITHUB_ENV: join(spec.files.dir, "env"),
    GITHUB_PATH: join(spec.files.dir, "path"),
    GITHUB_API_URL: spec.githubApiUrl,
    GITHUB_GRAPHQL_URL: spec.githubGraphqlUrl ?? `${spec.githubApiUrl}/graphql`,
    GITHUB_SERVER_URL: spec.githubServerUrl ?? "https://github.com",
    GITHUB_REPOSITORY: repository,
    GITHUB_REPOSITORY_OWNER: repository.split("/")[0]!,
    GITHUB_RUN_ID: WORKFLOW_RUN_ID,
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_RUN_NUMBER: "17",
    GITHUB_WORKFLOW: "Agent",
    GITHUB_JOB: "agent",
    GITHUB_ACTION: "__self",
    GITHUB_ACTOR: "maintainer",
    GITHUB_SHA: "f".repeat(40),
    GITHUB_REF: "refs/heads/main",
    GITHUB_WORKSPACE: spec.files.workspace,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    RUNNER_TEMP: join(spec.files.dir, "runner-temp"),
    RUNNER_TOOL_CACHE: join(spec.files.dir, "tool-cache"),
  };
  for (const [name, input] of Object.entries(actionYml.inputs)) {
    if (input.default === undefined) continue;
    env[inputVariable(name)] = input.default === "${{ github.token }}" ? GITHUB_TOKEN : input.default;
  }
  for (const [name, value] of Object.entries(spec.inputs)) env[inputVariable(name)] = value;
  return { ...env, ...spec.extra };
}

/**
 * The outputs a step wrote, as the runner reads GITHUB_OUTPUT: `name=value` lines and
 * `name<<DELIMITER` … `DELIMITER` blocks (what @actions/core writes).
 */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
      if (i >= lines.length) throw new Error(`output ${name} has no closing delimiter`);
      outputs[name!] = value.join("\n");
      continue;
    }
    const eq = line.indexOf("=");
    if (eq === -1) throw new Error(`unreadable output line: ${line}`);
    outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return outputs;
}

export const readOutputs = (files: RunnerFiles) => parseOutputFile(readFileSync(files.outputPath, "utf8"));
export const readSummary = (files: RunnerFiles) => readFileSync(files.summaryPath, "utf8");

export interface ChildResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The path of a Node 24 binary (the Action's `runs.using`), through the same script CI runs: it
 * installs Node 24 under .cache/ once, then only prints its path. Call it in a beforeAll of 180 s.
 */
export async function ensureNode24(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, "scripts", "ensure-node24.mjs")], { timeout: 170_000 });
  return stdout.trim();
}

/** Runs the bundle with exactly the step's environment (plus PATH and HOME), as the runner starts `node dist/index.js`. */
export function runBundledAction(
  nodeBinary: string,
  env: Record<string, string>,
  options: { script?: string; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<ChildResult> {
  const script = options.script ?? join(ROOT, "dist", "index.js");
  return new Promise((resolvePromise) => {
    execFile(
      nodeBinary,
      [...(options.nodeArgs ?? []), script],
      {
        cwd: env.GITHUB_WORKSPACE,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error && typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : error ? null : 0;
        resolvePromise({ exitCode: code, stdout, stderr });
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// workflow_run payloads (the App's tests have no need for them)

const definitions = createRequire(import.meta.url)("@octokit/webhooks-examples") as WebhookDefinition[];

type Json = Record<string, unknown>;

/** A real `workflow_run.completed` payload pointed at the seeded repository, its pull request and a conclusion. */
export function workflowRunCompletedPayload(input: {
  id: number;
  name?: string;
  conclusion: "failure" | "success" | "timed_out" | "cancelled";
  headSha: string;
  headBranch: string;
  pullRequests: Array<{ number: number; fromFork?: boolean }>;
  /** The head commit comes from a fork (the run's head repository is another one). */
  forkRun?: boolean;
}): WebhookEventMap["workflow_run"] {
  const examples = definitions.find((d) => d.name === "workflow_run")!.examples as Json[];
  const payload = structuredClone(
    examples.find((e) => e.action === "completed" && ((e.workflow_run as Json).pull_requests as unknown[]).length > 0)!,
  );
  const run = payload.workflow_run as Json;
  const template = (run.pull_requests as Json[])[0]!;
  const repository = {
    ...(payload.repository as Json),
    id: REPO_ID,
    name: REPO,
    full_name: FULL_NAME,
    html_url: HTML,
    private: false,
    default_branch: "main",
    owner: { ...((payload.repository as Json).owner as Json), login: OWNER },
  };
  payload.repository = repository;
  delete payload.installation;
  const headRepository = input.forkRun ? { ...repository, id: REPO_ID + 1, full_name: `fork-owner/${REPO}`, name: REPO } : repository;
  payload.workflow_run = {
    ...run,
    id: input.id,
    name: input.name ?? "CI",
    display_title: "Fix the flaky date test",
    status: "completed",
    conclusion: input.conclusion,
    head_sha: input.headSha,
    head_branch: input.headBranch,
    html_url: `${HTML}/actions/runs/${input.id}`,
    event: "pull_request",
    run_attempt: 1,
    repository,
    head_repository: headRepository,
    pull_requests: input.pullRequests.map((pr) => ({
      ...template,
      number: pr.number,
      url: `https://api.github.com/repos/${FULL_NAME}/pulls/${pr.number}`,
      head: { ref: input.headBranch, sha: input.headSha, repo: { id: pr.fromFork ? REPO_ID + 1 : REPO_ID, url: "", name: REPO } },
      base: { ref: "main", sha: "0".repeat(40), repo: { id: REPO_ID, url: "", name: REPO } },
    })),
  };
  payload.sender = { ...(payload.sender as Json), login: "maintainer", type: "User" };
  return payload as unknown as WebhookEventMap["workflow_run"];
}

/** A real `workflow_dispatch` payload for the seeded repository. */
export function workflowDispatchPayload(inputs: Record<string, string> = {}): object {
  const examples = definitions.find((d) => d.name === "workflow_dispatch")!.examples as Json[];
  const payload = structuredClone(examples[0]!);
  payload.repository = {
    ...(payload.repository as Json),
    id: REPO_ID,
    name: REPO,
    full_name: FULL_NAME,
    html_url: HTML,
    owner: { ...((payload.repository as Json).owner as Json), login: OWNER },
  };
  payload.inputs = inputs;
  payload.sender = { ...(payload.sender as Json), login: "maintainer", type: "User" };
  delete payload.installation;
  return payload;
}

// ---------------------------------------------------------------------------------------------
// In-process harness: the emulator behind a recorder, the fake GitHub, runner.ts's runAction()

/** Emulated time runs 500× faster: the default 20 s run lasts 40 ms. */
export const SCALE = 0.002;
/** Seconds between polls in tests (AGENT_RUN_POLL_INTERVAL): 20 ms, growing to 240 ms. */
export const TEST_POLL_INTERVAL = "0.02";
export const ACTIONS_BOT = "github-actions[bot]";

/** Where a marker in thread `thread` of the harness's repository belongs (what the Action writes there). */
export const placeIn = (thread: number): MarkerPlace => ({ repository: FULL_NAME, thread });
export const PR_HEAD_SHA = "a".repeat(40);
export const PR_BRANCH = "agent/fix-dates";

/** An issue, a pull request opened by an earlier run, a maintainer and a reader; the job's token writes as github-actions[bot]. */
export function actionSeed(): FakeGitHubSeed {
  return {
    app: { slug: "github-actions", name: "GitHub Actions" },
    writer: ACTIONS_BOT,
    repositories: [{ owner: OWNER, name: REPO, id: REPO_ID }],
    issues: [{ number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays.", user: "maintainer" }],
    pulls: [
      {
        number: 2,
        title: "Fix the flaky date test",
        body: "Pins the clock.",
        head: { ref: PR_BRANCH, sha: PR_HEAD_SHA },
        user: "maintainer",
      },
    ],
    collaborators: [
      { login: "maintainer", permission: "write" },
      { login: "reader", permission: "read" },
    ],
  };
}

/** actionSeed's pull request #2, as the payload helpers describe a pull request. */
export const SEEDED_PR = { number: 2, headRef: PR_BRANCH, headSha: PR_HEAD_SHA, title: "Fix the flaky date test" };

/**
 * A maintainer's review of #2 requesting changes, with one inline comment: the review to add to the
 * seed, and the `pull_request_review` payload GitHub sends for it.
 */
export function changesRequestedReview(): {
  seed: NonNullable<FakeGitHubSeed["reviews"]>[number];
  payload: WebhookEventMap["pull_request_review"];
} {
  const body = "Please pin the timezone too.";
  return {
    seed: {
      id: 8100,
      pull_number: 2,
      user: "maintainer",
      state: "CHANGES_REQUESTED",
      body,
      comments: [{ id: 8101, body: "Use UTC here.", path: "src/dates.ts", line: 12 }],
    },
    payload: reviewSubmittedPayload({ pr: SEEDED_PR, review: { id: 8100, state: "changes_requested", body, login: "maintainer" } }),
  };
}

/** `seed` with a failing workflow run (700) on pull request 2: its "test" job failed, with a step and a log. */
export function withFailingCi(seed: FakeGitHubSeed = actionSeed()): FakeGitHubSeed {
  seed.workflowRuns = [
    {
      id: 700,
      head_branch: PR_BRANCH,
      head_sha: PR_HEAD_SHA,
      pull_requests: [2],
      jobs: [
        {
          id: 702,
          name: "test",
          conclusion: "failure",
          steps: [{ name: "Run the tests", conclusion: "failure" }],
          log: "FAIL src/dates.test.ts\n",
        },
      ],
    },
  ];
  return seed;
}

/** The `workflow_run.completed` delivery of withFailingCi's run (a failure on pull request 2), with what a test changes. */
export function failedCiPayload(overrides: Partial<Parameters<typeof workflowRunCompletedPayload>[0]> = {}) {
  return workflowRunCompletedPayload({
    id: 700,
    conclusion: "failure",
    headSha: PR_HEAD_SHA,
    headBranch: PR_BRANCH,
    pullRequests: [{ number: 2 }],
    ...overrides,
  });
}

export interface ActionHarness {
  github: FakeGitHub;
  emulator: RunningEmulator;
  service: ServiceRecorder;
  /** The inputs every step needs: the service through the recorder, its token and organization. */
  serviceInputs: Record<string, string>;
  /** A person comments on an issue or pull request of the seed: the comment exists in the fake, its payload is returned. */
  humanComment(thread: ThreadSpec, body: string, login?: string): { id: number; payload: object };
  /**
   * Runs runner.ts's `runAction()` in this process as the entry (index.ts) starts it: the head
   * start's GitHub reads first (`headStart` replaces them: null for none, or reads sent otherwise).
   */
  step(
    spec: Omit<StepSpec, "githubApiUrl" | "githubGraphqlUrl" | "githubServerUrl" | "files"> & {
      files?: RunnerFiles;
      /** May resolve later: the step starts once it has (the entry's wait for the runner to load, drawn out). */
      headStart?: (env: Env) => HeadStart | null | Promise<HeadStart | null>;
    },
  ): Promise<InProcessStep>;
  /** The runner's GitHub variables for this harness's fake (an Enterprise Server's when the harness is `enterprise`). */
  githubUrls: Pick<StepSpec, "githubApiUrl" | "githubGraphqlUrl" | "githubServerUrl">;
  close(): Promise<void>;
}

export interface InProcessStep {
  result: StepResult;
  outputs: Record<string, string>;
  summary: string;
  /** 1 when the step failed (`setFailed`), else undefined or 0. */
  exitCode: number | string | null | undefined;
  files: RunnerFiles;
}

// @actions/core remembers the summary file it first wrote to: one per process, copied per step.
const sharedSummary = join(temporaryDir("action-summary-"), "summary.md");

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/**
 * GitHub's GraphQL `viewer` in front of the fake (which has no GraphQL): answers `POST /graphql`
 * with the token's login and passes every other request through unchanged, so the Action's
 * identity lookup sees what an App installation token or a personal token would see.
 */
export async function startViewerFront(targetUrl: string, viewerLogin: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && req.url === "/graphql") {
        res
          .writeHead(200, { "content-type": "application/json; charset=utf-8" })
          .end(JSON.stringify({ data: { viewer: { login: viewerLogin } } }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers[name] = value;
      }
      const answer = await fetch(`${targetUrl}${req.url ?? "/"}`, {
        method: req.method,
        headers,
        redirect: "manual",
        ...(body.length > 0 ? { body } : {}),
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!["content-length", "transfer-encoding", "content-encoding", "connection"].includes(name)) out[name] = value;
      });
      res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
    })().catch((error: unknown) => res.writeHead(502).end(String(error)));
  });
  await new Promise<void>((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

export async function startActionHarness(
  options: {
    seed?: FakeGitHubSeed;
    config?: string;
    emulator?: EmulatorOptions;
    /** How the recording proxy between the step and the emulator behaves (e.g. `loseAnswer`). */
    serviceProxy?: ServiceRecorderOptions;
    viewerLogin?: string;
    /** The fake lays GitHub out as an Enterprise Server does, and the steps' variables say so (as a GHES runner sets them). */
    enterprise?: boolean;
  } = {},
): Promise<ActionHarness> {
  const emulator = await startEmulator({ timeScale: SCALE, ...options.emulator });
  const service = await startServiceRecorder(emulator.url, options.serviceProxy);
  const seed = options.seed ?? actionSeed();
  if (options.config !== undefined) seed.files = [...(seed.files ?? []), { path: ".github/agent-run.yml", content: options.config }];
  const github = await startFakeGitHub({ seed, enterprise: options.enterprise ?? false });
  const front = options.viewerLogin ? await startViewerFront(github.url, options.viewerLogin) : null;
  const apiUrl = front?.url ?? github.url;
  const githubUrls = github.enterprise
    ? { githubApiUrl: apiUrl, githubGraphqlUrl: github.graphqlUrl, githubServerUrl: github.webUrl }
    : { githubApiUrl: apiUrl };
  const serviceInputs = { "api-url": service.url, "api-token": emulator.token, "org-id": String(emulator.orgId) };
  return {
    github,
    emulator,
    service,
    serviceInputs,
    githubUrls,
    humanComment(thread, body, login = "maintainer") {
      // The fake numbers it, as GitHub does: ids grow with time across everyone's comments.
      github.seed({ issueComments: [{ issue_number: thread.number, body, user: login }] });
      const id = Math.max(...github.commentsOn(FULL_NAME, thread.number).map((c) => c.id));
      return { id, payload: issueCommentPayload({ thread, comment: { id, body, login } }) };
    },
    async step(spec) {
      const files = spec.files ?? createRunnerFiles();
      const env = stepEnv({
        ...spec,
        inputs: { ...serviceInputs, ...spec.inputs },
        ...githubUrls,
        files,
        extra: { AGENT_RUN_POLL_INTERVAL: TEST_POLL_INTERVAL, ...spec.extra },
      });
      writeFileSync(sharedSummary, "");
      const saved = { output: process.env.GITHUB_OUTPUT, summary: process.env.GITHUB_STEP_SUMMARY, state: process.env.GITHUB_STATE };
      process.env.GITHUB_OUTPUT = files.outputPath;
      process.env.GITHUB_STEP_SUMMARY = sharedSummary;
      process.env.GITHUB_STATE = env.GITHUB_STATE;
      try {
        const stepEnvironment = { ...env, GITHUB_STEP_SUMMARY: sharedSummary };
        const headStart = await (spec.headStart ?? startHeadStart)(stepEnvironment);
        const result = await runAction({ env: stepEnvironment, headStart }).finally(() => headStart?.close());
        writeFileSync(files.summaryPath, readFileSync(sharedSummary));
        return { result, outputs: readOutputs(files), summary: readSummary(files), exitCode: process.exitCode, files };
      } finally {
        process.exitCode = undefined;
        restoreEnv("GITHUB_OUTPUT", saved.output);
        restoreEnv("GITHUB_STEP_SUMMARY", saved.summary);
        restoreEnv("GITHUB_STATE", saved.state);
      }
    },
    async close() {
      await Promise.all([github.close(), service.close(), emulator.close(), front?.close()]);
    },
  };
}

/**
 * A body as an earlier step of the Action wrote it: its marker signed with the key derived from the
 * service token (every harness emulator uses its default token), as the Action signs every marker.
 */
export function signedByAction(body: string, apiToken = DEFAULT_TOKEN): string {
  return signMarkers(body, createMarkerSigner(apiToken));
}

/**
 * A run still working on issue 1, as an earlier step of the Action left it: created on the emulator
 * (lasting `durationMs` emulated) and named by a signed tracking comment of the Action's in the thread.
 */
export async function seedWorkingRun(h: ActionHarness, durationMs: number, prompt = "long work"): Promise<number> {
  const client = new AgentRunClient({ baseUrl: h.emulator.url, token: h.emulator.token, orgId: h.emulator.orgId });
  h.emulator.control.script({ durationMs });
  const working = await client.createRun({ prompt, metadata: { repository: FULL_NAME } });
  const marker = renderMarker(newRunMarker({ place: placeIn(1), runId: working.id, orgId: h.emulator.orgId, sourceType: "GIT_HOST" }));
  h.github.seed({ issueComments: [{ issue_number: 1, user: ACTIONS_BOT, body: signedByAction(`${marker}\n🤖 working`) }] });
  return working.id;
}
