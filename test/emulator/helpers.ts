/** Real-HTTP helpers for the emulator tests: every call goes over loopback with global fetch. */
import { afterEach } from "vitest";
import { API_ROUTES, startEmulator } from "../../src/emulator/index.js";
import type { ApiRouteName, EmulatorOptions, RunningEmulator } from "../../src/emulator/index.js";
import { API_PATHS } from "../../src/service/wire.js";
import type { AgentRun, AgentRunWithLogs } from "../../src/service/wire.js";

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  /** JSON body; `rawBody` sends text as is. */
  body?: unknown;
  rawBody?: string;
  /** Bearer token; null sends no Authorization header. Default: the emulator's token. */
  token?: string | null;
  headers?: Record<string, string>;
}

const running: RunningEmulator[] = [];

/** Starts an emulator that is closed after the current test. */
export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator(options);
  running.push(emu);
  return emu;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

export async function call<T = unknown>(
  emu: RunningEmulator,
  method: "GET" | "POST",
  path: string,
  options: CallOptions = {},
): Promise<HttpAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? emu.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(`${emu.url}${path}`, { method, headers, body });
  const text = await response.text();
  const isJson = response.headers.get("content-type")?.includes("application/json") ?? false;
  return { status: response.status, headers: response.headers, body: (isJson ? JSON.parse(text) : text) as T };
}

export function createRun(emu: RunningEmulator, body: unknown, options: Omit<CallOptions, "body"> = {}) {
  return call<AgentRun>(emu, "POST", API_PATHS.createRun(emu.orgId), { ...options, body });
}

export function getRun(emu: RunningEmulator, runId: number, options: CallOptions = {}) {
  return call<AgentRun>(emu, "GET", API_PATHS.getRun(emu.orgId, runId), options);
}

export function resumeRun(emu: RunningEmulator, runId: number, prompt: string, options: CallOptions = {}) {
  return call<AgentRun>(emu, "POST", API_PATHS.resumeRun(emu.orgId), { body: { agent_run_id: runId, prompt }, ...options });
}

export function runLogs(emu: RunningEmulator, runId: number, query = "", options: CallOptions = {}) {
  return call<AgentRunWithLogs>(emu, "GET", `${API_PATHS.runLogs(emu.orgId, runId)}${query}`, options);
}

/** An API route's path with arbitrary (possibly invalid) path parameters, to test validation. */
export function routePath(name: ApiRouteName, params: { org_id: string | number; agent_run_id?: string | number }): string {
  return API_ROUTES[name].url.replace(":org_id", String(params.org_id)).replace(":agent_run_id", String(params.agent_run_id ?? ""));
}

/** Finishes every run at once: one emulated day passes. */
export function finishAllRuns(emu: RunningEmulator): void {
  emu.control.advanceTime(24 * 60 * 60 * 1000);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The `detail` of a FastAPI validation error, as loc paths joined by dots. */
export function issueLocations(body: unknown): string[] {
  const detail = (body as { detail: Array<{ loc: Array<string | number> }> }).detail;
  return detail.map((d) => d.loc.join("."));
}
