/**
 * Parsed events built from real example payloads, adapted only where a test needs it.
 */
import type { IssuesLabeledEvent } from "@octokit/webhooks-types";
import type { z } from "zod";
import { parseRepoConfig, type RepoConfig, type repoConfigSchema } from "../../../src/config/schema.js";
import { parseWebhookEvent } from "../../../src/core/events/parse.js";
import type { BridgeEvent } from "../../../src/core/events/types.js";
import { hasAction, webhookExample } from "./webhook-examples.js";

export function repoConfig(input: z.input<ReturnType<typeof repoConfigSchema>> = {}): RepoConfig {
  const result = parseRepoConfig(input);
  if (!result.ok) throw new Error(result.errors.join("\n"));
  return result.config;
}

export interface ActorOptions {
  login?: string;
  type?: "User" | "Bot";
}

function setActor(user: { login: string; type: string }, options: ActorOptions) {
  if (options.login) user.login = options.login;
  if (options.type) user.type = options.type;
}

export function commentEvent(body: string, options: ActorOptions & { action?: string; onPullRequest?: boolean } = {}): BridgeEvent {
  const payload = webhookExample("issue_comment", hasAction(options.action ?? "created"));
  payload.comment.body = body;
  if (options.onPullRequest) {
    (payload.issue as unknown as Record<string, unknown>).pull_request = {
      url: `https://api.github.com/repos/${payload.repository.full_name}/pulls/${payload.issue.number}`,
    };
    payload.issue.html_url = `${payload.repository.html_url}/pull/${payload.issue.number}`;
  }
  setActor(payload.comment.user, options);
  setActor(payload.sender, options);
  return parseWebhookEvent("issue_comment", payload);
}

export function labelEvent(label: string, options: ActorOptions = {}): BridgeEvent {
  const payload = webhookExample("issues", (p) => p.action === "labeled") as IssuesLabeledEvent;
  payload.label!.name = label;
  setActor(payload.sender, options);
  return parseWebhookEvent("issues", payload);
}

export function reviewEvent(state: string, body: string | null, options: ActorOptions & { action?: string } = {}): BridgeEvent {
  const payload = webhookExample("pull_request_review", hasAction(options.action ?? "submitted"));
  (payload.review as unknown as Record<string, unknown>).state = state;
  payload.review.body = body;
  setActor(payload.review.user, options);
  setActor(payload.sender, options);
  return parseWebhookEvent("pull_request_review", payload);
}

export function reviewCommentEvent(body: string, options: ActorOptions & { action?: string } = {}): BridgeEvent {
  const payload = webhookExample("pull_request_review_comment", (p) => p.action === (options.action ?? "created") && "line" in p.comment);
  payload.comment.body = body;
  setActor(payload.comment.user, options);
  setActor(payload.sender, options);
  return parseWebhookEvent("pull_request_review_comment", payload);
}

export interface CiOptions {
  action?: string;
  headRef?: string;
  forkPullRequest?: boolean;
  noPullRequests?: boolean;
  appSlug?: string;
}

export function checkSuiteEvent(conclusion: string | null, options: CiOptions = {}): BridgeEvent {
  const payload = webhookExample(
    "check_suite",
    (p) => p.action === (options.action ?? "completed") && p.check_suite.pull_requests.length > 0,
  );
  (payload.check_suite as unknown as Record<string, unknown>).conclusion = conclusion;
  if (options.appSlug) (payload.check_suite.app as unknown as Record<string, unknown>).slug = options.appSlug;
  for (const pr of payload.check_suite.pull_requests) {
    if (options.headRef) pr.head.ref = options.headRef;
    if (options.forkPullRequest) pr.head.repo.id = 424242;
  }
  if (options.noPullRequests) payload.check_suite.pull_requests = [];
  return parseWebhookEvent("check_suite", payload);
}

export function workflowRunEvent(conclusion: string | null, options: CiOptions & { forkRun?: boolean } = {}): BridgeEvent {
  const payload = webhookExample(
    "workflow_run",
    (p) => p.action === (options.action ?? "completed") && p.workflow_run.pull_requests.length > 0,
  );
  (payload.workflow_run as unknown as Record<string, unknown>).conclusion = conclusion;
  // Adapted: the example's pull request belongs to another repository; make it this one's.
  for (const pr of payload.workflow_run.pull_requests) {
    pr.base.repo.id = payload.repository.id;
    pr.head.repo.id = options.forkPullRequest ? 424242 : payload.repository.id;
    if (options.headRef) pr.head.ref = options.headRef;
  }
  if (options.forkRun)
    payload.workflow_run.head_repository = { ...payload.workflow_run.head_repository, id: 424242, full_name: "someone/octo-repo" };
  if (options.noPullRequests) payload.workflow_run.pull_requests = [];
  payload.workflow_run.name = "CI";
  return parseWebhookEvent("workflow_run", payload);
}
