/**
 * A store that lost its data costs no result. Each tracking comment carries the bot's marker with its
 * run id and state, so the threads remember what the store forgot: on start and then every
 * RUN_RECOVERY_INTERVAL, one replica at a time (a lease, lease.ts) lists the App's installations,
 * their repositories and each repository's comments updated within the look-back, most recently
 * updated first, and hands every tracking comment still saying "working" that the store does not
 * know to the engine (engine/recovering.ts): its run is watched again and its result posted once.
 *
 * Cost: at most RUN_RECOVERY_MAX_REQUESTS GitHub reads a sweep (a sweep cut short goes on from
 * that repository next time), plus a few per run found. The look-back is a little more than the
 * watch deadline, and the replay window (eight days) after the store came back empty: the store's
 * epoch (StoreEpoch) says when a sweep finds the store empty, so that sweep knows.
 */
import { DEFAULT_REPO_CONFIG } from "../config/schema.js";
import type { BridgeSelf } from "../core/actors.js";
import { renderDroppedFollowUps } from "../core/render/recovery.js";
import { findWorkingMarkers, recoveryLookBack, unansweredFollowUps, type RecoveryComment } from "../core/run-recovery.js";
import { grammarOf } from "../core/trigger.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { getComment, listIssueComments } from "../github/comments.js";
import {
  listAppInstallations,
  listCommentsUpdatedSince,
  listInstallationRepositories,
  type RequestAllowance,
  type ThreadComment,
} from "../github/installations.js";
import type { RunEngine } from "./engine.js";
import { loadRepoConfig } from "./handlers/config.js";
import type { HandlerLogger } from "./handlers/types.js";
import { withLease, type Leases } from "./lease.js";
import type { BridgeStore, TaskThread } from "./store/types.js";
import { periodicSweep } from "./periodic-sweep.js";

const RECOVERY_LEASE = "run-recovery";
const LEASE_TTL_MS = 60_000;
/** Pages of 100 comments read at most per repository and sweep. */
const MAX_PAGES_PER_REPOSITORY = 10;
/** Comments of a thread read to find the follow-ups held behind an adopted run. */
const THREAD_COMMENT_SCAN = 100;

export interface RunRecoveryOptions {
  store: BridgeStore;
  leases: Leases;
  engine: Pick<RunEngine, "recoverRun" | "reply">;
  /** An octokit authenticated as the App itself (to list its installations). */
  appOctokit: () => Promise<GitHubClient>;
  octokitFor: (installationId: number) => Promise<GitHubClient>;
  /** Who the bot is: only its own markers are believed. */
  self: BridgeSelf;
  /** Whether the App serves an installation's account (ALLOWED_OWNERS). */
  serves: (account: string) => boolean;
  intervalMs: number;
  /** GitHub reads a sweep may make to find working tracking comments. */
  maxRequests: number;
  /** The engine's watch deadline: a working tracking comment was written within about this long. */
  watchTimeoutMs: number;
  log: HandlerLogger;
  now?: () => number;
}

/** What one sweep did, for the logs and tests. */
interface RunRecoverySweep {
  /** The store was empty when this sweep began (new, or it lost its data): it read back as far as the replay window. */
  storeWasEmpty: boolean;
  repositories: number;
  requests: number;
  /** Tracking comments still saying "working" that the store does not know. */
  found: number;
  adopted: number[];
  settled: number;
  followUpsDropped: number;
  /** False when the request allowance ran out before every repository was read. */
  complete: boolean;
}

export interface RunRecovery {
  /** One sweep now: its summary, or null when another replica holds the lease or the sweep failed. */
  sweep(): Promise<RunRecoverySweep | null>;
  start(): void;
  stop(): Promise<void>;
}

interface Place {
  installationId: number;
  repo: RepoRef;
}

const fullName = (repo: RepoRef) => `${repo.owner}/${repo.repo}`;

function asRecoveryComment(comment: ThreadComment): RecoveryComment {
  return {
    id: comment.id,
    body: comment.body,
    user: { login: comment.author.login, type: comment.author.type },
    issueNumber: comment.issueNumber,
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
  };
}

export function createRunRecovery(options: RunRecoveryOptions): RunRecovery {
  const now = options.now ?? Date.now;
  const { store, log, engine } = options;
  const stopping = new AbortController();
  /** Where a sweep cut short by its allowance stopped: the next one starts there. */
  let resumeAt = "";
  /** A sweep that began on an empty store and did not finish: the next ones read back as far until one does. */
  let deepPending = false;

  async function places(allowance: RequestAllowance): Promise<{ places: Place[]; complete: boolean }> {
    const installations = await listAppInstallations(await options.appOctokit(), allowance);
    const found = new Map<string, Place>();
    let complete = installations.complete;
    for (const installation of installations.items) {
      if (!options.serves(installation.account)) continue;
      const repos = await listInstallationRepositories(await options.octokitFor(installation.id), allowance);
      complete &&= repos.complete;
      for (const repo of repos.items) found.set(fullName(repo).toLowerCase(), { installationId: installation.id, repo });
    }
    const sorted = [...found.values()].sort((a, b) => fullName(a.repo).toLowerCase().localeCompare(fullName(b.repo).toLowerCase()));
    // Round the sorted list from where the last sweep stopped.
    const start = sorted.findIndex((p) => fullName(p.repo).toLowerCase() >= resumeAt);
    return { places: start <= 0 ? sorted : [...sorted.slice(start), ...sorted.slice(0, start)], complete };
  }

  /** Follow-ups the lost store held behind the adopted run: the thread is told they will not be sent. */
  async function tellDroppedFollowUps(
    octokit: GitHubClient,
    thread: TaskThread,
    trackingCommentId: number,
    runId: number | null,
  ): Promise<number> {
    const repo = { owner: thread.owner, repo: thread.repo };
    const loaded = await loadRepoConfig(octokit, repo).catch(() => null);
    const config = loaded?.ok ? loaded.config : DEFAULT_REPO_CONFIG;
    const { comments } = await listIssueComments(octokit, repo, thread.issueNumber, { limit: THREAD_COMMENT_SCAN });
    const markerComments = comments.map((c) => ({
      id: c.id,
      body: c.body,
      htmlUrl: c.htmlUrl,
      user: { login: c.author.login, type: c.author.type },
    }));
    const unanswered = unansweredFollowUps(markerComments, trackingCommentId, grammarOf(config, options.self), options.self);
    // A follow-up written since the loss is held by the store as it is now (its task reacts on its comment): it is sent.
    const heldNow = runId === null ? [] : await store.heldFor(runId, thread);
    const heldComments = new Set(heldNow.flatMap((task) => (task.reaction?.kind === "issue_comment" ? [task.reaction.id] : [])));
    const urls = unanswered.filter((comment) => !heldComments.has(comment.id)).map((comment) => ({ htmlUrl: comment.htmlUrl }));
    if (urls.length === 0) return 0;
    await engine.reply(thread, renderDroppedFollowUps(urls, runId !== null), "result");
    log.warn(
      { thread: `${fullName(repo)}#${thread.issueNumber}`, followUps: urls.length },
      "follow-ups held by the lost store were dropped; the thread is told",
    );
    return urls.length;
  }

  async function sweepHoldingLease(lost: AbortSignal): Promise<RunRecoverySweep> {
    const epoch = await store.epoch();
    const deep = epoch.fresh || deepPending;
    if (epoch.fresh) deepPending = true;
    const since = new Date(now() - recoveryLookBack(deep, options.watchTimeoutMs));
    const allowance: RequestAllowance = { left: options.maxRequests };
    const listed = await places(allowance);
    const sweep: RunRecoverySweep = {
      storeWasEmpty: epoch.fresh,
      repositories: 0,
      requests: 0,
      found: 0,
      adopted: [],
      settled: 0,
      followUpsDropped: 0,
      complete: listed.complete,
    };
    for (const place of listed.places) {
      if (lost.aborted || stopping.signal.aborted || allowance.left <= 0) {
        sweep.complete = false;
        resumeAt = fullName(place.repo).toLowerCase();
        break;
      }
      const octokit = await options.octokitFor(place.installationId);
      const listing = await listCommentsUpdatedSince(octokit, place.repo, since, { maxPages: MAX_PAGES_PER_REPOSITORY, allowance });
      sweep.repositories += 1;
      if (!listing.complete)
        log.warn(
          { repository: fullName(place.repo) },
          "the run recovery read its page limit of comments in a repository; older ones wait for the next sweep",
        );
      const working = findWorkingMarkers(listing.items.map(asRecoveryComment), options.self, fullName(place.repo));
      for (const found of working) {
        const thread: TaskThread = {
          installationId: place.installationId,
          owner: place.repo.owner,
          repo: place.repo.repo,
          issueNumber: found.thread,
        };
        const where = { thread: `${fullName(place.repo)}#${found.thread}`, trackingCommentId: found.commentId };
        const result = await engine
          .recoverRun({
            thread,
            found,
            storeEpochAt: epoch.createdAt,
            currentBody: async () => (await getComment(octokit, place.repo, found.commentId))?.body ?? null,
          })
          .catch((error: unknown) => {
            // One thread's failure (its lock busy, GitHub or the service down) leaves it to the next sweep, not the others.
            log.warn(
              { ...where, err: (error as Error).message },
              "a working tracking comment could not be recovered; the next sweep tries again",
            );
            return null;
          });
        if (result === null || result.action === "left") continue;
        sweep.found += 1;
        if (result.action === "settled") sweep.settled += 1;
        else sweep.adopted.push(result.runId);
        const runId = result.action === "adopted" ? result.runId : null;
        sweep.followUpsDropped += await tellDroppedFollowUps(octokit, thread, found.commentId, runId).catch((error: unknown) => {
          log.warn({ ...where, err: (error as Error).message }, "the follow-ups the lost store held could not be looked for");
          return 0;
        });
      }
    }
    if (sweep.complete) {
      resumeAt = "";
      deepPending = false;
    }
    sweep.requests = options.maxRequests - allowance.left;
    return sweep;
  }

  async function sweepOnce(): Promise<RunRecoverySweep | null> {
    try {
      const held = await withLease(options.leases, RECOVERY_LEASE, LEASE_TTL_MS, sweepHoldingLease);
      if (!held) return null;
      const sweep = held.value;
      if (sweep.found > 0)
        log.warn({ ...sweep }, "runs their threads show as working were unknown to the store (it lost its data): recovered");
      // A new deployment's first start looks the same and finds nothing: worth a line, not an alarm.
      else if (sweep.storeWasEmpty) log.info({ ...sweep }, "the store was empty (new, or it lost its data): no thread shows a run working");
      return sweep;
    } catch (error) {
      log.warn({ err: (error as Error).message }, "the run recovery sweep failed; the next one reads again");
      return null;
    }
  }

  return periodicSweep(sweepOnce, options.intervalMs, stopping);
}
