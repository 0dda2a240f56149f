import { defineConfig } from "vitest/config";

/**
 * `npm run test:image`: builds the container image and runs it (test/image/). Apart from `npm test`, whose time
 * budget a build (minutes on two cores) would exceed; `.ci/run` runs both.
 */
export default defineConfig({
  test: {
    pool: "forks",
    // The two-replica test shares the Redis the suite uses (test/setup/redis.ts finds or starts one).
    globalSetup: ["test/setup/redis.ts"],
    include: ["test/image/**/*.test.ts"],
    // One image build at a time: it takes both cores.
    maxWorkers: 1,
    testTimeout: 240_000,
    hookTimeout: 900_000,
  },
});
