/**
 * The `metadata` stored with a run: where it came from, flat and searchable. `source_type` lives
 * here because the create request has no such field. Only identifiers and links go in: never a
 * token, never a payload dump; a value that looks like a credential is dropped.
 */
import { BRIDGE_METADATA_KEYS, type SourceType } from "../service/wire.js";
import type { BridgeEvent } from "./events/types.js";
import { triggerThread, type RunTrigger } from "./detect.js";

export interface MetadataExtras {
  /** `X-GitHub-Delivery` (the App) or the workflow run id and attempt (the Action). */
  deliveryId?: string;

  appName: string;
  appVersion: string;
  /** The bridge's own status comment on the thread, once posted. */
  statusCommentUrl?: string;
  statusCommentId?: number;
}

export type MetadataValue = string | number | boolean;

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

export function buildRunMetadata(trigger: RunTrigger, event: BridgeEvent, extras: MetadataExtras): RunMetadata {
  const fields: Record<string, MetadataValue | null | undefined> = {
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

  const thread = triggerThread(trigger);
  if (thread) {
    fields[thread.kind === "pull_request" ? "pull_request_number" : "issue_number"] = thread.number;
    fields.html_url = thread.url;
  }

  switch (trigger.flow) {
    case "comment":
      fields.comment_id = trigger.comment.id;
      fields.comment_url = trigger.comment.url;
      break;
    case "label":
      fields.label = trigger.label;
      break;
    case "review":
      fields.head_sha = trigger.pullRequest.headSha;
      fields.head_branch = trigger.pullRequest.headRef;
      if (trigger.review) {
        fields.review_id = trigger.review.id;
        fields.review_url = trigger.review.url;
        fields.review_state = trigger.review.state;
      }
      if (trigger.reviewComment) {
        fields.review_id = trigger.reviewComment.reviewId;
        fields.comment_id = trigger.reviewComment.id;
        fields.comment_url = trigger.reviewComment.url;
      }
      break;
    case "check_suite":
      fields.check_suite_id = trigger.checkSuite.id;
      fields.check_suite_url = trigger.checkSuite.url;
      fields.conclusion = trigger.checkSuite.conclusion;
      fields.head_sha = trigger.headSha;
      fields.head_branch = trigger.headBranch;
      break;
    case "workflow_run":
      fields.workflow_run_id = trigger.workflowRun.id;
      fields.workflow_run_url = trigger.workflowRun.url;
      fields.workflow_name = trigger.workflowRun.name;
      fields.conclusion = trigger.workflowRun.conclusion;
      fields.head_sha = trigger.headSha;
      fields.head_branch = trigger.headBranch;
      break;
    case "dispatch":
      break;
  }

  const metadata: RunMetadata = {
    source_type: trigger.sourceType,
    bridge: { name: extras.appName, version: extras.appVersion },
  };
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
