import { configDefaults, defineConfig } from "vitest/config";

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // GitHub's workflow parser imports its schema as JSON without an import attribute, which Node's own loader refuses:
  // Vite's transform reads it instead.
  server: { deps: { inline: ["@actions/workflow-parser"] } },
};

/** Redis, and Node 24 with better-sqlite3 compiled for it (test/setup/node24.ts), for the projects that start the App on it. */
const WITH_NODE24 = ["test/setup/redis.ts", "test/setup/node24.ts"];

/** Test files run each in a fresh module graph (vitest's `isolate`); the others share their worker's. */
const ISOLATED = [
  "test/unit/**/*.test.ts",
  "test/integration/action/**/*.test.ts",
  "test/integration/engine/sweeps.test.ts",
  "test/integration/flows/repository-id.test.ts",
  "test/integration/github/actions-octokit.test.ts",
  "test/integration/github/actions-octokit-proxy.test.ts",
];

export default defineConfig({
  test: {
    pool: "forks",
    // A Redis for the distributed backend's tests: the one on REDIS_URL, or a throwaway redis-server (test/setup/redis.ts).
    globalSetup: ["test/setup/redis.ts"],
    // Two cores: integration tests start real servers; keep contention bounded.
    maxWorkers: 2,
    projects: [
      // test/image/ builds the container image: `npm run test:image` (vitest.image.config.ts) runs it apart.
      // The App's end-to-end tests run the App on Node 24, with better-sqlite3 compiled for it (test/setup/node24.ts).
      // Files that get a module graph of their own: the unit tests; the tests that run the Action in-process (its runner keeps
      // @actions/core's process-wide state: test/integration/action/, and repository-id's); the two that set GITHUB_API_URL or
      // a proxy before @actions/github is first imported, which reads them then; the engine's round-robin sweep test, which
      // failed once in a shared worker (cause not pinned down, so it stays apart).
      {
        test: {
          ...shared,
          name: "isolated",
          include: ISOLATED,
          globalSetup: WITH_NODE24,
        },
      },
      // The rest share their workers' imports: each file would otherwise import the App's whole stack again
      // (about 200 s of the suite's time on two cores, spent importing).
      {
        test: {
          ...shared,
          name: "shared",
          isolate: false,
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/image/**", ...ISOLATED],
          globalSetup: WITH_NODE24,
        },
      },
      // The App's behaviour suites again, on the distributed backend (Redis + BullMQ): both backends must pass the same tests.
      { test: { ...shared, name: "app-on-redis", include: ["test/integration/app/**/*.test.ts"], env: { APP_TEST_BACKEND: "redis" } } },
    ],
  },
});
