/**
 * `agent-run app` as a child process between a fake GitHub (reached as a GitHub Enterprise Server on
 * loopback, since a child process cannot be handed a fetch) and the emulator: the world of the App's
 * end-to-end tests that read its logs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseMarker } from "../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { BOT_LOGIN, SCALE, appEnv, seedHumanComment } from "./app-harness.js";
import { FULL_NAME } from "./app-payloads.js";
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

/** The fake GitHub and the emulator an App child process talks to, before any App is started. */
export interface AppChildServices {
  github: FakeGitHub;
  emulator: RunningEmulator;
  /** The child's environment: its data directory, the fake GitHub as a GHES and the emulator, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** A maintainer's comment on issue `issueNumber`, stored in the fake GitHub, as its issue_comment payload. */
  comment(issueNumber: number, body: string): object;
  /** The markers of the bot's comments on issue `issueNumber`, in order. */
  results(issueNumber: number): ReturnType<typeof parseMarker>[];
}

/** Starts the fake GitHub with `seed` and the emulator; each one's cleanup, and its data directory's, goes onto `cleanups`. */
export async function startAppChildServices(options: {
  seed: FakeGitHubSeed;
  cleanups: Array<() => Promise<unknown> | unknown>;
}): Promise<AppChildServices> {
  const github = await startFakeGitHub({ seed: options.seed });
  const emulator = await startEmulator({ timeScale: SCALE });
  const dataDir = mkdtempSync(join(tmpdir(), "arb-app-child-"));
  options.cleanups.push(
    () => github.close(),
    () => emulator.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  return {
    github,
    emulator,
    env: (extra = {}) => childAppEnv(emulator, dataDir, github.url, extra),
    comment: (issueNumber, body) => seedHumanComment(github, { number: issueNumber, title: `Issue ${issueNumber}` }, body).payload,
    results: (issueNumber) =>
      github
        .commentsOn(FULL_NAME, issueNumber)
        .filter((c) => c.user.login === BOT_LOGIN)
        .map((c) => parseMarker(c.body)),
  };
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
  const { github, emulator, env } = await startAppChildServices(options);
  const app = await startAppChild(env({ LOG_LEVEL: "info", LOG_FORMAT: "json", ...options.env }), "the app");
  options.cleanups.push(() => app.kill());
  return { github, emulator, app };
}
