/** Shared set-up for the GitHub I/O tests: a fake GitHub on port 0 and a real Probot octokit against it. */
import { ProbotOctokit } from "probot";
import { afterEach } from "vitest";
import { startFakeGitHub, type FakeGitHub, type FakeGitHubSeed } from "../../helpers/fake-github/index.js";

// Only the function form turns Probot's retries and throttling off (facts.md).
const TestOctokit = ProbotOctokit.defaults((options: object) => ({
  ...options,
  retry: { enabled: false },
  throttle: { enabled: false },
}));

export type TestOctokit = InstanceType<typeof TestOctokit>;

export function octokitFor(fake: FakeGitHub, token: string | null = "test"): TestOctokit {
  return new TestOctokit({ ...(token === null ? {} : { auth: { token } }), baseUrl: fake.url });
}

const running: FakeGitHub[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((fake) => fake.close()));
});

/** Starts a fake that is closed after the current test. */
export async function startFake(seed: FakeGitHubSeed = {}): Promise<FakeGitHub> {
  const fake = await startFakeGitHub({ seed });
  running.push(fake);
  return fake;
}

export const REPO = { owner: "acme", repo: "widgets" };

/**
 * The recorded calls as `METHOD /path?query → status`, in order: comparing it with an exact list
 * checks that every expected call happened and that no other call did.
 */
export function callSummary(fake: FakeGitHub): string[] {
  return fake.requests.map(
    (r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query).toString()}` : ""} → ${r.status}`,
  );
}
