/**
 * A loopback fake of the GitHub REST API for tests, the demo and benchmarks: it answers the
 * endpoints the bridge uses with GitHub's shapes and status codes, and keeps what the bot wrote.
 */
export { startFakeGitHub, type FakeGitHub } from "./server.js";
export { describeWrite, secondaryRateLimitFault, type FakeWrite, type RecordedRequest } from "./recorder.js";
export { createPng } from "./png.js";
export {
  DEFAULT_INSTALLATION_ID,
  fakeSha,
  pushToPullRequest,
  type CheckSuiteSeed,
  type FakeGitHubSeed,
  type FakeIssueComment,
  type IssueCommentSeed,
  type ReviewSeed,
} from "./state.js";
