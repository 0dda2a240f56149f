/**
 * What the fake GitHub knows: a mutable in-memory model of the few GitHub objects the bridge reads
 * and writes, plus `applySeed`, which turns a concise seed (optional fields, logins as strings)
 * into complete records. Pure data and pure functions; the HTTP layer lives in server.ts.
 */
import { randomUUID, type KeyObject } from "node:crypto";

export type RepoPermission = "admin" | "maintain" | "write" | "triage" | "read" | "none";
type UserType = "User" | "Bot" | "Organization";
export type ReactionContent = "+1" | "-1" | "laugh" | "confused" | "heart" | "hooray" | "rocket" | "eyes";
export const REACTION_CONTENTS: readonly ReactionContent[] = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"];
export type ReactionTargetKind = "issue_comment" | "review_comment" | "issue";

export interface FakeUser {
  login: string;
  id: number;
  type: UserType;
}
/** A login (`"octocat"`, `"renovate[bot]"` is a Bot) or a full user. */
export type UserSeed = string | { login: string; type?: UserType; id?: number };

export interface FakeApp {
  id: number;
  slug: string;
  name: string;
  /** Login of the account that owns the app. */
  owner: string;
}
export interface FakeInstallation {
  id: number;
  /** Login of the account the app is installed on. */
  account: string;
}

export interface FakeRepository {
  id: number;
  owner: string;
  name: string;
  default_branch: string;
  private: boolean;
  fork: boolean;
}

export interface FakePullRequestFields {
  head: { ref: string; sha: string; repo: { full_name: string; fork: boolean } | null };
  base: { ref: string; sha: string };
  draft: boolean;
  merged: boolean;
  /** Paths of the files the pull request changes (`GET …/pulls/{n}/files`). */
  files: string[];
  /** Each file's unified-diff patch (GitHub's `patch` field); a file without one has none (binary, too large). */
  patches: Record<string, string>;
  /** The pull request's commits, oldest first, its head last: a review's commit_id must be one of them. */
  commits: string[];
  /** The diff as it stood at each commit (by SHA): a review's lines resolve in the diff at its commit_id, as on GitHub. */
  patchesAt: Record<string, Record<string, string>>;
}

/** An issue or, when `pull_request` is set, a pull request (GitHub numbers both in one sequence). */
export interface FakeIssue {
  /** `owner/name` of the repository. */
  repo: string;
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  user: FakeUser;
  labels: string[];
  locked: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  pull_request: FakePullRequestFields | null;
}

export interface FakeIssueComment {
  repo: string;
  id: number;
  issue_number: number;
  body: string;
  user: FakeUser;
  /** The app that wrote it, for comments written by an app's bot user. */
  performed_via_github_app: FakeApp | null;
  created_at: string;
  updated_at: string;
}

export interface FakeReview {
  repo: string;
  id: number;
  pull_number: number;
  user: FakeUser;
  body: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";
  commit_id: string;
  submitted_at: string;
}

export interface FakeReviewComment {
  repo: string;
  id: number;
  pull_number: number;
  review_id: number | null;
  body: string;
  path: string;
  line: number | null;
  side: "LEFT" | "RIGHT";
  diff_hunk: string;
  commit_id: string;
  in_reply_to_id: number | null;
  user: FakeUser;
  created_at: string;
  updated_at: string;
}

export interface FakeReaction {
  repo: string;
  id: number;
  /** `id` is the comment id, or the issue number for `kind: "issue"`. */
  target: { kind: ReactionTargetKind; id: number };
  content: ReactionContent;
  user: FakeUser;
  created_at: string;
}

interface FakeCollaborator {
  repo: string;
  login: string;
  permission: RepoPermission;
}

interface FakeTeam {
  org: string;
  slug: string;
  members: { login: string; role: "member" | "maintainer"; state: "active" | "pending" }[];
}

export interface FakeAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column: number | null;
  end_column: number | null;
  annotation_level: "notice" | "warning" | "failure";
  title: string | null;
  message: string;
  raw_details: string | null;
}

type CheckStatus = "queued" | "in_progress" | "completed";
type CheckConclusion =
  "success" | "failure" | "neutral" | "cancelled" | "skipped" | "timed_out" | "action_required" | "startup_failure" | "stale";

export interface FakeCheckRun {
  id: number;
  name: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  output: { title: string | null; summary: string | null; text: string | null };
  html_url: string | null;
  details_url: string | null;
  started_at: string;
  completed_at: string | null;
  annotations: FakeAnnotation[];
}

export interface FakeCheckSuite {
  repo: string;
  id: number;
  head_sha: string;
  head_branch: string | null;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  app: { id: number; slug: string; name: string };
  check_runs: FakeCheckRun[];
}

interface FakeJobStep {
  number: number;
  name: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
}

export interface FakeJob {
  id: number;
  name: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  started_at: string;
  completed_at: string | null;
  steps: FakeJobStep[];
  /** Plain-text log served through the 302 download redirect; null answers 410 Gone (expired). */
  log: FakeJobLog | null;
}

/**
 * A job's log: its text, or a source of chunks made on the fly at each download, for a log too
 * large to hold (a failing job's 256 MiB of output).
 */
export type FakeJobLog = string | (() => AsyncIterable<string | Uint8Array>);

export interface FakeJobLogDownload {
  jobId: number;
  /** The request's Range header, or null. */
  range: string | null;
  status: number;
  /** Bytes of the log sent (counted as they left, whole or partial). */
  bytesSent: number;
}

export interface FakeWorkflowRun {
  repo: string;
  id: number;
  name: string;
  workflow_id: number;
  head_branch: string;
  head_sha: string;
  event: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  run_attempt: number;
  pull_requests: number[];
  created_at: string;
  jobs: FakeJob[];
}

export interface FakeFile {
  repo: string;
  path: string;
  /** Branch name; files seeded without one live on the repository's default branch. */
  ref: string;
  content: Buffer;
}

interface FakeAttachment {
  id: string;
  bytes: Buffer;
  content_type: string;
  /** Private-repository attachments need an Authorization header (like github.com). */
  private: boolean;
}

/** An App created through the manifest flow (routes/app-manifests.ts). */
export interface FakeManifestApp {
  app: FakeApp;
  /** The manifest as GitHub's page received it (JSON-parsed). */
  manifest: Record<string, unknown>;
  /** Where the page was posted: the signed-in user's settings or an organization's. */
  registeredFor: "user" | "organization";
  /** The `state` the page was posted with (GitHub hands it back in the redirect). */
  state: string | undefined;
  code: string;
  codeCreatedAt: Date;
  codeUsed: boolean;
  pem: string;
  publicKey: KeyObject;
  webhookSecret: string;
  clientSecret: string;
}

export interface FakeGitHubState {
  app: FakeApp;
  /** Apps created through the manifest flow, in order; the last converted one becomes `app`. */
  manifestApps: FakeManifestApp[];
  /** Once an App was registered and converted: `GET /app` then requires a JWT signed with its key and issued for its id. */
  appPublicKey?: KeyObject;
  installation: FakeInstallation;
  /** Every installation of the app: `installation` first, then the seeded others (other organizations). */
  installations: FakeInstallation[];
  /** Who writes comments and reactions (the app's bot user unless seeded otherwise). */
  writer: FakeUser;
  users: Map<string, FakeUser>;
  repositories: FakeRepository[];
  issues: FakeIssue[];
  issueComments: FakeIssueComment[];
  reviews: FakeReview[];
  reviewComments: FakeReviewComment[];
  reactions: FakeReaction[];
  collaborators: FakeCollaborator[];
  teams: FakeTeam[];
  checkSuites: FakeCheckSuite[];
  workflowRuns: FakeWorkflowRun[];
  files: FakeFile[];
  attachments: FakeAttachment[];
  /**
   * Whether job-log downloads honour `Range` as blob storage does (206 with the bytes asked for,
   * 416 past the end); false: they answer every download whole (200), like a server without ranges.
   */
  jobLogRanges: boolean;
  /** Every job-log download served: the range asked for and the log bytes sent. */
  jobLogDownloads: FakeJobLogDownload[];
  /** Next id handed out for anything created by a request or by a seed without an id. */
  nextId: number;
  now: () => Date;
}

// ---------------------------------------------------------------------------------------------
// Seeds: the same shapes with optional fields. `repo` ("owner/name") defaults to the first
// seeded repository; repositories referenced but not seeded are created with defaults.

interface RepositorySeed {
  owner: string;
  name: string;
  id?: number;
  default_branch?: string;
  private?: boolean;
  fork?: boolean;
}

interface IssueSeed {
  repo?: string;
  number: number;
  title?: string;
  body?: string | null;
  state?: "open" | "closed";
  user?: UserSeed;
  labels?: string[];
  locked?: boolean;
  id?: number;
  created_at?: string;
}

interface PullRequestSeed extends IssueSeed {
  head: { ref: string; sha?: string; repo?: { full_name: string; fork?: boolean } | null };
  base?: { ref?: string; sha?: string };
  draft?: boolean;
  merged?: boolean;
  files?: string[];
  /** Patches by path (their paths join `files`). */
  patches?: Record<string, string>;
  /** Earlier commits of the pull request, oldest first (the head is added last). */
  commits?: string[];
}

export interface IssueCommentSeed {
  repo?: string;
  issue_number: number;
  body: string;
  user?: UserSeed;
  id?: number;
  created_at?: string;
  updated_at?: string;
  /** True for a comment written by this app's bot user. */
  performed_via_github_app?: boolean;
}

interface ReviewCommentSeed {
  body: string;
  path?: string;
  line?: number | null;
  side?: "LEFT" | "RIGHT";
  diff_hunk?: string;
  id?: number;
  user?: UserSeed;
  in_reply_to_id?: number | null;
  created_at?: string;
}

export interface ReviewSeed {
  repo?: string;
  pull_number: number;
  user?: UserSeed;
  body?: string;
  state?: FakeReview["state"];
  commit_id?: string;
  id?: number;
  submitted_at?: string;
  /** This review's comments (the review's user writes them unless a comment says otherwise). */
  comments?: ReviewCommentSeed[];
}

interface ReactionSeed {
  repo?: string;
  target: { kind: ReactionTargetKind; id: number };
  content: ReactionContent;
  user?: UserSeed;
}

interface CollaboratorSeed {
  repo?: string;
  login: string;
  permission: RepoPermission;
}

interface TeamSeed {
  org: string;
  slug: string;
  members?: (string | { login: string; role?: "member" | "maintainer"; state?: "active" | "pending" })[];
}

interface AnnotationSeed {
  path: string;
  start_line: number;
  end_line?: number;
  start_column?: number | null;
  end_column?: number | null;
  annotation_level?: FakeAnnotation["annotation_level"];
  title?: string | null;
  message: string;
  raw_details?: string | null;
}

interface CheckRunSeed {
  name: string;
  id?: number;
  status?: CheckStatus;
  conclusion?: CheckConclusion | null;
  output?: { title?: string | null; summary?: string | null; text?: string | null };
  html_url?: string | null;
  details_url?: string | null;
  started_at?: string;
  completed_at?: string | null;
  annotations?: AnnotationSeed[];
}

export interface CheckSuiteSeed {
  repo?: string;
  id?: number;
  head_sha: string;
  head_branch?: string | null;
  status?: CheckStatus;
  conclusion?: CheckConclusion | null;
  app?: { id?: number; slug: string; name?: string };
  check_runs?: CheckRunSeed[];
}

interface JobStepSeed {
  name: string;
  number?: number;
  status?: CheckStatus;
  conclusion?: CheckConclusion | null;
}

interface JobSeed {
  name: string;
  id?: number;
  status?: CheckStatus;
  conclusion?: CheckConclusion | null;
  started_at?: string;
  completed_at?: string | null;
  steps?: JobStepSeed[];
  log?: FakeJobLog | null;
}

interface WorkflowRunSeed {
  repo?: string;
  id?: number;
  name?: string;
  workflow_id?: number;
  head_branch: string;
  head_sha: string;
  event?: string;
  status?: CheckStatus;
  conclusion?: CheckConclusion | null;
  run_attempt?: number;
  /** Numbers of the pull requests this run belongs to. */
  pull_requests?: number[];
  created_at?: string;
  jobs?: JobSeed[];
}

interface FileSeed {
  repo?: string;
  path: string;
  content: string | Uint8Array;
  ref?: string;
}

interface AttachmentSeed {
  /** A UUID; generated when absent. */
  id?: string;
  bytes: Uint8Array;
  content_type: string;
  private?: boolean;
}

export interface FakeGitHubSeed {
  app?: { id?: number; slug?: string; name?: string; owner?: string };
  installation?: { id?: number; account?: string };
  /** Further installations of the app (other organizations), e.g. to spread webhooks over several; repositories report `installation`. */
  otherInstallations?: Array<{ id: number; account?: string }>;
  /** Author of everything the bot writes; defaults to `<app slug>[bot]`. */
  writer?: UserSeed;
  repositories?: RepositorySeed[];
  issues?: IssueSeed[];
  pulls?: PullRequestSeed[];
  issueComments?: IssueCommentSeed[];
  reviews?: ReviewSeed[];
  reactions?: ReactionSeed[];
  collaborators?: CollaboratorSeed[];
  teams?: TeamSeed[];
  checkSuites?: CheckSuiteSeed[];
  workflowRuns?: WorkflowRunSeed[];
  files?: FileSeed[];
  attachments?: AttachmentSeed[];
}

const DEFAULT_APP: FakeApp = { id: 1001, slug: "agent-run-bridge", name: "Agent Run Bridge", owner: "agent-run" };
export const DEFAULT_INSTALLATION_ID = 2002;

export function createFakeState(seed: FakeGitHubSeed = {}, now: () => Date = () => new Date()): FakeGitHubState {
  const app: FakeApp = { ...DEFAULT_APP, ...definedOnly(seed.app ?? {}) };
  const firstOwner = seed.repositories?.[0]?.owner ?? "octo-org";
  const installation: FakeInstallation = {
    id: seed.installation?.id ?? DEFAULT_INSTALLATION_ID,
    account: seed.installation?.account ?? firstOwner,
  };
  const others = (seed.otherInstallations ?? []).map((other) => ({ id: other.id, account: other.account ?? `org-${other.id}` }));
  const state: FakeGitHubState = {
    app,
    manifestApps: [],
    installation,
    installations: [installation, ...others],
    writer: { login: `${app.slug}[bot]`, id: 0, type: "Bot" },
    users: new Map(),
    repositories: [],
    issues: [],
    issueComments: [],
    reviews: [],
    reviewComments: [],
    reactions: [],
    collaborators: [],
    teams: [],
    checkSuites: [],
    workflowRuns: [],
    files: [],
    attachments: [],
    jobLogRanges: true,
    jobLogDownloads: [],
    nextId: Math.max(1000, highestSeededId(seed) + 1),
    now,
  };
  state.writer = resolveUser(state, seed.writer ?? { login: `${app.slug}[bot]`, type: "Bot" });
  applySeed(state, seed);
  return state;
}

/** Adds everything in `seed` to `state` (ids are taken from the seed or handed out in order). */
export function applySeed(state: FakeGitHubState, seed: FakeGitHubSeed): void {
  state.nextId = Math.max(state.nextId, highestSeededId(seed) + 1);
  for (const r of seed.repositories ?? []) addRepository(state, r);
  const stamp = () => isoSeconds(state.now());

  for (const s of [...(seed.issues ?? []), ...(seed.pulls ?? [])]) {
    const repo = repoKey(state, s.repo);
    const created = s.created_at ?? stamp();
    const pull = "head" in s ? (s as PullRequestSeed) : null;
    const repository = findRepository(state, repo)!;
    state.issues.push({
      repo,
      id: s.id ?? takeId(state),
      number: s.number,
      title: s.title ?? `${pull ? "Pull request" : "Issue"} #${s.number}`,
      body: s.body === undefined ? "" : s.body,
      state: s.state ?? "open",
      user: resolveUser(state, s.user ?? "octocat"),
      labels: s.labels ?? [],
      locked: s.locked ?? false,
      created_at: created,
      updated_at: created,
      closed_at: s.state === "closed" ? created : null,
      pull_request: pull
        ? {
            head: {
              ref: pull.head.ref,
              sha: pull.head.sha ?? fakeSha(`${repo}#${s.number}:head`),
              repo: pull.head.repo === null ? null : { full_name: pull.head.repo?.full_name ?? repo, fork: pull.head.repo?.fork ?? false },
            },
            base: {
              ref: pull.base?.ref ?? repository.default_branch,
              sha: pull.base?.sha ?? fakeSha(`${repo}#${s.number}:base`),
            },
            draft: pull.draft ?? false,
            merged: pull.merged ?? false,
            files: [...new Set([...(pull.files ?? []), ...Object.keys(pull.patches ?? {})])],
            patches: { ...(pull.patches ?? {}) },
            commits: [...(pull.commits ?? []), pull.head.sha ?? fakeSha(`${repo}#${s.number}:head`)],
            patchesAt: { [pull.head.sha ?? fakeSha(`${repo}#${s.number}:head`)]: { ...(pull.patches ?? {}) } },
          }
        : null,
    });
  }

  for (const c of seed.issueComments ?? []) {
    const repo = repoKey(state, c.repo);
    const created = c.created_at ?? stamp();
    const byApp = c.performed_via_github_app ?? false;
    state.issueComments.push({
      repo,
      id: c.id ?? takeId(state),
      issue_number: c.issue_number,
      body: c.body,
      user: byApp && c.user === undefined ? state.writer : resolveUser(state, c.user ?? "octocat"),
      performed_via_github_app: byApp ? state.app : null,
      created_at: created,
      updated_at: c.updated_at ?? created,
    });
  }

  for (const r of seed.reviews ?? []) {
    const repo = repoKey(state, r.repo);
    const pull = state.issues.find((i) => i.repo === repo && i.number === r.pull_number && i.pull_request);
    const user = resolveUser(state, r.user ?? "octocat");
    const submitted = r.submitted_at ?? stamp();
    const commit = r.commit_id ?? pull?.pull_request?.head.sha ?? fakeSha(`${repo}#${r.pull_number}:head`);
    const review: FakeReview = {
      repo,
      id: r.id ?? takeId(state),
      pull_number: r.pull_number,
      user,
      body: r.body ?? "",
      state: r.state ?? "COMMENTED",
      commit_id: commit,
      submitted_at: submitted,
    };
    state.reviews.push(review);
    for (const c of r.comments ?? []) {
      state.reviewComments.push({
        repo,
        id: c.id ?? takeId(state),
        pull_number: r.pull_number,
        review_id: review.id,
        body: c.body,
        path: c.path ?? "README.md",
        line: c.line === undefined ? 1 : c.line,
        side: c.side ?? "RIGHT",
        diff_hunk: c.diff_hunk ?? "@@ -1,1 +1,1 @@",
        commit_id: commit,
        in_reply_to_id: c.in_reply_to_id ?? null,
        user: c.user === undefined ? user : resolveUser(state, c.user),
        created_at: c.created_at ?? submitted,
        updated_at: c.created_at ?? submitted,
      });
    }
  }

  for (const r of seed.reactions ?? []) {
    state.reactions.push({
      repo: repoKey(state, r.repo),
      id: takeId(state),
      target: { ...r.target },
      content: r.content,
      user: resolveUser(state, r.user ?? "octocat"),
      created_at: stamp(),
    });
  }

  for (const c of seed.collaborators ?? []) {
    state.collaborators.push({ repo: repoKey(state, c.repo), login: c.login, permission: c.permission });
  }

  for (const t of seed.teams ?? []) {
    state.teams.push({
      org: t.org,
      slug: t.slug,
      members: (t.members ?? []).map((m) =>
        typeof m === "string"
          ? { login: m, role: "member" as const, state: "active" as const }
          : { login: m.login, role: m.role ?? "member", state: m.state ?? "active" },
      ),
    });
  }

  for (const s of seed.checkSuites ?? []) {
    const repo = repoKey(state, s.repo);
    const runs = (s.check_runs ?? []).map((r): FakeCheckRun => {
      const started = r.started_at ?? stamp();
      const status = r.status ?? "completed";
      return {
        id: r.id ?? takeId(state),
        name: r.name,
        status,
        conclusion: r.conclusion === undefined ? (status === "completed" ? "success" : null) : r.conclusion,
        output: { title: r.output?.title ?? null, summary: r.output?.summary ?? null, text: r.output?.text ?? null },
        html_url: r.html_url === undefined ? null : r.html_url,
        details_url: r.details_url === undefined ? null : r.details_url,
        started_at: started,
        completed_at: r.completed_at === undefined ? (status === "completed" ? started : null) : r.completed_at,
        annotations: (r.annotations ?? []).map((a) => ({
          path: a.path,
          start_line: a.start_line,
          end_line: a.end_line ?? a.start_line,
          start_column: a.start_column ?? null,
          end_column: a.end_column ?? null,
          annotation_level: a.annotation_level ?? "failure",
          title: a.title ?? null,
          message: a.message,
          raw_details: a.raw_details ?? null,
        })),
      };
    });
    const status = s.status ?? "completed";
    state.checkSuites.push({
      repo,
      id: s.id ?? takeId(state),
      head_sha: s.head_sha,
      head_branch: s.head_branch === undefined ? null : s.head_branch,
      status,
      conclusion: s.conclusion === undefined ? summarizeConclusion(runs.map((r) => r.conclusion)) : s.conclusion,
      app: {
        id: s.app?.id ?? 15368,
        slug: s.app?.slug ?? "github-actions",
        name: s.app?.name ?? s.app?.slug ?? "GitHub Actions",
      },
      check_runs: runs,
    });
    // Check runs get their default html_url once their id is known.
    for (const run of runs) {
      run.html_url ??= `https://github.com/${repo}/runs/${run.id}`;
      run.details_url ??= run.html_url;
    }
  }

  for (const w of seed.workflowRuns ?? []) {
    const repo = repoKey(state, w.repo);
    const created = w.created_at ?? stamp();
    const jobs = (w.jobs ?? []).map((j): FakeJob => {
      const status = j.status ?? "completed";
      const started = j.started_at ?? created;
      return {
        id: j.id ?? takeId(state),
        name: j.name,
        status,
        conclusion: j.conclusion === undefined ? (status === "completed" ? "success" : null) : j.conclusion,
        started_at: started,
        completed_at: j.completed_at === undefined ? (status === "completed" ? started : null) : j.completed_at,
        steps: (j.steps ?? []).map((st, index) => {
          const stepStatus = st.status ?? "completed";
          return {
            number: st.number ?? index + 1,
            name: st.name,
            status: stepStatus,
            conclusion: st.conclusion === undefined ? (stepStatus === "completed" ? "success" : null) : st.conclusion,
          };
        }),
        log: j.log === undefined ? "" : j.log,
      };
    });
    const status = w.status ?? "completed";
    state.workflowRuns.push({
      repo,
      id: w.id ?? takeId(state),
      name: w.name ?? "CI",
      workflow_id: w.workflow_id ?? 161335,
      head_branch: w.head_branch,
      head_sha: w.head_sha,
      event: w.event ?? "pull_request",
      status,
      conclusion: w.conclusion === undefined ? summarizeConclusion(jobs.map((j) => j.conclusion)) : w.conclusion,
      run_attempt: w.run_attempt ?? 1,
      pull_requests: w.pull_requests ?? [],
      created_at: created,
      jobs,
    });
  }

  for (const f of seed.files ?? []) {
    const repo = repoKey(state, f.repo);
    const ref = f.ref ?? findRepository(state, repo)!.default_branch;
    const path = f.path.replace(/^\/+/, "");
    state.files = state.files.filter((existing) => !(existing.repo === repo && existing.path === path && existing.ref === ref));
    state.files.push({
      repo,
      path,
      ref,
      content: typeof f.content === "string" ? Buffer.from(f.content, "utf8") : Buffer.from(f.content),
    });
  }

  for (const a of seed.attachments ?? []) {
    state.attachments.push({
      id: a.id ?? randomUUID(),
      bytes: Buffer.from(a.bytes),
      content_type: a.content_type,
      private: a.private ?? false,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Lookups shared by the server and the seed.

/** GitHub treats owner and repository names case-insensitively. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function findRepository(state: FakeGitHubState, fullName: string): FakeRepository | undefined {
  return state.repositories.find((r) => sameName(`${r.owner}/${r.name}`, fullName));
}

export function findIssue(state: FakeGitHubState, repo: string, number: number): FakeIssue | undefined {
  return state.issues.find((i) => sameName(i.repo, repo) && i.number === number);
}

/** Resolves a seeded login to one stable user record (same login, same id). */
export function resolveUser(state: FakeGitHubState, seed: UserSeed): FakeUser {
  const login = typeof seed === "string" ? seed : seed.login;
  const key = login.toLowerCase();
  const known = state.users.get(key);
  if (known) return known;
  const explicit: { id?: number; type?: UserType } = typeof seed === "string" ? {} : seed;
  const user: FakeUser = {
    login,
    id: explicit.id ?? takeId(state),
    type: explicit.type ?? (login.endsWith("[bot]") ? "Bot" : "User"),
  };
  state.users.set(key, user);
  return user;
}

export function takeId(state: FakeGitHubState): number {
  return state.nextId++;
}

/** GitHub timestamps carry whole seconds: `2024-05-01T12:00:00Z`. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A deterministic 40-hex-digit stand-in for a commit sha. */
export function fakeSha(seed: string): string {
  let out = "";
  let h = 0x811c9dc5;
  while (out.length < 40) {
    for (const ch of `${seed}:${out.length}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out.slice(0, 40);
}

function addRepository(state: FakeGitHubState, r: RepositorySeed): FakeRepository {
  const existing = findRepository(state, `${r.owner}/${r.name}`);
  if (existing) return existing;
  const repository: FakeRepository = {
    id: r.id ?? takeId(state),
    owner: r.owner,
    name: r.name,
    default_branch: r.default_branch ?? "main",
    private: r.private ?? false,
    fork: r.fork ?? false,
  };
  state.repositories.push(repository);
  return repository;
}

/** Resolves a seed's `repo`, creating the repository when the seed names one not seeded yet. */
function repoKey(state: FakeGitHubState, repo: string | undefined): string {
  if (repo === undefined) {
    const first = state.repositories[0];
    if (!first) throw new Error('Fake GitHub seed: name `repo` ("owner/name") or seed `repositories` first.');
    return `${first.owner}/${first.name}`;
  }
  const [owner, name, ...rest] = repo.split("/");
  if (!owner || !name || rest.length > 0) {
    throw new Error(`Fake GitHub seed: repo must look like "owner/name", got ${JSON.stringify(repo)}.`);
  }
  const repository = addRepository(state, { owner, name });
  return `${repository.owner}/${repository.name}`;
}

function summarizeConclusion(conclusions: (CheckConclusion | null)[]): CheckConclusion | null {
  if (conclusions.some((c) => c === null)) return null;
  for (const bad of ["failure", "timed_out", "startup_failure", "cancelled", "action_required"] as const) {
    if (conclusions.includes(bad)) return bad;
  }
  return "success";
}

function highestSeededId(seed: FakeGitHubSeed): number {
  const ids: (number | undefined)[] = [
    ...(seed.repositories ?? []).map((r) => r.id),
    ...[...(seed.issues ?? []), ...(seed.pulls ?? [])].map((i) => i.id),
    ...(seed.issueComments ?? []).map((c) => c.id),
    ...(seed.reviews ?? []).flatMap((r) => [r.id, ...(r.comments ?? []).map((c) => c.id)]),
    ...(seed.checkSuites ?? []).flatMap((s) => [s.id, ...(s.check_runs ?? []).map((r) => r.id)]),
    ...(seed.workflowRuns ?? []).flatMap((w) => [w.id, ...(w.jobs ?? []).map((j) => j.id)]),
  ];
  return Math.max(0, ...ids.filter((id): id is number => typeof id === "number"));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A push to a pull request's branch: `sha` becomes its head (the earlier head stays one of its commits); `patches` replace the diff when given. */
export function pushToPullRequest(
  state: FakeGitHubState,
  repo: string,
  number: number,
  sha: string,
  patches?: Record<string, string>,
): void {
  const pull = findIssue(state, repo, number)?.pull_request;
  if (!pull) throw new Error(`pushToPullRequest: ${repo}#${number} is not a pull request of the fake`);
  pull.head.sha = sha;
  pull.commits.push(sha);
  if (patches) {
    pull.patches = { ...patches };
    pull.files = Object.keys(patches);
  }
  pull.patchesAt[sha] = { ...pull.patches };
}
