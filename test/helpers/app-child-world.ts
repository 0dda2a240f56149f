/**
 * `agent-run app` as a child process between a fake GitHub (reached as a GitHub Enterprise Server on
 * loopback, since a child process cannot be handed a fetch) and the emulator: the world of the App's
 * end-to-end tests that read its logs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { SCALE, appEnv } from "./app-harness.js";
import { startAppChild, type AppChild } from "./app-process.js";
import { startFakeGitHub, type FakeGitHub, type FakeGitHubSeed } from "./fake-github/index.js";

/** `appEnv` for a child process whose GitHub is the fake at `githubUrl`. */
export function childAppEnv(
  service: { url: string; token: string; orgId: number },
  dataDir: string,
  githubUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return appEnv(service, dataDir, { GHE_HOST: new URL(githubUrl).host, GHE_PROTOCOL: "http", ...extra });
}

export interface AppChildWorld {
  github: FakeGitHub;
  emulator: RunningEmulator;
  app: AppChild;
}

/**
 * Starts the fake GitHub with `seed`, the emulator and the App (JSON logs at info on stdout, plus `env`).
 * Each piece's cleanup goes onto `cleanups`, to be run in reverse order.
 */
export async function startAppChildWorld(options: {
  seed: FakeGitHubSeed;
  env?: Record<string, string>;
  cleanups: Array<() => Promise<void> | void>;
}): Promise<AppChildWorld> {
  const { cleanups } = options;
  const github = await startFakeGitHub({ seed: options.seed });
  const emulator = await startEmulator({ timeScale: SCALE });
  const dataDir = mkdtempSync(join(tmpdir(), "arb-app-child-"));
  cleanups.push(
    () => github.close(),
    () => emulator.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const env = childAppEnv(emulator, dataDir, github.url, { LOG_LEVEL: "info", LOG_FORMAT: "json", ...options.env });
  const app = await startAppChild(env, "the app");
  cleanups.push(() => app.kill());
  return { github, emulator, app };
}
