/**
 * Action cold start: `node dist/index.js` as a runner starts it (INPUT_* and GITHUB_* environment,
 * a workflow_dispatch event with a prompt, `wait: false`), from the spawn to the moment the create
 * request arrives at the emulator, timed on the server side by a hook that sees each request as it
 * arrives. Baseline: `node -e ""` from spawn to exit on the same machine, runs interleaved.
 *
 * `npx tsx bench/cold-start.ts`
 * `npx tsx bench/cold-start.ts --compare <git ref or path to an index.js>`: on Node 24, the same start of this
 * dist/ and of the other one, in turn, also read as the main thread's CPU time to the create (what a
 * change moved, with the load shared by both; the clock alone moves more from one run to the next).
 * `npx tsx bench/cold-start.ts --compare <ref> --instructions`: also a few starts of each build under Valgrind's
 * cachegrind, to the create: the instructions each ran (bench/lib/instructions.ts), a count that neither the load
 * nor the clock moves (needs `valgrind`).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { parse as parseYaml } from "yaml";
import { preloadAtCreate } from "../test/helpers/create-preload.js";
import { startFakeGitHub, type FakeGitHub } from "../test/helpers/fake-github/index.js";
import { API_PATHS } from "../src/service/index.js";
import { selfTimeByOrigin } from "./lib/cpu-profile.js";
import { startNetworkFront } from "./lib/network-front.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, unavailableRow, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { cachegrindArgs, instructionsIn, valgrindVersion } from "./lib/instructions.js";
import { BENCH_ORG_ID, startBenchEmulator, type BenchEmulator } from "./lib/service.js";
import { median, percentile } from "./lib/stats.js";

export interface ColdStartOptions {
  /** Measured spawns of each kind (after one warm-up of each). */
  samples?: number;
  /** The bundle to start; default dist/index.js. */
  bundle?: string;
  /** Extra flags for the action's `node` (e.g. --cpu-prof, to see where the time goes). */
  nodeArgs?: string[];
  /** The `node` binary for both the action and the baseline; default this process's (runners use Node 24). */
  node?: string;
  /** Another build to start in turn with this one on the first Node: a git ref (its committed dist/) or a path to its index.js. */
  compare?: string;
  /** With `compare`: also count the instructions each build runs to the create, under Valgrind (a few starts of each). */
  instructions?: boolean;
}

const NAME = "cold start";
const ROOT = resolve(import.meta.dirname, "..");
const OWNER = "octo-org";
const REPO = "widgets";
/** The seeded collaborator (write role) who dispatches the workflow. */
const ACTOR = "maintainer";
/** A spawn that takes longer than this is broken, not slow. */
const SPAWN_TIMEOUT_MS = 30_000;

interface WorkflowDispatchExample {
  name: string;
  examples: Array<Record<string, unknown>>;
}

/** A real workflow_dispatch payload from @octokit/webhooks-examples, pointed at the seeded repository. */
function workflowDispatchPayload(): Record<string, unknown> {
  const definitions = createRequire(import.meta.url)("@octokit/webhooks-examples") as WorkflowDispatchExample[];
  const example = definitions.find((d) => d.name === "workflow_dispatch")?.examples[0];
  if (!example) throw new Error("@octokit/webhooks-examples has no workflow_dispatch example");
  const payload = structuredClone(example);
  const repository = payload.repository as Record<string, unknown>;
  payload.repository = {
    ...repository,
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    html_url: `https://github.com/${OWNER}/${REPO}`,
    default_branch: "main",
    owner: { ...(repository.owner as Record<string, unknown>), login: OWNER },
  };
  // The one who dispatched it is the seeded collaborator: the step checks the sender's role before it creates.
  payload.sender = { ...(payload.sender as Record<string, unknown>), login: ACTOR, type: "User" };
  return payload;
}

/** Every input with action.yml's default (as the runner sets them), then ours over them. */
function inputEnv(overrides: Record<string, string>): Record<string, string> {
  const manifest = parseYaml(readFileSync(join(ROOT, "action.yml"), "utf8")) as { inputs?: Record<string, { default?: unknown }> };
  const env: Record<string, string> = {};
  for (const [name, spec] of Object.entries(manifest.inputs ?? {})) env[`INPUT_${name.toUpperCase()}`] = String(spec.default ?? "");
  for (const [name, value] of Object.entries(overrides)) env[`INPUT_${name.toUpperCase()}`] = value;
  return env;
}

interface Spawned {
  /** performance.now() at spawn. */
  spawnedAt: number;
  exited: Promise<{ code: number | null; at: number; stderr: string }>;
}

function spawnNode(node: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs = SPAWN_TIMEOUT_MS): Spawned {
  const spawnedAt = performance.now();
  const child = spawn(node, args, { env, cwd, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; at: number; stderr: string }>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${node} ${args.join(" ")} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, at: performance.now(), stderr });
    });
  });
  return { spawnedAt, exited };
}

/** Spawn → exit of `node -e <script>` (by default `node -e ""`), in ms. */
async function bareNode(node: string, cwd: string, script = ""): Promise<number> {
  const spawned = spawnNode(node, ["-e", script], { PATH: process.env.PATH ?? "" }, cwd);
  const { at, code } = await spawned.exited;
  if (code !== 0) throw new Error(`node -e ${JSON.stringify(script)} exited with ${code}`);
  return at - spawned.spawnedAt;
}

/**
 * The fake GitHub and the emulator speak plain HTTP on loopback; a runner reaches GitHub and the
 * service over HTTPS, and loading node:https (TLS, crypto and, on Node 24, a thread that reads the
 * bundled root certificates) is a cost this benchmark's starts do not pay. Measured on its own.
 */
const REQUIRE_HTTP = 'require("node:http")';
const REQUIRE_HTTPS = 'require("node:http"); require("node:https")';
/**
 * `node -e` sending one GET over node:http and reading its answer: the floor of any start that asks
 * something before its first write (Node's HTTP client runs cold in a new process: several ms).
 */
const oneRequest = (url: string) =>
  `require("node:http").get(${JSON.stringify(url)}, (res) => { res.resume(); res.on("end", () => {}); }).on("error", () => process.exit(1))`;

export interface ActionSample {
  toCreateMs: number;
  toExitMs: number;
  /** Spawn → the fake GitHub answering the action's first request: Node's start plus loading the bundle. */
  toFirstGitHubMs: number;
  /** Spawn → the service's first request from the action (the repository list, asked ahead). */
  toFirstServiceMs: number;
  /** GitHub requests the action made before its create request. */
  githubCallsBeforeCreate: string[];
  /** The main thread's CPU time when the create request was started (compared starts only, through CPU_PRELOAD). */
  cpuToCreateMs?: number;
}

/**
 * A preload for compared starts: when the create request starts, it writes the main thread's CPU time
 * so far (`process.threadCpuUsage`, Node 23.9+; the process's elsewhere). The same for both builds.
 */
const CPU_PRELOAD_FILE = "cpu-at-create.cjs";
const CPU_PRELOAD = preloadAtCreate(
  'const used = process.threadCpuUsage ? process.threadCpuUsage() : process.cpuUsage(); require("node:fs").writeFileSync(process.env.BENCH_CPU_FILE, String((used.user + used.system) / 1000));',
);

/** The environment a runner gives the step (start `index`, its own service token), its output and summary files made empty. */
function actionEnv(
  emulator: BenchEmulator,
  github: FakeGitHub,
  token: string,
  workdir: string,
  index: number,
  via?: { githubUrl: string; apiUrl: string },
): NodeJS.ProcessEnv {
  const outputPath = join(workdir, `output-${index}.txt`);
  const summaryPath = join(workdir, `summary-${index}.md`);
  writeFileSync(outputPath, "");
  writeFileSync(summaryPath, "");
  return {
    PATH: process.env.PATH ?? "",
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "workflow_dispatch",
    GITHUB_EVENT_PATH: join(workdir, "event.json"),
    GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
    GITHUB_REPOSITORY_OWNER: OWNER,
    GITHUB_API_URL: via?.githubUrl ?? github.url,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_GRAPHQL_URL: `${via?.githubUrl ?? github.url}/graphql`,
    GITHUB_RUN_ID: String(9_000_000 + index),
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_WORKFLOW: "agent",
    GITHUB_ACTOR: ACTOR,
    GITHUB_SHA: "a".repeat(40),
    GITHUB_REF: "refs/heads/main",
    GITHUB_WORKSPACE: workdir,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: workdir,
    ...inputEnv({
      "api-url": via?.apiUrl ?? emulator.url,
      "api-token": token,
      "org-id": String(BENCH_ORG_ID),
      prompt: "Update the changelog for the release",
      wait: "false",
      "github-token": "ghs_benchmarkinstallationtoken0000000000",
    }),
  };
}

/** One action start with its own service token (so no creation window is shared between samples). */
async function actionStart(
  node: string,
  bundle: string,
  nodeArgs: readonly string[],
  emulator: BenchEmulator,
  github: FakeGitHub,
  token: string,
  workdir: string,
  index: number,
  /** Other addresses for the two (a network in front of them). */
  via?: { githubUrl: string; apiUrl: string },
  /** Load CPU_PRELOAD, which writes the main thread's CPU time at the create request to this file. */
  cpuFile?: string,
): Promise<ActionSample> {
  const createPath = API_PATHS.createRun(BENCH_ORG_ID);
  let createdAt: number | undefined;
  let firstServiceAt: number | undefined;
  const unsubscribe = emulator.onArrival((arrival) => {
    if (arrival.token !== token) return;
    firstServiceAt ??= arrival.atMs;
    if (createdAt === undefined && arrival.method === "POST" && arrival.path === createPath) createdAt = arrival.atMs;
  });
  // The fake GitHub reports a request once answered (it answers in about a millisecond).
  const githubCalls: Array<{ at: number; call: string }> = [];
  const onGitHubRequest = (recorded: { method: string; path: string }) => {
    githubCalls.push({ at: performance.now(), call: `${recorded.method} ${recorded.path}` });
  };
  github.events.on("request", onGitHubRequest);
  const outputPath = join(workdir, `output-${index}.txt`);
  const env: NodeJS.ProcessEnv = {
    ...actionEnv(emulator, github, token, workdir, index, via),
    ...(cpuFile ? { BENCH_CPU_FILE: cpuFile } : {}),
  };
  try {
    const preload = cpuFile ? ["--require", join(workdir, CPU_PRELOAD_FILE)] : [];
    const spawned = spawnNode(node, [...nodeArgs, ...preload, bundle], env, workdir);
    const { code, at, stderr } = await spawned.exited;
    if (code !== 0 || createdAt === undefined) {
      const output = readFileSync(outputPath, "utf8");
      throw new Error(
        `the action ${createdAt === undefined ? "never sent its create request" : "sent its create request"} and exited with ${code}:\n${stderr.slice(0, 1500)}\n${output.slice(0, 500)}`,
      );
    }
    const created = createdAt;
    return {
      ...(cpuFile ? { cpuToCreateMs: Number(readFileSync(cpuFile, "utf8")) } : {}),
      toCreateMs: created - spawned.spawnedAt,
      toExitMs: at - spawned.spawnedAt,
      toFirstGitHubMs: (githubCalls[0]?.at ?? created) - spawned.spawnedAt,
      toFirstServiceMs: (firstServiceAt ?? created) - spawned.spawnedAt,
      githubCallsBeforeCreate: githubCalls.filter((c) => c.at < created).map((c) => c.call),
    };
  } finally {
    unsubscribe();
    github.events.off("request", onGitHubRequest);
  }
}

/**
 * A preload for starts under Valgrind: Valgrind drops the environment variables whose names are not
 * shell names, so the `INPUT_*` with a hyphen come through BENCH_HYPHENATED_ENV and are put back first;
 * when the create request starts, it leaves a mark and the process exits (the count stops there).
 */
const INSTRUCTIONS_PRELOAD_FILE = "exit-at-create.cjs";
const INSTRUCTIONS_PRELOAD = [
  "Object.assign(process.env, JSON.parse(process.env.BENCH_HYPHENATED_ENV));",
  preloadAtCreate('require("node:fs").writeFileSync(process.env.BENCH_CREATE_MARK, "create"); process.exit(0);'),
].join("\n");
/** A start under Valgrind is some 50 times slower than one without. */
const VALGRIND_TIMEOUT_MS = 300_000;

/** The instructions one action start runs from its first to its create request (cachegrind; see bench/lib/instructions.ts). */
async function instructionsToCreate(
  node: string,
  bundle: string,
  emulator: BenchEmulator,
  github: FakeGitHub,
  token: string,
  workdir: string,
  index: number,
): Promise<number> {
  const outDir = join(workdir, `cachegrind-${index}`);
  mkdirSync(outDir);
  const mark = join(outDir, "create-mark");
  const env = actionEnv(emulator, github, token, workdir, index);
  const hyphenated = Object.fromEntries(Object.entries(env).filter(([name]) => name.includes("-")));
  const args = [...cachegrindArgs(node, outDir), "--require", join(workdir, INSTRUCTIONS_PRELOAD_FILE), bundle];
  const spawned = spawnNode(
    "valgrind",
    args,
    { ...env, BENCH_HYPHENATED_ENV: JSON.stringify(hyphenated), BENCH_CREATE_MARK: mark },
    workdir,
    VALGRIND_TIMEOUT_MS,
  );
  const { code, stderr } = await spawned.exited;
  if (code !== 0 || !existsSync(mark)) {
    throw new Error(
      `the action under valgrind ${existsSync(mark) ? "reached its create and" : "never reached its create and"} exited with ${code}:\n${stderr.slice(0, 1500)}`,
    );
  }
  return instructionsIn(outDir);
}

/** Spawn → exit of the bundle with no inputs: it loads and evaluates every module up front, then stops at the first input check. */
async function loadOnly(node: string, bundle: string, cwd: string): Promise<number> {
  const spawned = spawnNode(node, [bundle], { PATH: process.env.PATH ?? "" }, cwd);
  const { at } = await spawned.exited;
  return at - spawned.spawnedAt;
}

/** What the CPU profile of a start is split into: zod, the other dependencies, this project's code. */
const originGroup = (pkg: string | null) => (pkg === null ? "agent-run-bridge's own code" : pkg === "zod" ? "zod" : "other dependencies");

const ORIGIN_ORDER = [
  "Node (start-up, module loading, built-ins)",
  "zod",
  "other dependencies",
  "agent-run-bridge's own code",
  "bundle preamble",
  "garbage collection",
  "idle",
];

interface NodeMeasurement {
  node: string;
  version: string;
  bare: number[];
  loadOnly: number[];
  /** `node -e` loading node:http, then node:http and node:https (what HTTPS adds to a start). */
  withHttp: number[];
  withHttps: number[];
  /** `node -e` sending one GET to the fake GitHub over node:http, spawn → exit. */
  withRequest: number[];
  action: ActionSample[];
  /** Median self time per origin over the profiled starts, in ms. */
  profile: Map<string, number>;
  /** Starts with NETWORK_ROUND_TRIP_MS in front of GitHub and the service. */
  overNetwork: ActionSample[];
  /** The 1-minute load average when the timed starts began and ended (other work on the machine slows both kinds of start). */
  load: [number, number];
  /** With `compare`: this build's starts and the other build's, in turn, each with its CPU time to the create. */
  compared: { current: ActionSample[]; other: ActionSample[] } | null;
  /** With `compare` and `instructions`: the instructions to the create of each build's starts, in turn. */
  instructions: { current: number[]; other: number[] } | null;
}

/** Starts of each build counted under Valgrind (`--instructions`). */
const INSTRUCTION_STARTS = 3;

/** The round trip of the network put in front of GitHub and the service for a few more starts. */
const NETWORK_ROUND_TRIP_MS = 50;
const NETWORK_STARTS = 7;

async function measureOn(
  node: string,
  bundle: string,
  samples: number,
  profiled: number,
  nodeArgs: readonly string[],
  compareBundle: string | null = null,
  countInstructions = false,
): Promise<NodeMeasurement> {
  // One token per start: the emulator's creation window (10 per minute) would otherwise throttle the later ones.
  const compareStarts = compareBundle ? 2 * samples + (countInstructions ? 2 * INSTRUCTION_STARTS : 0) : 0;
  const { workdir, emulator, github, close } = await openStage(samples + profiled + NETWORK_STARTS + compareStarts + 1);
  const measured: NodeMeasurement = {
    node,
    version: "",
    bare: [],
    loadOnly: [],
    withHttp: [],
    withHttps: [],
    withRequest: [],
    action: [],
    profile: new Map(),
    overNetwork: [],
    load: [loadavg()[0]!, 0],
    compared: null,
    instructions: null,
  };
  try {
    measured.version = nodeVersion(node);
    // Warm-up of each (disk cache), not counted; then interleaved so machine load hits all alike.
    await bareNode(node, workdir);
    await loadOnly(node, bundle, workdir);
    await actionStart(node, bundle, nodeArgs, emulator, github, emulator.extraTokens[0]!, workdir, 0);
    for (let i = 1; i <= samples; i++) {
      measured.bare.push(await bareNode(node, workdir));
      measured.loadOnly.push(await loadOnly(node, bundle, workdir));
      measured.action.push(await actionStart(node, bundle, nodeArgs, emulator, github, emulator.extraTokens[i]!, workdir, i));
      measured.withHttp.push(await bareNode(node, workdir, REQUIRE_HTTP));
      measured.withHttps.push(await bareNode(node, workdir, REQUIRE_HTTPS));
      measured.withRequest.push(await bareNode(node, workdir, oneRequest(`${github.url}/repos/${OWNER}/${REPO}`)));
    }
    measured.load[1] = loadavg()[0]!;
    // Where the time goes: a few more starts under the CPU profiler (slower, so not timed).
    const profileDir = join(workdir, "profiles");
    for (let i = 1; i <= profiled; i++) {
      await actionStart(
        node,
        bundle,
        [...nodeArgs, "--cpu-prof", "--cpu-prof-interval", "100", "--cpu-prof-dir", profileDir],
        emulator,
        github,
        emulator.extraTokens[samples + i]!,
        workdir,
        samples + i,
      );
    }
    const bundleFiles = readdirSync(dirname(bundle))
      .filter((name) => name.endsWith(".js"))
      .map((name) => join(dirname(bundle), name));
    const perStart = readdirSync(profileDir).map((name) => selfTimeByOrigin(join(profileDir, name), bundleFiles, originGroup));
    for (const origin of new Set(perStart.flatMap((times) => [...times.keys()])))
      measured.profile.set(origin, median(perStart.map((times) => times.get(origin) ?? 0)));
    // What a network adds: the same start with a round trip in front of GitHub and the service.
    const [githubFront, serviceFront] = await Promise.all([
      startNetworkFront(github.url, NETWORK_ROUND_TRIP_MS),
      startNetworkFront(emulator.url, NETWORK_ROUND_TRIP_MS),
    ]);
    try {
      const via = { githubUrl: githubFront.url, apiUrl: serviceFront.url };
      for (let i = 1; i <= NETWORK_STARTS; i++) {
        const index = samples + profiled + i;
        measured.overNetwork.push(
          await actionStart(node, bundle, nodeArgs, emulator, github, emulator.extraTokens[index]!, workdir, index, via),
        );
      }
    } finally {
      await Promise.all([githubFront.close(), serviceFront.close()]);
    }
    if (compareBundle) {
      // The two builds in turn (inTurn), each start with its own token.
      writeFileSync(join(workdir, CPU_PRELOAD_FILE), CPU_PRELOAD);
      let index = samples + profiled + NETWORK_STARTS;
      const start = (which: string) => {
        index += 1;
        return actionStart(
          node,
          which,
          nodeArgs,
          emulator,
          github,
          emulator.extraTokens[index]!,
          workdir,
          index,
          undefined,
          join(workdir, `cpu-${index}`),
        );
      };
      measured.compared = await inTurn(
        samples,
        () => start(bundle),
        () => start(compareBundle),
      );
      if (countInstructions) {
        writeFileSync(join(workdir, INSTRUCTIONS_PRELOAD_FILE), INSTRUCTIONS_PRELOAD);
        const count = (which: string) => {
          index += 1;
          return instructionsToCreate(node, which, emulator, github, emulator.extraTokens[index]!, workdir, index);
        };
        measured.instructions = await inTurn(
          INSTRUCTION_STARTS,
          () => count(bundle),
          () => count(compareBundle),
        );
      }
    }
  } finally {
    await close();
  }
  return measured;
}

/** What a start needs around it: a working folder with the event, the emulator (`starts` tokens) and the fake GitHub. */
async function openStage(starts: number) {
  const workdir = mkdtempSync(join(tmpdir(), "arb-bench-cold-"));
  writeFileSync(join(workdir, "event.json"), JSON.stringify(workflowDispatchPayload()));
  const emulator = await startBenchEmulator({ extraTokens: starts });
  // GraphQL answers `viewer` as on github.com: a workflow's token writes as github-actions[bot].
  const github = await startFakeGitHub({
    seed: {
      app: { slug: "github-actions", name: "GitHub Actions" },
      repositories: [{ owner: OWNER, name: REPO }],
      collaborators: [{ login: ACTOR, permission: "write" }],
    },
    graphql: true,
  });
  const close = async () => {
    await github.close();
    await emulator.close();
    rmSync(workdir, { recursive: true, force: true });
  };
  return { workdir, emulator, github, close };
}

/**
 * One start of `bundle` as the benchmark times it (after one warm-up start), with `nodeArgs` before the
 * bundle (a `--require` preload, say): what bench/compile-hints.ts reads the start path from.
 */
export async function startActionOnce(node: string, bundle: string, nodeArgs: readonly string[]): Promise<ActionSample> {
  const { workdir, emulator, github, close } = await openStage(2);
  try {
    await actionStart(node, bundle, [], emulator, github, emulator.extraTokens[0]!, workdir, 0);
    return await actionStart(node, bundle, nodeArgs, emulator, github, emulator.extraTokens[1]!, workdir, 1);
  } finally {
    await close();
  }
}

/** `rounds` of this build's start and the other's, which one goes first alternating (so neither always starts on a warmer machine). */
async function inTurn<T>(rounds: number, current: () => Promise<T>, other: () => Promise<T>): Promise<{ current: T[]; other: T[] }> {
  const results = { current: [] as T[], other: [] as T[] };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      results.current.push(await current());
      results.other.push(await other());
    } else {
      results.other.push(await other());
      results.current.push(await current());
    }
  }
  return results;
}

function nodeVersion(node: string): string {
  return execFileSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
}

/** The Node 24 binary the tests use too (scripts/ensure-node24.mjs fetches it from the npm registry once). */
export function ensureNode24(): string {
  const printed = execFileSync(process.execPath, [join(ROOT, "scripts", "ensure-node24.mjs")], { encoding: "utf8", timeout: 170_000 });
  return printed.trim().split("\n").at(-1)!;
}

const ms = (v: number) => `${formatNumber(v, 0)} ms`;

/** Each action start over the bare start just before it (same moment, same load): the spread of the ratio within one run. */
function pairedRatios(m: NodeMeasurement): number[] {
  return m.action.map((a, i) => a.toCreateMs / m.bare[i]!);
}

function notesFor(m: NodeMeasurement): string[] {
  const toCreate = m.action.map((a) => a.toCreateMs);
  const paired = pairedRatios(m);
  const toFirstGitHub = m.action.map((a) => a.toFirstGitHubMs);
  const toFirstService = m.action.map((a) => a.toFirstServiceMs);
  const callsBeforeCreate = m.action[0]?.githubCallsBeforeCreate ?? [];
  const profileTotal = [...m.profile.values()].reduce((a, b) => a + b, 0);
  const split = ORIGIN_ORDER.filter((origin) => m.profile.has(origin)).map(
    (origin) => `${origin} ${ms(m.profile.get(origin)!)} (${formatNumber((100 * m.profile.get(origin)!) / profileTotal, 0)}%)`,
  );
  return [
    `**Node ${m.version}** (${m.node}): spawn → create p10 ${ms(percentile(toCreate, 10))}, median ${ms(median(toCreate))}, p90 ${ms(percentile(toCreate, 90))}; bare node p10 ${ms(percentile(m.bare, 10))}, p90 ${ms(percentile(m.bare, 90))}. ` +
      `Each start over the bare start just before it: median ${formatNumber(median(paired), 2)}×, p10 ${formatNumber(percentile(paired, 10), 2)}×, p90 ${formatNumber(percentile(paired, 90), 2)}×. ` +
      `Load average (1 min) ${formatNumber(m.load[0], 1)} when the timed starts began, ${formatNumber(m.load[1], 1)} when they ended, on ${cpus().length} cores.`,
    `Node ${m.version}, where the time goes (medians): loading and evaluating the bundle ${ms(median(m.loadOnly) - median(m.bare))} beyond bare node (spawn → exit of the bundle with no inputs: ${ms(median(m.loadOnly))}); ` +
      `spawn → the first GitHub request answered ${ms(median(toFirstGitHub))} (the entry's head start sends the step's GitHub reads before it loads the runner, so the answers and the load overlap); ` +
      `the service's first request (the repository list, asked ahead) arrives at ${ms(median(toFirstService))}; ` +
      `then ${ms(median(toCreate) - median(toFirstGitHub))} to the create request: the rest of the load, ${callsBeforeCreate.length} GitHub request(s) answered in all (${callsBeforeCreate.join(", ") || "none"}), the service's repository list (asked while GitHub answers) and preparing the run. ` +
      `Spawn → exit (outputs and summary written) ${ms(median(m.action.map((a) => a.toExitMs)))}. ` +
      `Over HTTPS, as on a runner, loading TLS adds ${ms(median(m.withHttps) - median(m.withHttp))} (node -e loading node:http and node:https ${ms(median(m.withHttps))} against node:http alone ${ms(median(m.withHttp))}): the fake GitHub and the emulator speak plain HTTP, so the starts above do not pay it.`,
    `Node ${m.version}, CPU self time of a whole start under \`--cpu-prof\` (median of ${PROFILED_STARTS}, the profiler adds its own overhead): ${split.join(", ")}.`,
  ];
}

/** The build to compare with: a path to its index.js, or a git ref whose committed dist/ is written to a temporary folder. */
function compareBuild(ref: string): { bundle: string; label: string } {
  if (existsSync(ref)) return { bundle: resolve(ref), label: ref };
  const dir = mkdtempSync(join(tmpdir(), "arb-bench-compare-"));
  const archive = execFileSync("git", ["archive", ref, "dist"], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  const commit = execFileSync("git", ["rev-parse", "--short", ref], { cwd: ROOT, encoding: "utf8" }).trim();
  return { bundle: join(dir, "dist", "index.js"), label: `the dist/ of ${commit}` };
}

function comparedRows(compared: { current: ActionSample[]; other: ActionSample[] }, otherLabel: string, nodeLabel: string): BenchRow[] {
  const of = (samples: ActionSample[], pick: (s: ActionSample) => number) => median(samples.map(pick));
  const toCreate = (s: ActionSample) => s.toCreateMs;
  const cpu = (s: ActionSample) => s.cpuToCreateMs ?? Number.NaN;
  const where = nodeLabel ? `, ${nodeLabel}` : "";
  return [
    {
      benchmark: NAME,
      figure: `spawn → create request${where}, this dist/ and ${otherLabel} in turn (median)`,
      value: ms(of(compared.current, toCreate)),
      baseline: ms(of(compared.other, toCreate)),
      ratio: ratioOf(of(compared.current, toCreate), of(compared.other, toCreate)),
      target: "—",
      met: "n/a",
    },
    {
      benchmark: NAME,
      figure: `main thread CPU time to the create request${where}, this dist/ and ${otherLabel} in turn (median)`,
      value: `${formatNumber(of(compared.current, cpu), 1)} ms`,
      baseline: `${formatNumber(of(compared.other, cpu), 1)} ms`,
      ratio: ratioOf(of(compared.current, cpu), of(compared.other, cpu)),
      target: "—",
      met: "n/a",
    },
  ];
}

function instructionRow(counted: { current: number[]; other: number[] }, otherLabel: string, nodeLabel: string): BenchRow {
  const millions = (count: number) => `${formatNumber(count / 1e6, 1)} M`;
  return {
    benchmark: NAME,
    figure: `instructions from the start to the create request${nodeLabel ? `, ${nodeLabel}` : ""}, under Valgrind's cachegrind without V8's random hash-seed search, this dist/ and ${otherLabel} in turn (median of ${counted.current.length})`,
    value: millions(median(counted.current)),
    baseline: millions(median(counted.other)),
    ratio: ratioOf(median(counted.current), median(counted.other), 3),
    target: "—",
    met: "n/a",
  };
}

/** Profiled starts per Node version (after the timed ones). */
const PROFILED_STARTS = 5;

export async function runColdStartBenchmark(options: ColdStartOptions = {}): Promise<BenchResult> {
  const samples = options.samples ?? 15;
  const bundle = options.bundle ?? join(ROOT, "dist", "index.js");
  const nodeArgs = options.nodeArgs ?? [];
  const target = "≤ 3× bare node (stretch 2×)";
  if (options.instructions && !options.compare) throw new Error("--instructions counts with --compare <git ref or index.js> only");
  const valgrind = options.instructions ? valgrindVersion() : null;
  if (options.instructions && valgrind === null) {
    throw new Error("--instructions needs Valgrind on the PATH (Debian: apt-get install valgrind)");
  }
  if (!existsSync(bundle)) {
    return {
      benchmark: NAME,
      scale: null,
      notes: [`${bundle} does not exist: run \`npm run build:action\` first.`],
      rows: [unavailableRow(NAME, "spawn → create request (median)", "dist/index.js is missing (npm run build:action)", target)],
    };
  }
  // Runners start actions on Node 24; Node 20 is this project's own.
  const nodes: Array<{ label: string; path: string | null; why?: string }> = [];
  if (options.node) nodes.push({ label: "", path: options.node });
  else {
    try {
      nodes.push({ label: "Node 24", path: ensureNode24() });
    } catch (error) {
      nodes.push({ label: "Node 24", path: null, why: `no Node 24 binary (${(error as Error).message.split("\n")[0]})` });
    }
    nodes.push({ label: `Node ${process.versions.node.split(".")[0]}`, path: process.execPath });
  }

  const notes: string[] = [
    `${samples} starts of each kind after one warm-up, interleaved (bare node, the bundle alone, the action); then ${PROFILED_STARTS} starts under the CPU profiler; no time scaling (a start is real time).`,
    `The action gets every input at action.yml's default plus api-url (the emulator), prompt, wait: false and a github-token, a workflow_dispatch payload from @octokit/webhooks-examples, GITHUB_API_URL = a fake GitHub; each start has its own service token.`,
    `Spawn → create: performance.now() before spawn() to the emulator's onRequest hook for that token's POST ${API_PATHS.createRun(BENCH_ORG_ID)} (same process, same clock): the action's first service request. ` +
      `It includes what the action asks GitHub first (its configuration file, its identity, the repository's recent comments for the spend limits, the dispatching sender's repository role).`,
    `With a network: ${NETWORK_STARTS} more starts with a front in front of the fake GitHub and the emulator that holds each request and each answer for half of ${NETWORK_ROUND_TRIP_MS} ms (bench/lib/network-front.ts; new connections cost no extra round trip there, as TCP and TLS make them on a real network). ` +
      `A create cannot arrive sooner than half a round trip after it is sent, and needs the configuration file's answer first: the Action sends its GitHub reads and the service's repository list together, before it loads the runner, so they cost about one round trip in all instead of one per dependent step.`,
  ];
  const rows: BenchRow[] = [];
  const other = options.compare ? compareBuild(options.compare) : null;
  if (other)
    notes.push(
      `Compared with ${other.label}: ${samples} starts of each build in turn after the rest, on ${nodes[0]?.label || "this Node"} only` +
        (valgrind
          ? `; then ${INSTRUCTION_STARTS} starts of each in turn under ${valgrind}'s cachegrind (cache simulation off), each ended when its create request starts, its instructions counted without V8's hash-seed prime search (8 to 21 million at random per process).`
          : "."),
    );
  for (const [n, { label, path, why }] of nodes.entries()) {
    const figure = `spawn → create request${label ? `, ${label}` : ""} (median)`;
    if (path === null) {
      rows.push(unavailableRow(NAME, figure, why ?? "unavailable", target));
      continue;
    }
    const m = await measureOn(path, bundle, samples, PROFILED_STARTS, nodeArgs, n === 0 && other ? other.bundle : null, valgrind !== null);
    const toCreate = median(m.action.map((a) => a.toCreateMs));
    const bare = median(m.bare);
    notes.push(...notesFor(m));
    rows.push({
      benchmark: NAME,
      figure,
      value: ms(toCreate),
      baseline: `${ms(bare)} (node -e "")`,
      ratio: ratioOf(toCreate, bare),
      target,
      met: yesNo(toCreate <= 3 * bare),
    });
    const oneGet = median(m.withRequest);
    rows.push({
      benchmark: NAME,
      figure: `spawn → exit of node -e sending one GET over node:http${label ? `, ${label}` : ""} (median): the floor of a start that asks before it writes`,
      value: ms(oneGet),
      baseline: `${ms(bare)} (node -e "")`,
      ratio: ratioOf(oneGet, bare),
      target: "—",
      met: "n/a",
    });
    const withTls = toCreate + Math.max(0, median(m.withHttps) - median(m.withHttp));
    rows.push({
      benchmark: NAME,
      figure: `spawn → create request${label ? `, ${label}` : ""}, plus loading TLS as a start over HTTPS would (estimate)`,
      value: ms(withTls),
      baseline: `${ms(bare)} (node -e "")`,
      ratio: ratioOf(withTls, bare),
      target: "—",
      met: "n/a",
    });
    if (m.compared && other) rows.push(...comparedRows(m.compared, other.label, label));
    if (m.instructions && other) rows.push(instructionRow(m.instructions, other.label, label));
    const overNetwork = median(m.overNetwork.map((a) => a.toCreateMs));
    rows.push({
      benchmark: NAME,
      figure: `spawn → create request${label ? `, ${label}` : ""}, ${NETWORK_ROUND_TRIP_MS} ms per round trip to GitHub and the service (median of ${NETWORK_STARTS})`,
      value: ms(overNetwork),
      baseline: `${ms(toCreate)} on loopback (round trips added: ${formatNumber((overNetwork - toCreate) / NETWORK_ROUND_TRIP_MS, 1)})`,
      ratio: ratioOf(overNetwork, toCreate),
      target: "—",
      met: "n/a",
    });
  }
  const dir = dirname(bundle);
  const files = readdirSync(dir).filter((name) => name.endsWith(".js"));
  const sizeOf = (names: readonly string[]) => names.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  const headStart = staticClosure(dir, [basename(bundle)]);
  const everyStep = staticClosure(dir, [basename(bundle), ...dynamicImports(dir, basename(bundle))]);
  const mib = (bytes: number) => `${formatNumber(bytes / 1024 / 1024)} MiB`;
  rows.push({
    benchmark: NAME,
    figure: "dist/: loaded before the first GitHub request (the entry and the head start)",
    value: `${formatNumber(sizeOf(headStart) / 1024, 0)} KiB`,
    baseline: `${mib(sizeOf(everyStep))} loaded by every step (with the runner), ${mib(sizeOf(files))} in all (${files.length} files; ${mib(gzipSync(Buffer.concat(everyStep.map((name) => readFileSync(join(dir, name))))).length)} gzipped for every step)`,
    ratio: ratioOf(sizeOf(headStart), sizeOf(everyStep)),
    target: "—",
    met: "n/a",
  });
  return { benchmark: NAME, scale: null, notes, rows };
}

/** The files of dist/ that `roots` load by static imports, themselves included. */
function staticClosure(dir: string, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const [, next] of readFileSync(join(dir, name), "utf8").matchAll(/\b(?:from|import)\s*"\.\/([^"]+)"/g)) visit(next!);
  };
  roots.forEach(visit);
  return [...seen];
}

/** The files one file loads by `import()`. */
function dynamicImports(dir: string, name: string): string[] {
  return [...readFileSync(join(dir, name), "utf8").matchAll(/\bimport\("\.\/([^"]+)"\)/g)].map((m) => m[1]!);
}

if (isMainModule(import.meta.url)) {
  const at = process.argv.indexOf("--compare");
  const compare = at === -1 ? undefined : process.argv[at + 1];
  if (at !== -1 && !compare) throw new Error("--compare needs a git ref or the path of another build's index.js");
  const instructions = process.argv.includes("--instructions");
  runAsScript(() => runColdStartBenchmark({ ...(compare ? { compare } : {}), ...(instructions ? { instructions } : {}) }));
}
