/** Thin I/O over an octokit: every function takes `(octokit, repo, …)`, never a Probot context. */
export * from "./client.js";
export * from "./errors.js";
export * from "./comments.js";
export * from "./reactions.js";
export * from "./permissions.js";
export * from "./pulls.js";
export * from "./checks.js";
export * from "./attachments.js";
export * from "./pacing.js";
export * from "./deliveries.js";
