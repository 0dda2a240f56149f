import { configDefaults, defineConfig } from "vitest/config";

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // GitHub's workflow parser imports its schema as JSON without an import attribute, which Node's own loader refuses:
  // Vite's transform reads it instead.
  server: { deps: { inline: ["@actions/workflow-parser"] } },
};

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
      {
        test: {
          ...shared,
          name: "all",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/image/**"],
          globalSetup: ["test/setup/redis.ts", "test/setup/node24.ts"],
        },
      },
      // The App's behaviour suites again, on the distributed backend (Redis + BullMQ): both backends must pass the same tests.
      { test: { ...shared, name: "app-on-redis", include: ["test/integration/app/**/*.test.ts"], env: { APP_TEST_BACKEND: "redis" } } },
    ],
  },
});
