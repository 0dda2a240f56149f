/**
 * Parses a raw webhook `(name, payload)` once into a `BridgeEvent` (types.ts). Only the fields read
 * here are validated (payloads.ts); the raw payload is kept, typed by `@octokit/webhooks-types`, for
 * anything else.
 */
import {
  parseKnown,
  RepositorySchema,
  UserSchema,
  type CommonPayload,
  type IssuePayload,
  type KnownEventName,
  type LinkedPullRequestPayload,
  type PullRequestPayload,
  type RepositoryPayload,
  type UserPayload,
} from "./payloads.js";
import type {
  Actor,
  BridgeEvent,
  CheckSuiteBridgeEvent,
  EventCommon,
  IssueCommentBridgeEvent,
  IssuesBridgeEvent,
  LinkedPullRequest,
  OtherBridgeEvent,
  PullRequestBridgeEvent,
  PullRequestRef,
  PullRequestReviewBridgeEvent,
  PullRequestReviewCommentBridgeEvent,
  RepositoryFacts,
  ThreadKind,
  ThreadRef,
  WorkflowRunBridgeEvent,
} from "./types.js";

// ---------------------------------------------------------------------------------------------
// Normalisation

const actor = (user: UserPayload): Actor => ({ login: user.login, type: user.type ?? "User" });

function repoRef(repository: RepositoryPayload): RepositoryFacts {
  const [ownerFromName = "", nameFromFull = repository.name] = repository.full_name.split("/");
  const owner = repository.owner?.login ?? ownerFromName;
  return {
    owner,
    name: repository.name || nameFromFull,
    fullName: repository.full_name,
    id: repository.id,
    private: repository.private ?? false,
    htmlUrl: (repository.html_url ?? `https://github.com/${repository.full_name}`).replace(/\/+$/, ""),
    defaultBranch: repository.default_branch ?? null,
  };
}

function common(name: string, payload: CommonPayload): EventCommon {
  return {
    name,
    action: payload.action ?? null,
    repo: repoRef(payload.repository),
    installationId: payload.installation?.id ?? null,
    sender: actor(payload.sender),
  };
}

/** An issue or a pull request as a thread: both payloads carry the same fields. */
function threadOf(kind: ThreadKind, item: IssuePayload | PullRequestPayload): ThreadRef {
  return {
    kind,
    number: item.number,
    url: item.html_url,
    title: item.title,
    body: item.body,
    author: item.user ? actor(item.user) : null,
    state: item.state,
    labels: item.labels,
  };
}

const issueThread = (issue: IssuePayload): ThreadRef => threadOf(issue.pull_request ? "pull_request" : "issue", issue);

function pullRequestRef(pr: PullRequestPayload): PullRequestRef {
  const headRepo = pr.head.repo ?? null;
  return {
    number: pr.number,
    url: pr.html_url,
    headRef: pr.head.ref,
    headSha: pr.head.sha,
    baseRef: pr.base.ref,
    headRepoFullName: headRepo?.full_name ?? null,
    // A deleted head repository can only have been a fork.
    isFork: headRepo === null || headRepo.id !== pr.base.repo.id,
    draft: pr.draft ?? false,
  };
}

/** What the events on a pull request's review carry: the common facts, the pull request as a thread and its refs. */
function onPullRequest(name: string, payload: CommonPayload & { pull_request: PullRequestPayload }) {
  return {
    ...common(name, payload),
    thread: threadOf("pull_request", payload.pull_request),
    pullRequest: pullRequestRef(payload.pull_request),
  };
}

function linkedPullRequests(list: ReadonlyArray<LinkedPullRequestPayload> | null | undefined, repo: RepositoryFacts): LinkedPullRequest[] {
  // A suite's commit can also be the head of a pull request in another repository (this one is
  // then the fork): that pull request is not ours to act on.
  return (list ?? [])
    .filter((pr) => pr.base.repo.id === repo.id)
    .map((pr) => ({
      number: pr.number,
      url: `${repo.htmlUrl}/pull/${pr.number}`,
      headRef: pr.head.ref,
      headSha: pr.head.sha,
      baseRef: pr.base.ref,
      isFork: pr.head.repo.id !== pr.base.repo.id,
    }));
}

// ---------------------------------------------------------------------------------------------
// One parser per event the bridge acts on

function parseIssueComment(payload: unknown): IssueCommentBridgeEvent {
  const p = parseKnown("issue_comment", payload);
  const c = p.comment;
  return {
    kind: "issue_comment",
    ...common("issue_comment", p),
    thread: issueThread(p.issue),
    comment: { id: c.id, body: c.body, url: c.html_url, author: actor(c.user), createdAt: c.created_at },
    raw: payload as IssueCommentBridgeEvent["raw"],
  };
}

function parseIssues(payload: unknown): IssuesBridgeEvent {
  const p = parseKnown("issues", payload);
  return {
    kind: "issues",
    ...common("issues", p),
    thread: issueThread(p.issue),
    label: p.label ? { name: p.label.name } : null,
    raw: payload as IssuesBridgeEvent["raw"],
  };
}

function parsePullRequest(payload: unknown): PullRequestBridgeEvent {
  const p = parseKnown("pull_request", payload);
  return { kind: "pull_request", ...onPullRequest("pull_request", p), raw: payload as PullRequestBridgeEvent["raw"] };
}

function parseReview(payload: unknown): PullRequestReviewBridgeEvent {
  const p = parseKnown("pull_request_review", payload);
  const r = p.review;
  return {
    kind: "pull_request_review",
    ...onPullRequest("pull_request_review", p),
    review: {
      id: r.id,
      body: r.body,
      state: r.state.toLowerCase(),
      url: r.html_url,
      commitId: r.commit_id,
      author: r.user ? actor(r.user) : null,
    },
    raw: payload as PullRequestReviewBridgeEvent["raw"],
  };
}

function parseReviewComment(payload: unknown): PullRequestReviewCommentBridgeEvent {
  const p = parseKnown("pull_request_review_comment", payload);
  const c = p.comment;
  return {
    kind: "pull_request_review_comment",
    ...onPullRequest("pull_request_review_comment", p),
    comment: {
      id: c.id,
      body: c.body,
      url: c.html_url,
      author: actor(c.user),
      createdAt: c.created_at,
      path: c.path,
      line: c.line ?? c.original_line,
      startLine: c.start_line,
      diffHunk: c.diff_hunk,
      reviewId: c.pull_request_review_id,
      inReplyToId: c.in_reply_to_id,
      commitId: c.commit_id,
    },
    raw: payload as PullRequestReviewCommentBridgeEvent["raw"],
  };
}

function parseCheckSuite(payload: unknown): CheckSuiteBridgeEvent {
  const p = parseKnown("check_suite", payload);
  const base = common("check_suite", p);
  const s = p.check_suite;
  return {
    kind: "check_suite",
    ...base,
    checkSuite: {
      id: s.id,
      status: s.status,
      conclusion: s.conclusion,
      headSha: s.head_sha,
      headBranch: s.head_branch,
      url: `${base.repo.htmlUrl}/commit/${s.head_sha}/checks`,
      app: s.app ? { id: s.app.id ?? null, slug: s.app.slug ?? null, name: s.app.name ?? null } : null,
      pullRequests: linkedPullRequests(s.pull_requests, base.repo),
    },
    raw: payload as CheckSuiteBridgeEvent["raw"],
  };
}

function parseWorkflowRun(payload: unknown): WorkflowRunBridgeEvent {
  const p = parseKnown("workflow_run", payload);
  const base = common("workflow_run", p);
  const r = p.workflow_run;
  const headRepo = r.head_repository ?? null;
  return {
    kind: "workflow_run",
    ...base,
    workflowRun: {
      id: r.id,
      name: r.name ?? "",
      displayTitle: r.display_title ?? null,
      status: r.status,
      conclusion: r.conclusion,
      headSha: r.head_sha,
      headBranch: r.head_branch,
      url: r.html_url,
      event: r.event,
      runAttempt: r.run_attempt ?? 1,
      runNumber: r.run_number,
      checkSuiteId: r.check_suite_id,
      workflowId: r.workflow_id,
      headRepoFullName: headRepo?.full_name ?? null,
      isFork: headRepo !== null && headRepo.id !== base.repo.id,
      pullRequests: linkedPullRequests(r.pull_requests, base.repo),
    },
    raw: payload as WorkflowRunBridgeEvent["raw"],
  };
}

const PARSERS: { readonly [N in KnownEventName]: (payload: unknown) => BridgeEvent } = {
  issue_comment: parseIssueComment,
  issues: parseIssues,
  pull_request: parsePullRequest,
  pull_request_review: parseReview,
  pull_request_review_comment: parseReviewComment,
  check_suite: parseCheckSuite,
  workflow_run: parseWorkflowRun,
};

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

function parseOther(name: string, payload: unknown): OtherBridgeEvent {
  const record = asRecord(payload);
  const repository = RepositorySchema.safeParse(record?.repository);
  const sender = UserSchema.safeParse(record?.sender);
  const installation = asRecord(record?.installation);
  return {
    kind: "other",
    name,
    action: typeof record?.action === "string" ? record.action : null,
    repo: repository.success ? repoRef(repository.data) : null,
    installationId: typeof installation?.id === "number" ? installation.id : null,
    sender: sender.success ? actor(sender.data) : null,
    raw: payload,
  };
}

/**
 * Parses a webhook. Unknown event names become `other`; a known event whose payload lacks a
 * field the bridge reads throws `EventPayloadError` naming the field.
 */
export function parseWebhookEvent(name: string, payload: unknown): BridgeEvent {
  return Object.hasOwn(PARSERS, name) ? PARSERS[name as KnownEventName](payload) : parseOther(name, payload);
}
