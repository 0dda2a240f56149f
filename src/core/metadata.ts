/**
 * The `metadata` stored with a run: where it came from, flat and searchable. `source_type` lives
 * here because the create request has no such field. Only identifiers and links go in: never a
 * token, never a payload dump; a value that looks like a credential is dropped.
 *
 * Every key the bridge may write is reserved (`RESERVED_METADATA_KEYS`): metadata a workflow adds
 * (the Action's `metadata` input) goes beside them and may not name one, since the bridge reads
 * some back and believes them (the repository and thread, for markers written before they named
 * their thread; the delivery and task ids, for crash recovery).
 */
import { BRIDGE_METADATA_KEYS, type SourceType } from "../service/wire.js";
import type { BridgeEvent } from "./events/types.js";
import { triggerThread, type CheckFailureTrigger, type RunTrigger } from "./detect/triggers.js";
import { runModeOf } from "./review/trigger.js";

export interface MetadataExtras {
  /** `X-GitHub-Delivery` (the App) or the workflow run id and attempt (the Action). */
  deliveryId?: string;

  appName: string;
  appVersion: string;
  /** The bridge's own status comment on the thread, once posted. */
  statusCommentUrl?: string;
  statusCommentId?: number;
  /** A review run's pull-request head when the run starts (the commit its review anchors on). */
  headSha?: string;
}

/** Every key the bridge writes into a run's metadata, whatever the trigger; none can come from a workflow. */
export const RESERVED_METADATA_KEYS = [
  "source_type",
  "bridge",
  BRIDGE_METADATA_KEYS.bridgeTaskId,
  BRIDGE_METADATA_KEYS.deliveryId,
  BRIDGE_METADATA_KEYS.repository,
  "repository_id",
  "installation_id",
  BRIDGE_METADATA_KEYS.issueNumber,
  BRIDGE_METADATA_KEYS.pullRequestNumber,
  "html_url",
  "trigger_flow",
  "github_event",
  "github_action",
  "sender",
  "status_comment_id",
  "status_comment_url",
  "comment_id",
  "comment_url",
  "label",
  "head_sha",
  "head_branch",
  "review_id",
  "review_url",
  "review_state",
  "check_suite_id",
  "check_suite_url",
  "conclusion",
  "workflow_run_id",
  "workflow_run_url",
  "workflow_name",
  "github_actions_run_url",
  "automation",
  "automation_event",
  "mode",
] as const;
export type ReservedMetadataKey = (typeof RESERVED_METADATA_KEYS)[number];

/** The keys of a workflow's own metadata that the bridge reserves (empty when it may be sent beside the bridge's). */
export function reservedKeysIn(metadata: Record<string, unknown>): ReservedMetadataKey[] {
  return RESERVED_METADATA_KEYS.filter((key) => Object.hasOwn(metadata, key));
}

type MetadataValue = string | number | boolean;

export interface RunMetadata {
  source_type: SourceType;
  bridge: { name: string; version: string };
  [key: string]: MetadataValue | { name: string; version: string };
}

const MAX_VALUE_CHARS = 2048;

const SECRET_PATTERNS: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/, // JWTs (installation and app tokens are exchanged with them)
  /\bbearer\s+[\w.~+/-]{8,}/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(?:sk|xox[abprs])-[A-Za-z0-9-]{16,}/,
  /:\/\/[^/\s:@]+:[^/\s@]+@/, // credentials in a URL
];

/** True for a value that looks like a credential. */
export function looksLikeSecret(value: string): boolean {
  return SECRET_PATTERNS.some((pattern) => pattern.test(value));
}

// Only reserved keys: a key the bridge writes but does not reserve would be a workflow's to forge.
type Fields = Partial<Record<ReservedMetadataKey, MetadataValue | null | undefined>>;

/** Where the run came from: the event, the repository, who asked, and the bridge's status comment. */
function originFields(trigger: RunTrigger, event: BridgeEvent, extras: MetadataExtras): Fields {
  return {
    trigger_flow: trigger.flow,
    github_event: event.name,
    github_action: event.action,
    [BRIDGE_METADATA_KEYS.deliveryId]: extras.deliveryId,
    repository: event.repo?.fullName,
    repository_id: event.repo?.id,
    installation_id: event.installationId,
    sender: trigger.actor?.login ?? event.sender?.login,
    status_comment_id: extras.statusCommentId,
    status_comment_url: extras.statusCommentUrl,
  };
}

function threadFields(trigger: RunTrigger): Fields {
  const thread = triggerThread(trigger);
  if (!thread) return {};
  return { [thread.kind === "pull_request" ? "pull_request_number" : "issue_number"]: thread.number, html_url: thread.url };
}

/** What both CI flows record after their own ids: how the checks concluded, on which commit. */
function checkFailureFields(conclusion: string | null, trigger: CheckFailureTrigger): Fields {
  return { conclusion, head_sha: trigger.headSha, head_branch: trigger.headBranch };
}

/** What only this flow knows: the comment, the label, the review, the check suite or the workflow run. */
function flowFields(trigger: RunTrigger): Fields {
  switch (trigger.flow) {
    case "comment":
      return { comment_id: trigger.comment.id, comment_url: trigger.comment.url };
    case "label":
      return { label: trigger.label };
    case "review": {
      const { review, reviewComment } = trigger;
      return {
        head_sha: trigger.pullRequest.headSha,
        head_branch: trigger.pullRequest.headRef,
        ...(review ? { review_id: review.id, review_url: review.url, review_state: review.state } : {}),
        ...(reviewComment ? { review_id: reviewComment.reviewId, comment_id: reviewComment.id, comment_url: reviewComment.url } : {}),
      };
    }
    case "check_suite":
      return {
        check_suite_id: trigger.checkSuite.id,
        check_suite_url: trigger.checkSuite.url,
        ...checkFailureFields(trigger.checkSuite.conclusion, trigger),
      };
    case "workflow_run": {
      const run = trigger.workflowRun;
      return {
        workflow_run_id: run.id,
        workflow_run_url: run.url,
        workflow_name: run.name,
        ...checkFailureFields(run.conclusion, trigger),
      };
    }
    case "dispatch":
      return {};
    case "automation":
      return { automation: trigger.automation.name, automation_event: trigger.automation.on };
  }
}

/** A review run says so, with the head it reviews (`mode` is absent for an ordinary run). */
function modeFields(trigger: RunTrigger, extras: MetadataExtras): Fields {
  if (runModeOf(trigger) !== "review") return {};
  if (!extras.headSha) throw new TypeError("buildRunMetadata: a review run needs the pull request's head (extras.headSha)");
  return { mode: "review", head_sha: extras.headSha };
}

export function buildRunMetadata(trigger: RunTrigger, event: BridgeEvent, extras: MetadataExtras): RunMetadata {
  const fields: Fields = {
    ...originFields(trigger, event, extras),
    ...threadFields(trigger),
    ...flowFields(trigger),
    ...modeFields(trigger, extras),
  };
  const metadata: RunMetadata = {
    source_type: trigger.sourceType,
    bridge: { name: extras.appName, version: extras.appVersion },
  };
  // Empty values are left out; a string that looks like a credential is dropped, a long one cut.
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || value === "") continue;
    if (typeof value === "string") {
      if (looksLikeSecret(value)) continue;
      metadata[key] = value.length > MAX_VALUE_CHARS ? value.slice(0, MAX_VALUE_CHARS) : value;
    } else {
      metadata[key] = value;
    }
  }
  return metadata;
}

/**
 * The metadata with the bridge's own task id, added when the create is sent (the task id exists
 * only once the task is stored): after a crash mid-create, `findInterruptedRun` finds the run by it.
 */
export function withBridgeTaskId<M extends Record<string, unknown>>(metadata: M, taskId: string | number): M & { bridge_task_id: string } {
  const id = String(taskId);
  if (id === "" || id.length > 200 || looksLikeSecret(id)) throw new RangeError("a bridge task id must be a short, non-secret identifier");
  return { ...metadata, [BRIDGE_METADATA_KEYS.bridgeTaskId]: id } as M & { bridge_task_id: string };
}
