/**
 * Everything the Action writes to the issue or pull request: reactions, the tracking comment that
 * becomes the result, one-off replies. A failed write is a warning, never the step's failure: the
 * run itself matters more than the comment about it. GitHub's secondary rate limit (many jobs
 * writing at once) is waited out a few times before giving up.
 */
import type { GitHubClient, RepoRef } from "../github/client.js";
import { getComment, type IssueComment } from "../github/comments.js";
import { GitHubNotFoundError, GitHubRateLimitError } from "../github/errors.js";
import { addReaction } from "../github/reactions.js";
import type { ReactionContent, ReactionTarget } from "../core/render/reactions.js";
import { editComment, postComment, type CommentBody } from "./door.js";
import type { PostedComment } from "./report.js";

export interface ThreadLog {
  info(message: string): void;
  warning(message: string): void;
}

/** Longest wait for GitHub's rate limit on one write; beyond it the write is skipped. */
const MAX_RATE_LIMIT_WAIT_MS = 90_000;
const RATE_LIMIT_RETRIES = 3;
/** Longest wait for a fresh read of the tracking comment before a cancelled job's last word. */
const FRESH_READ_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What `work` resolves to within `ms`, or null when it fails or takes longer: a cancelled step cannot wait. */
export function answerWithin<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([work.catch(() => null), late]).finally(() => clearTimeout(timer));
}

export class ThreadReporter {
  private tracking: PostedComment | null = null;
  /** Set by `seal`: the tracking comment has its last word. */
  private sealed = false;
  /** Every tracking write not yet settled. */
  private inFlight: Promise<unknown> = Promise.resolve();
  /** The tracking comment's body as last written. */
  private lastBody: string | null = null;

  constructor(
    private readonly octokit: GitHubClient,
    private readonly repo: RepoRef,
    /** The issue or pull request number, or null: nothing is written. */
    private readonly threadNumber: number | null,
    private readonly log: ThreadLog,
  ) {}

  get enabled(): boolean {
    return this.threadNumber !== null;
  }

  /** The issue or pull request written to, or null. */
  get number(): number | null {
    return this.threadNumber;
  }

  /** The tracking comment, once posted. */
  get comment(): PostedComment | null {
    return this.tracking;
  }

  /** `content` from `reactionForPhase`: null (no reaction for that moment) adds none. */
  async react(target: ReactionTarget | null, content: ReactionContent | null): Promise<void> {
    if (!this.enabled || !target || !content) return;
    await this.attempt(`add a ${content} reaction`, () => addReaction(this.octokit, this.repo, target, content));
  }

  /** Posts a one-off reply (refusal, hand-back, config error). */
  async reply(body: string): Promise<PostedComment | null> {
    if (this.threadNumber === null) return null;
    const number = this.threadNumber;
    const posted = await this.attempt("post a comment", () => postComment(this.octokit, this.repo, number, body));
    return posted ? { id: posted.id, url: posted.htmlUrl } : null;
  }

  /** Carries on in a tracking comment an earlier attempt of this job posted, instead of posting another. */
  continueTracking(comment: PostedComment): void {
    this.tracking ??= comment;
  }

  /**
   * Posts the tracking comment the first time, edits it afterwards (re-posting it if someone deleted
   * it). The body is rendered only when there is a thread to write it to; `render` may be a
   * rendering at a maximum length (the result), which the door fits after redacting it. Nothing is
   * written once sealed.
   */
  track(render: () => CommentBody): Promise<PostedComment | null> {
    if (this.sealed) return Promise.resolve(this.tracking);
    return this.write(render);
  }

  /**
   * The tracking comment's last word (a cancelled job): rendered, once every write in flight has landed, from
   * its body as GitHub holds it then (null: that body stays, e.g. a result or a stop that made it), and nothing after it.
   */
  async seal(render: (lastBody: string | null) => string | null): Promise<PostedComment | null> {
    this.sealed = true;
    await this.inFlight;
    const body = render(await this.currentBody());
    return body === null ? this.tracking : this.write(() => body);
  }

  /**
   * The tracking comment as GitHub holds it now: another job may have written its last word meanwhile
   * (`/agent stop` edits this comment from its own workflow run). The body last written when it cannot be
   * read within FRESH_READ_MS (the runner's SIGTERM follows a cancel's SIGINT by 7.5 s) or is gone.
   */
  private async currentBody(): Promise<string | null> {
    const tracking = this.tracking;
    if (!tracking) return this.lastBody;
    const fresh = await answerWithin(getComment(this.octokit, this.repo, tracking.id), FRESH_READ_MS);
    return fresh?.body ?? this.lastBody;
  }

  private write(render: () => CommentBody): Promise<PostedComment | null> {
    const written = this.writeTracking(render);
    this.inFlight = Promise.all([this.inFlight, written.catch(() => undefined)]);
    return written;
  }

  private async writeTracking(render: () => CommentBody): Promise<PostedComment | null> {
    if (this.threadNumber === null) return null;
    const number = this.threadNumber;
    const body = render();
    const current = this.tracking;
    if (current) {
      try {
        const updated = await this.retrying(() => editComment(this.octokit, this.repo, number, current.id, body));
        this.lastBody = updated.body;
        return (this.tracking = { id: updated.id, url: updated.htmlUrl });
      } catch (error) {
        if (!(error instanceof GitHubNotFoundError)) {
          this.log.warning(`Could not update the tracking comment: ${(error as Error).message}`);
          return current;
        }
        this.log.info("The tracking comment was deleted; posting a new one.");
      }
    }
    const posted: IssueComment | null = await this.attempt("post the tracking comment", () =>
      postComment(this.octokit, this.repo, number, body),
    );
    if (posted) {
      this.tracking = { id: posted.id, url: posted.htmlUrl };
      this.lastBody = posted.body;
    }
    return this.tracking;
  }

  private async attempt<T>(what: string, write: () => Promise<T>): Promise<T | null> {
    try {
      return await this.retrying(write);
    } catch (error) {
      this.log.warning(`Could not ${what}: ${(error as Error).message}`);
      return null;
    }
  }

  private async retrying<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const waitMs = error instanceof GitHubRateLimitError ? error.retryAfterSeconds * 1000 : Number.POSITIVE_INFINITY;
        if (attempt >= RATE_LIMIT_RETRIES || waitMs > MAX_RATE_LIMIT_WAIT_MS) throw error;
        this.log.info(`GitHub rate-limited a write; retrying in ${Math.ceil(waitMs / 1000)} s.`);
        await sleep(waitMs);
      }
    }
  }
}
