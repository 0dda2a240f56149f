/**
 * Renders fake records in GitHub's REST response shapes (the fields clients read, with GitHub's
 * names, nesting and null conventions). Pure functions of the state and two base URLs.
 */
import {
  REACTION_CONTENTS,
  findRepository,
  type FakeAnnotation,
  type FakeApp,
  type FakeCheckRun,
  type FakeCheckSuite,
  type FakeGitHubState,
  type FakeInstallation,
  type FakeIssue,
  type FakeIssueComment,
  type FakeJob,
  type FakeReaction,
  type FakeRepository,
  type FakeReview,
  type FakeReviewComment,
  type FakeUser,
  type FakeWorkflowRun,
  type ReactionTargetKind,
} from "./state.js";

export interface RenderContext {
  state: FakeGitHubState;
  /** API base URL of the fake, e.g. http://127.0.0.1:PORT */
  api: string;
  /** Web base URL used in html_url fields. */
  html: string;
}

type Json = Record<string, unknown>;

export function renderUser(ctx: RenderContext, user: FakeUser): Json {
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId("U", user.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    url: `${ctx.api}/users/${encodeURIComponent(user.login)}`,
    html_url: `${ctx.html}/${user.login}`,
    type: user.type,
    site_admin: false,
  };
}

/** A user known only by login (an owner, a team member) rendered without inventing a record. */
function renderLogin(ctx: RenderContext, login: string): Json {
  const user = ctx.state.users.get(login.toLowerCase());
  return user ? renderUser(ctx, user) : renderUser(ctx, { login, id: stableId(login), type: "User" });
}

export function renderApp(ctx: RenderContext, app: FakeApp): Json {
  return {
    id: app.id,
    slug: app.slug,
    node_id: nodeId("A", app.id),
    client_id: `Iv1.${app.id.toString(16).padStart(16, "0")}`,
    owner: renderLogin(ctx, app.owner),
    name: app.name,
    description: "",
    external_url: `${ctx.html}/apps/${app.slug}`,
    html_url: `${ctx.html}/apps/${app.slug}`,
    created_at: "2024-01-01T00:00:00Z",
    updated_at: "2024-01-01T00:00:00Z",
    permissions: APP_PERMISSIONS,
    events: APP_EVENTS,
    installations_count: 1,
  };
}

export const APP_PERMISSIONS = {
  actions: "read",
  checks: "read",
  contents: "read",
  issues: "write",
  members: "read",
  metadata: "read",
  pull_requests: "write",
};
const APP_EVENTS = [
  "check_suite",
  "issue_comment",
  "issues",
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "workflow_run",
];

export function renderInstallation(ctx: RenderContext, installation: FakeInstallation, app: FakeApp): Json {
  return {
    id: installation.id,
    account: renderLogin(ctx, installation.account),
    app_id: app.id,
    app_slug: app.slug,
    target_id: stableId(installation.account),
    target_type: "Organization",
    repository_selection: "all",
    access_tokens_url: `${ctx.api}/app/installations/${installation.id}/access_tokens`,
    repositories_url: `${ctx.api}/installation/repositories`,
    html_url: `${ctx.html}/organizations/${installation.account}/settings/installations/${installation.id}`,
    permissions: APP_PERMISSIONS,
    events: APP_EVENTS,
    created_at: "2024-01-01T00:00:00Z",
    updated_at: "2024-01-01T00:00:00Z",
    single_file_name: null,
    suspended_at: null,
  };
}

export function renderRepository(ctx: RenderContext, repo: FakeRepository): Json {
  const fullName = `${repo.owner}/${repo.name}`;
  return {
    id: repo.id,
    node_id: nodeId("R", repo.id),
    name: repo.name,
    full_name: fullName,
    owner: renderLogin(ctx, repo.owner),
    private: repo.private,
    visibility: repo.private ? "private" : "public",
    fork: repo.fork,
    html_url: `${ctx.html}/${fullName}`,
    url: `${ctx.api}/repos/${fullName}`,
    default_branch: repo.default_branch,
    archived: false,
    disabled: false,
  };
}

/** The `repo` of a pull request's head or base, which may be a fork the fake has no record of. */
function renderRepoByName(ctx: RenderContext, fullName: string, fork: boolean): Json {
  const known = findRepository(ctx.state, fullName);
  if (known) return { ...renderRepository(ctx, known), fork: fork || known.fork };
  const [owner = "", name = ""] = fullName.split("/");
  return renderRepository(ctx, { id: stableId(fullName), owner, name, default_branch: "main", private: false, fork });
}

function renderReactionRollup(ctx: RenderContext, repo: string, kind: ReactionTargetKind, id: number, url: string): Json {
  const mine = ctx.state.reactions.filter((r) => r.repo === repo && r.target.kind === kind && r.target.id === id);
  const rollup: Json = { url: `${url}/reactions`, total_count: mine.length };
  for (const content of REACTION_CONTENTS) rollup[content] = mine.filter((r) => r.content === content).length;
  return rollup;
}

export function renderReaction(ctx: RenderContext, reaction: FakeReaction): Json {
  return {
    id: reaction.id,
    node_id: nodeId("REA", reaction.id),
    user: renderUser(ctx, reaction.user),
    content: reaction.content,
    created_at: reaction.created_at,
  };
}

function issueHtmlUrl(ctx: RenderContext, issue: FakeIssue): string {
  return `${ctx.html}/${issue.repo}/${issue.pull_request ? "pull" : "issues"}/${issue.number}`;
}

export function renderIssue(ctx: RenderContext, issue: FakeIssue): Json {
  const url = `${ctx.api}/repos/${issue.repo}/issues/${issue.number}`;
  const html = issueHtmlUrl(ctx, issue);
  return {
    id: issue.id,
    node_id: nodeId("I", issue.id),
    url,
    repository_url: `${ctx.api}/repos/${issue.repo}`,
    comments_url: `${url}/comments`,
    html_url: html,
    number: issue.number,
    state: issue.state,
    state_reason: issue.state === "closed" ? "completed" : null,
    title: issue.title,
    body: issue.body,
    user: renderUser(ctx, issue.user),
    labels: issue.labels.map((name, index) => ({
      id: stableId(`${issue.repo}:label:${name}`),
      name,
      color: "ededed",
      default: false,
      description: null,
      node_id: nodeId("L", index),
    })),
    assignee: null,
    assignees: [],
    locked: issue.locked,
    active_lock_reason: null,
    comments: ctx.state.issueComments.filter((c) => c.repo === issue.repo && c.issue_number === issue.number).length,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    author_association: authorAssociation(ctx, issue.repo, issue.user),
    ...(issue.pull_request
      ? {
          pull_request: {
            url: `${ctx.api}/repos/${issue.repo}/pulls/${issue.number}`,
            html_url: html,
            diff_url: `${html}.diff`,
            patch_url: `${html}.patch`,
            merged_at: issue.pull_request.merged ? issue.updated_at : null,
          },
          draft: issue.pull_request.draft,
        }
      : {}),
    reactions: renderReactionRollup(ctx, issue.repo, "issue", issue.number, url),
  };
}

export function renderPull(ctx: RenderContext, issue: FakeIssue): Json {
  const pr = issue.pull_request;
  if (!pr) throw new Error(`renderPull: #${issue.number} is not a pull request`);
  const repository = findRepository(ctx.state, issue.repo);
  const [owner = ""] = issue.repo.split("/");
  const headOwner = pr.head.repo ? (pr.head.repo.full_name.split("/")[0] ?? owner) : owner;
  const url = `${ctx.api}/repos/${issue.repo}/pulls/${issue.number}`;
  return {
    id: issue.id,
    node_id: nodeId("PR", issue.id),
    url,
    html_url: issueHtmlUrl(ctx, issue),
    diff_url: `${issueHtmlUrl(ctx, issue)}.diff`,
    patch_url: `${issueHtmlUrl(ctx, issue)}.patch`,
    issue_url: `${ctx.api}/repos/${issue.repo}/issues/${issue.number}`,
    comments_url: `${ctx.api}/repos/${issue.repo}/issues/${issue.number}/comments`,
    review_comments_url: `${url}/comments`,
    number: issue.number,
    state: issue.state,
    locked: issue.locked,
    title: issue.title,
    body: issue.body,
    user: renderUser(ctx, issue.user),
    labels: renderIssue(ctx, issue).labels,
    draft: pr.draft,
    merged: pr.merged,
    merged_at: pr.merged ? issue.updated_at : null,
    mergeable: issue.state === "open" ? true : null,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    author_association: authorAssociation(ctx, issue.repo, issue.user),
    head: {
      label: `${headOwner}:${pr.head.ref}`,
      ref: pr.head.ref,
      sha: pr.head.sha,
      user: renderLogin(ctx, headOwner),
      repo: pr.head.repo ? renderRepoByName(ctx, pr.head.repo.full_name, pr.head.repo.fork) : null,
    },
    base: {
      label: `${owner}:${pr.base.ref}`,
      ref: pr.base.ref,
      sha: pr.base.sha,
      user: renderLogin(ctx, owner),
      repo: repository ? renderRepository(ctx, repository) : renderRepoByName(ctx, issue.repo, false),
    },
    comments: ctx.state.issueComments.filter((c) => c.repo === issue.repo && c.issue_number === issue.number).length,
    review_comments: ctx.state.reviewComments.filter((c) => c.repo === issue.repo && c.pull_number === issue.number).length,
  };
}

export function renderIssueComment(ctx: RenderContext, comment: FakeIssueComment): Json {
  const issue = ctx.state.issues.find((i) => i.repo === comment.repo && i.number === comment.issue_number);
  const issuePage = issue ? issueHtmlUrl(ctx, issue) : `${ctx.html}/${comment.repo}/issues/${comment.issue_number}`;
  const url = `${ctx.api}/repos/${comment.repo}/issues/comments/${comment.id}`;
  return {
    id: comment.id,
    node_id: nodeId("IC", comment.id),
    url,
    html_url: `${issuePage}#issuecomment-${comment.id}`,
    issue_url: `${ctx.api}/repos/${comment.repo}/issues/${comment.issue_number}`,
    body: comment.body,
    user: renderUser(ctx, comment.user),
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    author_association: authorAssociation(ctx, comment.repo, comment.user),
    performed_via_github_app: comment.performed_via_github_app ? renderApp(ctx, comment.performed_via_github_app) : null,
    reactions: renderReactionRollup(ctx, comment.repo, "issue_comment", comment.id, url),
  };
}

export function renderReview(ctx: RenderContext, review: FakeReview): Json {
  return {
    id: review.id,
    node_id: nodeId("PRR", review.id),
    user: renderUser(ctx, review.user),
    body: review.body,
    state: review.state,
    html_url: `${ctx.html}/${review.repo}/pull/${review.pull_number}#pullrequestreview-${review.id}`,
    pull_request_url: `${ctx.api}/repos/${review.repo}/pulls/${review.pull_number}`,
    commit_id: review.commit_id,
    submitted_at: review.submitted_at,
    author_association: authorAssociation(ctx, review.repo, review.user),
  };
}

export function renderReviewComment(ctx: RenderContext, comment: FakeReviewComment): Json {
  const url = `${ctx.api}/repos/${comment.repo}/pulls/comments/${comment.id}`;
  return {
    id: comment.id,
    node_id: nodeId("PRRC", comment.id),
    url,
    pull_request_review_id: comment.review_id,
    diff_hunk: comment.diff_hunk,
    path: comment.path,
    position: comment.line,
    original_position: comment.line,
    line: comment.line,
    original_line: comment.line,
    side: comment.side,
    commit_id: comment.commit_id,
    original_commit_id: comment.commit_id,
    in_reply_to_id: comment.in_reply_to_id ?? undefined,
    user: renderUser(ctx, comment.user),
    body: comment.body,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    html_url: `${ctx.html}/${comment.repo}/pull/${comment.pull_number}#discussion_r${comment.id}`,
    pull_request_url: `${ctx.api}/repos/${comment.repo}/pulls/${comment.pull_number}`,
    author_association: authorAssociation(ctx, comment.repo, comment.user),
    reactions: renderReactionRollup(ctx, comment.repo, "review_comment", comment.id, url),
  };
}

export function renderCheckRun(ctx: RenderContext, suite: FakeCheckSuite, run: FakeCheckRun): Json {
  const url = `${ctx.api}/repos/${suite.repo}/check-runs/${run.id}`;
  return {
    id: run.id,
    node_id: nodeId("CR", run.id),
    head_sha: suite.head_sha,
    external_id: "",
    url,
    html_url: run.html_url,
    details_url: run.details_url,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.started_at,
    completed_at: run.completed_at,
    name: run.name,
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.annotations.length,
      annotations_url: `${url}/annotations`,
    },
    check_suite: { id: suite.id },
    app: { id: suite.app.id, slug: suite.app.slug, name: suite.app.name },
    pull_requests: [],
  };
}

export function renderAnnotation(ctx: RenderContext, suite: FakeCheckSuite, a: FakeAnnotation): Json {
  return {
    path: a.path,
    blob_href: `${ctx.html}/${suite.repo}/blob/${suite.head_sha}/${a.path}`,
    start_line: a.start_line,
    end_line: a.end_line,
    start_column: a.start_column,
    end_column: a.end_column,
    annotation_level: a.annotation_level,
    title: a.title,
    message: a.message,
    raw_details: a.raw_details,
  };
}

export function renderWorkflowRun(ctx: RenderContext, run: FakeWorkflowRun): Json {
  const url = `${ctx.api}/repos/${run.repo}/actions/runs/${run.id}`;
  const repository = findRepository(ctx.state, run.repo);
  return {
    id: run.id,
    name: run.name,
    node_id: nodeId("WFR", run.id),
    head_branch: run.head_branch,
    head_sha: run.head_sha,
    path: ".github/workflows/ci.yml",
    run_number: run.id % 1000,
    run_attempt: run.run_attempt,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflow_id,
    url,
    html_url: `${ctx.html}/${run.repo}/actions/runs/${run.id}`,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    created_at: run.created_at,
    updated_at: run.created_at,
    run_started_at: run.created_at,
    pull_requests: run.pull_requests.flatMap((number) => {
      const pr = ctx.state.issues.find((i) => i.repo === run.repo && i.number === number && i.pull_request);
      if (!pr?.pull_request) return [];
      return [
        {
          id: pr.id,
          number: pr.number,
          url: `${ctx.api}/repos/${run.repo}/pulls/${pr.number}`,
          head: { ref: pr.pull_request.head.ref, sha: pr.pull_request.head.sha },
          base: { ref: pr.pull_request.base.ref, sha: pr.pull_request.base.sha },
        },
      ];
    }),
    repository: repository ? renderRepository(ctx, repository) : null,
  };
}

export function renderJob(ctx: RenderContext, run: FakeWorkflowRun, job: FakeJob): Json {
  const url = `${ctx.api}/repos/${run.repo}/actions/jobs/${job.id}`;
  return {
    id: job.id,
    run_id: run.id,
    run_url: `${ctx.api}/repos/${run.repo}/actions/runs/${run.id}`,
    run_attempt: run.run_attempt,
    node_id: nodeId("J", job.id),
    head_sha: run.head_sha,
    head_branch: run.head_branch,
    url,
    html_url: `${ctx.html}/${run.repo}/actions/runs/${run.id}/job/${job.id}`,
    status: job.status,
    conclusion: job.conclusion,
    created_at: job.started_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
    name: job.name,
    steps: job.steps.map((s) => ({
      name: s.name,
      status: s.status,
      conclusion: s.conclusion,
      number: s.number,
      started_at: job.started_at,
      completed_at: job.completed_at,
    })),
    check_run_url: `${ctx.api}/repos/${run.repo}/check-runs/${job.id}`,
    labels: ["ubuntu-latest"],
    runner_id: 1,
    runner_name: "GitHub Actions 1",
    runner_group_id: 1,
    runner_group_name: "GitHub Actions",
    workflow_name: run.name,
  };
}

/** GitHub's author_association, derived from the fake's collaborator list. */
function authorAssociation(ctx: RenderContext, repo: string, user: FakeUser): string {
  const [owner = ""] = repo.split("/");
  if (user.login.toLowerCase() === owner.toLowerCase()) return "OWNER";
  const collaborator = ctx.state.collaborators.find((c) => c.repo === repo && c.login.toLowerCase() === user.login.toLowerCase());
  if (collaborator && collaborator.permission !== "none") return "COLLABORATOR";
  return "NONE";
}

function nodeId(prefix: string, id: number): string {
  return `${prefix}_${Buffer.from(String(id)).toString("base64url")}`;
}

/** A stable positive id for things known only by name (forks, owners without a user record). */
function stableId(name: string): number {
  let h = 0x811c9dc5;
  for (const ch of name.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return 10_000_000 + (h % 89_999_999);
}
