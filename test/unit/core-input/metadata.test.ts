import { describe, expect, it } from "vitest";
import { parseWebhookEvent } from "../../../src/core/events/parse.js";
import type { BridgeEvent } from "../../../src/core/events/types.js";
import { buildRunMetadata, looksLikeSecret, type MetadataExtras } from "../../../src/core/metadata.js";
import { detectTrigger } from "../../../src/core/detect/index.js";
import type { RunTrigger } from "../../../src/core/detect/triggers.js";
import { MetadataSchema, SourceTypeSchema } from "../../../src/service/wire.js";
import {
  checkSuiteEvent,
  commentEvent,
  labelEvent,
  repoConfig,
  reviewCommentEvent,
  reviewEvent,
  workflowRunEvent,
} from "../core-events/scenarios.js";
import { webhookExample } from "../core-events/webhook-examples.js";

const self = { appSlug: "run-bot", botLogins: [] };
const extras: MetadataExtras = { deliveryId: "72d3162e-cc78-11e3-81ab-4c9367dc0958", appName: "agent-run-bridge", appVersion: "0.1.0" };
const ciOn = repoConfig({ check_suite: { enabled: true } });

function metadataOf(event: BridgeEvent, config = repoConfig(), options = {}, more: Partial<MetadataExtras> = {}) {
  const detection = detectTrigger(event, config, self, options);
  if (detection.kind !== "trigger") throw new Error(detection.kind === "ignore" ? detection.reason : detection.kind);
  const trigger: RunTrigger = detection.trigger;
  return buildRunMetadata(trigger, event, { ...extras, ...more });
}

describe("buildRunMetadata", () => {
  it("issue comment: flat identifiers and links", () => {
    const event = commentEvent("/agent fix it");
    expect(
      metadataOf(
        event,
        repoConfig(),
        {},
        { statusCommentId: 9, statusCommentUrl: "https://github.com/Codertocat/Hello-World/issues/1#issuecomment-9" },
      ),
    ).toEqual({
      source_type: "GIT_HOST",
      bridge: { name: "agent-run-bridge", version: "0.1.0" },
      trigger_flow: "comment",
      github_event: "issue_comment",
      github_action: "created",
      delivery_id: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      repository: "Codertocat/Hello-World",
      repository_id: 186853002,
      sender: "Codertocat",
      issue_number: 1,
      html_url: "https://github.com/Codertocat/Hello-World/issues/1",
      comment_id: 492700400,
      comment_url: "https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400",
      status_comment_id: 9,
      status_comment_url: "https://github.com/Codertocat/Hello-World/issues/1#issuecomment-9",
    });
  });

  it("source type per flow", () => {
    expect(metadataOf(commentEvent("/agent x", { onPullRequest: true }))).toMatchObject({
      source_type: "GIT_HOST",
      pull_request_number: 1,
    });
    expect(metadataOf(labelEvent("agent"))).toMatchObject({ source_type: "GIT_HOST", label: "agent", issue_number: 1 });
    expect(metadataOf(reviewEvent("changes_requested", "x"))).toMatchObject({
      source_type: "GIT_HOST_PR_REVIEW",
      pull_request_number: 2,
      review_id: 237895671,
      review_url: "https://github.com/Codertocat/Hello-World/pull/2#pullrequestreview-237895671",
      review_state: "changes_requested",
      head_sha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      head_branch: "changes",
    });
    expect(metadataOf(reviewCommentEvent("/agent x"))).toMatchObject({
      source_type: "GIT_HOST_PR_REVIEW",
      comment_url: expect.stringContaining("#discussion_r"),
      review_id: expect.any(Number),
    });
    expect(metadataOf(checkSuiteEvent("failure"), ciOn)).toMatchObject({
      source_type: "GIT_HOST_CHECK_SUITE",
      check_suite_id: 118578147,
      check_suite_url: "https://github.com/Codertocat/Hello-World/commit/ec26c3e57ca3a959ca5aad62de7213c562f8c821/checks",
      conclusion: "failure",
      head_sha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      head_branch: "changes",
      pull_request_number: 2,
    });
    expect(metadataOf(workflowRunEvent("failure"), ciOn)).toMatchObject({
      source_type: "GIT_HOST_CHECK_SUITE",
      workflow_run_id: 289782451,
      workflow_run_url: "https://github.com/octo-org/octo-repo/actions/runs/289782451",
      workflow_name: "CI",
    });
    const schedule = parseWebhookEvent("schedule", { schedule: "0 * * * *" });
    expect(metadataOf(schedule, repoConfig(), { explicitPrompt: "Nightly triage" })).toEqual({
      source_type: "API",
      bridge: { name: "agent-run-bridge", version: "0.1.0" },
      trigger_flow: "dispatch",
      github_event: "schedule",
      delivery_id: extras.deliveryId,
    });
  });

  it("is a valid metadata object for the service, with a valid source type", () => {
    const metadata = metadataOf(workflowRunEvent("failure"), ciOn);
    expect(MetadataSchema.safeParse(metadata).success).toBe(true);
    expect(SourceTypeSchema.safeParse(metadata.source_type).success).toBe(true);
    expect(JSON.parse(JSON.stringify(metadata))).toEqual(metadata);
  });

  it("never carries a token-like value, nor the payload", () => {
    const payload = webhookExample("issue_comment", (p) => p.action === "created");
    payload.comment.body = "/agent use ghp_abcdefghijklmnopqrstuvwxyz0123456789 to push";
    const event = parseWebhookEvent("issue_comment", payload);
    const metadata = metadataOf(
      event,
      repoConfig(),
      {},
      { deliveryId: "ghs_0123456789abcdefghijABCDEFGHIJ", statusCommentUrl: "https://x-access-token:ghs_secret0123456789@github.com/o/r" },
    );
    const text = JSON.stringify(metadata);
    expect(text).not.toMatch(/gh[pousr]_/);
    expect(text).not.toContain("x-access-token");
    expect(text).not.toContain("use ghp_");
    expect(metadata).not.toHaveProperty("delivery_id");
    expect(metadata).not.toHaveProperty("status_comment_url");
    for (const value of Object.values(metadata)) expect(typeof value === "object" ? Object.keys(value) : []).not.toContain("body");
  });

  it("omits undefined fields", () => {
    const metadata = metadataOf(commentEvent("/agent x"), repoConfig(), {}, { deliveryId: undefined });
    expect(Object.values(metadata)).not.toContain(undefined);
    expect(metadata).not.toHaveProperty("delivery_id");
    expect(metadata).not.toHaveProperty("installation_id");
  });
});

it("looksLikeSecret", () => {
  for (const secret of [
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
    "Bearer abcdef0123456789",
    "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxMjMifQ.c2lnbmF0dXJlMTIz",
    "-----BEGIN RSA PRIVATE KEY-----",
    "https://user:pass@example.com/x",
  ]) {
    expect(looksLikeSecret(secret), secret).toBe(true);
  }
  for (const fine of [
    "Codertocat/Hello-World",
    "https://github.com/o/r/pull/2",
    "feature/ghp-docs",
    "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
  ]) {
    expect(looksLikeSecret(fine), fine).toBe(false);
  }
});
