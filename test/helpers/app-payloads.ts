/**
 * Real webhook payloads from `@octokit/webhooks-examples`, adapted to the repository the app tests
 * seed into the fake GitHub: the repository, installation, thread, comment and user fields are
 * replaced, and the trigger's times are now (a delivery follows its trigger within seconds, and the
 * App ignores triggers older than its replay window); everything else stays as GitHub sent it.
 */
import { createRequire } from "node:module";
import type { WebhookDefinition } from "@octokit/webhooks-examples";
import type { WebhookEventMap, WebhookEventName } from "@octokit/webhooks-types";
import { DEFAULT_INSTALLATION_ID } from "./fake-github/index.js";

export const OWNER = "octo-org";
export const REPO = "widgets";
export const FULL_NAME = `${OWNER}/${REPO}`;
export const REPO_ID = 4242;
export const INSTALLATION_ID = DEFAULT_INSTALLATION_ID;
export const HTML = `https://github.com/${FULL_NAME}`;

const definitions = createRequire(import.meta.url)("@octokit/webhooks-examples") as WebhookDefinition[];

function example<N extends WebhookEventName>(name: N, matches: (payload: WebhookEventMap[N]) => boolean): WebhookEventMap[N] {
  const found = (definitions.find((d) => d.name === name)?.examples as WebhookEventMap[N][] | undefined)?.find(matches);
  if (!found) throw new Error(`no example of ${name} matches`);
  return structuredClone(found);
}

type Json = Record<string, unknown>;

function user(template: unknown, login: string): Json {
  const type = login.endsWith("[bot]") ? "Bot" : "User";
  let id = 0;
  for (const c of login) id = (id * 31 + c.charCodeAt(0)) % 1_000_000;
  return { ...(template as Json), login, id: 10_000 + id, type, html_url: `https://github.com/${login}` };
}

/** Points a payload at the seeded repository and the fake's installation. */
function adapt<T extends object>(payload: T): T {
  const p = payload as unknown as Json;
  const repository = p.repository as Json;
  p.repository = {
    ...repository,
    id: REPO_ID,
    name: REPO,
    full_name: FULL_NAME,
    private: false,
    html_url: HTML,
    default_branch: "main",
    owner: { ...(repository.owner as Json), login: OWNER, type: "Organization" },
  };
  p.installation = { id: INSTALLATION_ID, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMjAwMg==" };
  const now = new Date().toISOString();
  for (const part of ["comment", "review", "issue", "pull_request", "check_suite", "workflow_run"]) {
    const object = p[part] as Json | undefined;
    if (!object || typeof object !== "object") continue;
    for (const stamp of ["created_at", "updated_at", "submitted_at"]) if (stamp in object) object[stamp] = now;
  }
  return payload;
}

/** Every example of an event in @octokit/webhooks-examples, pointed at the seeded repository and installation. */
export function everyExample<N extends WebhookEventName>(name: N): Array<WebhookEventMap[N]> {
  const examples = (definitions.find((d) => d.name === name)?.examples ?? []) as Array<WebhookEventMap[N]>;
  if (examples.length === 0) throw new Error(`no example of ${name}`);
  return examples.map((e) => adapt(structuredClone(e)));
}

/**
 * A payload is sent when its event happens: its times are now, to the second as GitHub writes them,
 * so that comments the fake holds from before the event are not "written after the trigger".
 */
export const eventTime = (at: Date = new Date()) => `${at.toISOString().slice(0, 19)}Z`;

export interface ThreadSpec {
  number: number;
  title?: string;
  body?: string;
  pullRequest?: boolean;
  /** The labels on the issue or pull request (default: the example's). */
  labels?: string[];
}

export function issueCommentPayload(input: {
  thread: ThreadSpec;
  comment: { id: number; body: string; login: string; createdAt?: string; updatedAt?: string };
  action?: "created" | "edited" | "deleted";
}): WebhookEventMap["issue_comment"] {
  const action = input.action ?? "created";
  const payload = adapt(example("issue_comment", (e) => e.action === action));
  const p = payload as unknown as { issue: Json; comment: Json; sender: Json };
  const url = `${HTML}/${input.thread.pullRequest ? "pull" : "issues"}/${input.thread.number}`;
  p.issue = {
    ...p.issue,
    number: input.thread.number,
    title: input.thread.title ?? `Thread #${input.thread.number}`,
    body: input.thread.body ?? "",
    html_url: url,
    state: "open",
    updated_at: input.comment.updatedAt ?? input.comment.createdAt ?? eventTime(),
    user: user(p.issue.user, "octocat"),
    pull_request: input.thread.pullRequest
      ? { url: `https://api.github.com/repos/${FULL_NAME}/pulls/${input.thread.number}`, html_url: url }
      : undefined,
  };
  if (!input.thread.pullRequest) delete p.issue.pull_request;
  if (input.thread.labels)
    p.issue.labels = input.thread.labels.map((name, index) => ({
      id: 7000 + index,
      name,
      color: "ededed",
      default: false,
      description: null,
    }));
  p.comment = {
    ...p.comment,
    id: input.comment.id,
    body: input.comment.body,
    html_url: `${url}#issuecomment-${input.comment.id}`,
    created_at: input.comment.createdAt ?? eventTime(),
    updated_at: input.comment.updatedAt ?? input.comment.createdAt ?? eventTime(),
    user: user(p.comment.user, input.comment.login),
    performed_via_github_app: null,
  };
  p.sender = user(p.sender, input.comment.login);
  return payload;
}

/** The issue's own fields an `issues` payload carries for a thread of the fake. */
const issueFields = (thread: ThreadSpec) => ({
  number: thread.number,
  title: thread.title ?? `Issue #${thread.number}`,
  body: thread.body ?? "",
  html_url: `${HTML}/issues/${thread.number}`,
});

export function issuesLabeledPayload(input: { thread: ThreadSpec; label: string; sender: string }): WebhookEventMap["issues"] {
  const payload = adapt(example("issues", (e) => e.action === "labeled"));
  const p = payload as unknown as { issue: Json; label: Json; sender: Json };
  p.issue = { ...p.issue, ...issueFields(input.thread), updated_at: eventTime(), user: user(p.issue.user, "octocat") };
  delete p.issue.pull_request;
  p.label = { ...p.label, name: input.label };
  p.sender = user(p.sender, input.sender);
  return payload;
}

export interface PullSpec {
  number: number;
  headRef: string;
  headSha: string;
  baseRef?: string;
  title?: string;
  body?: string;
  /** The head lives in a fork (`owner/name`), as GitHub sends it: another repository id, `fork: true`. */
  headRepoFullName?: string;
}

function pullRequest(template: Json, pr: PullSpec): Json {
  const repo = { id: REPO_ID, name: REPO, full_name: FULL_NAME, html_url: HTML, owner: { login: OWNER } };
  const [forkOwner = "", forkName = ""] = pr.headRepoFullName?.split("/") ?? [];
  const headRepo = pr.headRepoFullName
    ? {
        id: REPO_ID + 1,
        name: forkName,
        full_name: pr.headRepoFullName,
        html_url: `https://github.com/${pr.headRepoFullName}`,
        owner: { login: forkOwner },
        fork: true,
      }
    : repo;
  return {
    ...template,
    number: pr.number,
    title: pr.title ?? `Pull request #${pr.number}`,
    body: pr.body ?? "",
    html_url: `${HTML}/pull/${pr.number}`,
    state: "open",
    draft: false,
    head: {
      ...(template.head as Json),
      ref: pr.headRef,
      sha: pr.headSha,
      repo: { ...((template.head as Json).repo as Json), ...headRepo },
    },
    base: { ...(template.base as Json), ref: pr.baseRef ?? "main", repo: { ...((template.base as Json).repo as Json), ...repo } },
  };
}

const labelsOf = (names: readonly string[]) =>
  names.map((name, index) => ({ id: 7000 + index, name, color: "ededed", default: false, description: null }));

/** `issues.opened`: a new issue by `opener`. */
export function issuesOpenedPayload(input: { thread: ThreadSpec; opener: string }): WebhookEventMap["issues"] {
  const payload = adapt(example("issues", (e) => e.action === "opened"));
  const p = payload as unknown as { issue: Json; sender: Json };
  p.issue = {
    ...p.issue,
    ...issueFields(input.thread),
    state: "open",
    labels: labelsOf(input.thread.labels ?? []),
    user: user(p.issue.user, input.opener),
  };
  delete p.issue.pull_request;
  p.sender = user(p.sender, input.opener);
  return payload;
}

/** `pull_request.<action>`: the pull request `opener` opened, the event sent by `sender` (default the opener). */
export function pullRequestPayload(input: {
  action: "opened" | "ready_for_review" | "converted_to_draft" | "synchronize";
  pr: PullSpec & { draft?: boolean; labels?: string[] };
  opener: string;
  sender?: string;
}): WebhookEventMap["pull_request"] {
  const payload = adapt(example("pull_request", (e) => e.action === input.action));
  const p = payload as unknown as { pull_request: Json; sender: Json };
  p.pull_request = {
    ...pullRequest(p.pull_request, input.pr),
    draft: input.pr.draft ?? false,
    labels: labelsOf(input.pr.labels ?? []),
    user: user(p.pull_request.user, input.opener),
  };
  p.sender = user(p.sender, input.sender ?? input.opener);
  return payload;
}

export function reviewSubmittedPayload(input: {
  pr: PullSpec;
  review: { id: number; state: "changes_requested" | "commented" | "approved"; body: string; login: string };
}): WebhookEventMap["pull_request_review"] {
  const payload = adapt(example("pull_request_review", (e) => e.action === "submitted"));
  const p = payload as unknown as { pull_request: Json; review: Json; sender: Json };
  p.pull_request = pullRequest(p.pull_request, input.pr);
  p.review = {
    ...p.review,
    id: input.review.id,
    body: input.review.body,
    state: input.review.state,
    html_url: `${HTML}/pull/${input.pr.number}#pullrequestreview-${input.review.id}`,
    commit_id: input.pr.headSha,
    submitted_at: eventTime(),
    user: user(p.review.user, input.review.login),
  };
  p.sender = user(p.sender, input.review.login);
  return payload;
}

export function reviewCommentPayload(input: {
  pr: PullSpec;
  comment: { id: number; body: string; login: string; path: string; line: number; diffHunk: string; reviewId: number | null };
}): WebhookEventMap["pull_request_review_comment"] {
  const payload = adapt(example("pull_request_review_comment", (e) => e.action === "created"));
  const p = payload as unknown as { pull_request: Json; comment: Json; sender: Json };
  p.pull_request = pullRequest(p.pull_request, input.pr);
  p.comment = {
    ...p.comment,
    id: input.comment.id,
    body: input.comment.body,
    path: input.comment.path,
    line: input.comment.line,
    original_line: input.comment.line,
    start_line: null,
    diff_hunk: input.comment.diffHunk,
    pull_request_review_id: input.comment.reviewId,
    in_reply_to_id: undefined,
    commit_id: input.pr.headSha,
    html_url: `${HTML}/pull/${input.pr.number}#discussion_r${input.comment.id}`,
    created_at: eventTime(),
    updated_at: eventTime(),
    user: user(p.comment.user, input.comment.login),
  };
  delete p.comment.in_reply_to_id;
  p.sender = user(p.sender, input.comment.login);
  return payload;
}

export function checkSuiteCompletedPayload(input: {
  id: number;
  conclusion: "failure" | "success" | "timed_out";
  headSha: string;
  headBranch: string;
  pullRequests: Array<{ number: number; fromFork?: boolean }>;
  appSlug?: string;
}): WebhookEventMap["check_suite"] {
  const payload = adapt(example("check_suite", (e) => e.action === "completed"));
  const p = payload as unknown as { check_suite: Json; sender: Json };
  const template = ((p.check_suite.pull_requests as Json[])[0] ?? {}) as Json;
  p.check_suite = {
    ...p.check_suite,
    id: input.id,
    conclusion: input.conclusion,
    status: "completed",
    head_sha: input.headSha,
    head_branch: input.headBranch,
    app: { ...(p.check_suite.app as Json), slug: input.appSlug ?? "github-actions", name: "GitHub Actions" },
    pull_requests: input.pullRequests.map((pr) => ({
      ...template,
      number: pr.number,
      url: `https://api.github.com/repos/${FULL_NAME}/pulls/${pr.number}`,
      head: {
        ref: input.headBranch,
        sha: input.headSha,
        repo: { id: pr.fromFork ? REPO_ID + 1 : REPO_ID, url: "", name: pr.fromFork ? "widgets-fork" : REPO },
      },
      base: { ref: "main", sha: "0".repeat(40), repo: { id: REPO_ID, url: "", name: REPO } },
    })),
  };
  // The check suite's sender is whoever pushed the commit.
  p.sender = user(p.sender, "maintainer");
  return payload;
}
