import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator/index.js";
import type { CliIo, ShutdownSignal } from "../../../src/cli/context.js";
import { runCli } from "../../../src/cli/main.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface MemoryIoOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  isTTY?: boolean;
  cwd?: string;
}

/** In-memory streams and a signal source the test can fire, for runCli in-process. */
export function memoryIo(options: MemoryIoOptions = {}) {
  let stdout = "";
  let stderr = "";
  const handlers = new Set<(signal: ShutdownSignal) => void>();
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    env: options.env ?? {},
    isTTY: options.isTTY ?? false,
    cwd: options.cwd,
    onSignal: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
  };
  return {
    io,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Delivers a signal to whatever the CLI is listening with; false when nobody listens. */
    signal(name: ShutdownSignal): boolean {
      const current = [...handlers];
      for (const handler of current) handler(name);
      return current.length > 0;
    },
  };
}

/** The environment that points the CLI at an emulator, polling fast enough for its time scale. */
export function envFor(emulator: RunningEmulator, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    AGENT_RUN_API_URL: emulator.url,
    AGENT_RUN_API_TOKEN: emulator.token,
    AGENT_RUN_ORG_ID: String(emulator.orgId),
    AGENT_RUN_POLL_INTERVAL: "0.01",
    ...extra,
  };
}

export async function cli(argv: string[], options: MemoryIoOptions = {}): Promise<CliResult> {
  const memory = memoryIo(options);
  const code = await runCli(argv, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

/**
 * An emulator at 1/1000 of real time: the default run (20 s emulated) lasts 20 ms. Its rate limits
 * are off because each CLI invocation has a fresh client budget, and a test file makes more calls
 * per scaled window than one user would; the CLI's rate handling belongs to the client's tests.
 */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ timeScale: 0.001, rateLimits: false, ...options });
}

/** Parses stdout that must be exactly one JSON document. */
export function parseJson<T = Record<string, unknown>>(stdout: string): T {
  return JSON.parse(stdout) as T;
}

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The CLI as a real child process, the way a shell runs it (`node --import tsx src/cli/bin.ts …`), run to its exit. */
export function cliProcess(
  argv: string[],
  options: { cwd?: string; stdin?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliResult> {
  // tsx by its path: the working directory may be a temporary repository with no node_modules.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const child = spawn(process.execPath, ["--import", tsx, `${ROOT}src/cli/bin.ts`, ...argv], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.stdin ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
