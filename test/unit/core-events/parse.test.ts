import { describe, expect, it } from "vitest";
import { EventPayloadError, isThreadEvent } from "../../../src/core/events/types.js";
import { parseWebhookEvent } from "../../../src/core/events/parse.js";
import { hasAction, webhookExample } from "./webhook-examples.js";

describe("parseWebhookEvent on real payloads", () => {
  it("issue_comment.created on an issue", () => {
    const payload = webhookExample("issue_comment", (p) => p.action === "created" && p.installation !== undefined);
    const event = parseWebhookEvent("issue_comment", payload);
    expect(event.kind).toBe("issue_comment");
    if (event.kind !== "issue_comment") return;
    expect(event).toMatchObject({
      kind: "issue_comment",
      name: "issue_comment",
      action: "created",
      repo: {
        owner: "Codertocat",
        name: "Hello-World",
        fullName: "Codertocat/Hello-World",
        id: 186853002,
        private: false,
        htmlUrl: "https://github.com/Codertocat/Hello-World",
      },
      installationId: 1,
      sender: { login: "Codertocat", type: "User" },
      thread: {
        kind: "issue",
        number: 1,
        url: "https://github.com/Codertocat/Hello-World/issues/1",
        title: "Spelling error in the README file",
      },
      comment: {
        id: 492700400,
        url: "https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400",
        author: { login: "Codertocat", type: "User" },
      },
    });
    expect(event.comment.body).toBe(payload.comment.body);
    expect(event.raw).toBe(payload);
    expect(isThreadEvent(event)).toBe(true);
  });

  it("issue_comment on a pull request is a pull request thread", () => {
    const payload = webhookExample("issue_comment", hasAction("created"));
    // Adapted: GitHub marks a pull request's conversation with `issue.pull_request`.
    (payload.issue as unknown as Record<string, unknown>).pull_request = {
      url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1",
    };
    const event = parseWebhookEvent("issue_comment", payload);
    expect(event.kind === "issue_comment" && event.thread.kind).toBe("pull_request");
    expect(event.installationId).toBeNull();
  });

  it("issue_comment.edited and .deleted keep their action", () => {
    expect(parseWebhookEvent("issue_comment", webhookExample("issue_comment", hasAction("edited"))).action).toBe("edited");
    expect(parseWebhookEvent("issue_comment", webhookExample("issue_comment", hasAction("deleted"))).action).toBe("deleted");
  });

  it("issues.labeled carries the label", () => {
    const event = parseWebhookEvent("issues", webhookExample("issues", hasAction("labeled")));
    expect(event.kind).toBe("issues");
    if (event.kind !== "issues") return;
    expect(event.label).toEqual({ name: "bug" });
    expect(event.thread).toMatchObject({ kind: "issue", number: 1 });
    expect(parseWebhookEvent("issues", webhookExample("issues", hasAction("opened")))).toMatchObject({ kind: "issues", label: null });
  });

  it("pull_request_review.submitted with pull request refs and fork info", () => {
    const event = parseWebhookEvent("pull_request_review", webhookExample("pull_request_review", hasAction("submitted")));
    expect(event.kind).toBe("pull_request_review");
    if (event.kind !== "pull_request_review") return;
    expect(event.review).toMatchObject({
      id: 237895671,
      body: "",
      state: "commented",
      url: "https://github.com/Codertocat/Hello-World/pull/2#pullrequestreview-237895671",
      commitId: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      author: { login: "Codertocat" },
    });
    expect(event.pullRequest).toEqual({
      number: 2,
      url: "https://github.com/Codertocat/Hello-World/pull/2",
      headRef: "changes",
      headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      baseRef: "master",
      headRepoFullName: "Codertocat/Hello-World",
      isFork: false,
      draft: false,
    });
    expect(event.thread).toMatchObject({ kind: "pull_request", number: 2, title: "Update the README with new information." });
  });

  it("a pull request from a fork, and from a deleted fork", () => {
    const payload = webhookExample("pull_request_review", hasAction("submitted"));
    payload.pull_request.head.repo = { ...payload.pull_request.head.repo, id: 1, full_name: "someone/Hello-World" };
    const fork = parseWebhookEvent("pull_request_review", payload);
    expect(fork.kind === "pull_request_review" && fork.pullRequest).toMatchObject({
      isFork: true,
      headRepoFullName: "someone/Hello-World",
    });
    (payload.pull_request.head as unknown as Record<string, unknown>).repo = null;
    const deleted = parseWebhookEvent("pull_request_review", payload);
    expect(deleted.kind === "pull_request_review" && deleted.pullRequest).toMatchObject({ isFork: true, headRepoFullName: null });
  });

  it("pull_request_review_comment.created with path, line and diff hunk", () => {
    const payload = webhookExample("pull_request_review_comment", (p) => p.action === "created" && "line" in p.comment);
    const event = parseWebhookEvent("pull_request_review_comment", payload);
    expect(event.kind).toBe("pull_request_review_comment");
    if (event.kind !== "pull_request_review_comment") return;
    expect(event.comment).toMatchObject({
      id: payload.comment.id,
      path: "README.md",
      line: payload.comment.line,
      diffHunk: payload.comment.diff_hunk,
      reviewId: payload.comment.pull_request_review_id,
      body: "Maybe you should use more emoji on this line.",
    });
    expect(event.pullRequest.number).toBe(2);
  });

  it("check_suite.completed with its pull requests", () => {
    const payload = webhookExample("check_suite", (p) => p.action === "completed" && p.check_suite.pull_requests.length > 0);
    const event = parseWebhookEvent("check_suite", payload);
    expect(event.kind).toBe("check_suite");
    if (event.kind !== "check_suite") return;
    expect(event.checkSuite).toEqual({
      id: 118578147,
      status: "completed",
      conclusion: "success",
      headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      headBranch: "changes",
      url: "https://github.com/Codertocat/Hello-World/commit/ec26c3e57ca3a959ca5aad62de7213c562f8c821/checks",
      app: { id: payload.check_suite.app.id, slug: payload.check_suite.app.slug ?? null, name: payload.check_suite.app.name ?? null },
      pullRequests: [
        {
          number: 2,
          url: "https://github.com/Codertocat/Hello-World/pull/2",
          headRef: "changes",
          headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
          baseRef: "master",
          isFork: false,
        },
      ],
    });
  });

  it("check_suite: pull requests of another repository are dropped, forks are marked", () => {
    const payload = webhookExample("check_suite", (p) => p.action === "completed" && p.check_suite.pull_requests.length > 0);
    const [pr] = payload.check_suite.pull_requests;
    payload.check_suite.pull_requests = [
      { ...pr!, number: 7, head: { ...pr!.head, repo: { ...pr!.head.repo, id: 999 } } },
      { ...pr!, number: 8, base: { ...pr!.base, repo: { ...pr!.base.repo, id: 999 } } },
    ];
    const event = parseWebhookEvent("check_suite", payload);
    expect(event.kind === "check_suite" && event.checkSuite.pullRequests.map((p) => [p.number, p.isFork])).toEqual([[7, true]]);
  });

  it("workflow_run.completed", () => {
    const payload = webhookExample("workflow_run", (p) => p.action === "completed" && p.workflow_run.pull_requests.length > 0);
    // Adapted: the example's pull request points at another repository; make it this one's.
    for (const pr of payload.workflow_run.pull_requests) {
      pr.base.repo.id = payload.repository.id;
      pr.head.repo.id = payload.repository.id;
    }
    const event = parseWebhookEvent("workflow_run", payload);
    expect(event.kind).toBe("workflow_run");
    if (event.kind !== "workflow_run") return;
    expect(event.workflowRun).toMatchObject({
      id: 289782451,
      conclusion: "success",
      headSha: "3484a3fb816e0859fd6e1cea078d76385ff50625",
      headBranch: "master",
      url: "https://github.com/octo-org/octo-repo/actions/runs/289782451",
      event: "repository_dispatch",
      runAttempt: 1,
      checkSuiteId: 1291536064,
      isFork: false,
      pullRequests: [
        { number: 2, url: "https://github.com/octo-org/octo-repo/pull/2", headRef: "changes", baseRef: "master", isFork: false },
      ],
    });
  });

  it("workflow_run from a fork's commit", () => {
    const payload = webhookExample("workflow_run", hasAction("completed"));
    payload.workflow_run.head_repository = { ...payload.workflow_run.head_repository, id: 1, full_name: "someone/octo-repo" };
    const event = parseWebhookEvent("workflow_run", payload);
    expect(event.kind === "workflow_run" && event.workflowRun).toMatchObject({ isFork: true, headRepoFullName: "someone/octo-repo" });
  });

  it("other events keep what they have", () => {
    const dispatch = parseWebhookEvent("workflow_dispatch", webhookExample("workflow_dispatch"));
    expect(dispatch).toMatchObject({
      kind: "other",
      name: "workflow_dispatch",
      repo: { fullName: expect.any(String) },
      sender: { login: expect.any(String) },
    });
    const push = parseWebhookEvent("push", webhookExample("push"));
    expect(push.kind).toBe("other");
    // Actions' schedule payload has no repository at all.
    expect(parseWebhookEvent("schedule", { schedule: "*/5 * * * *" })).toEqual({
      kind: "other",
      name: "schedule",
      action: null,
      repo: null,
      installationId: null,
      sender: null,
      raw: { schedule: "*/5 * * * *" },
    });
    expect(parseWebhookEvent("repository_dispatch", webhookExample("repository_dispatch")).action).toBe("on-demand-test");
  });

  it("a known event with a broken payload names the missing field", () => {
    const payload = webhookExample("issue_comment", hasAction("created"));
    delete (payload as unknown as Record<string, unknown>).comment;
    expect(() => parseWebhookEvent("issue_comment", payload)).toThrow(EventPayloadError);
    expect(() => parseWebhookEvent("issue_comment", payload)).toThrow(
      /"issue_comment" webhook payload cannot be read: `comment`: .*\(missing\)/,
    );
    expect(() => parseWebhookEvent("check_suite", "nope")).toThrow(EventPayloadError);
  });
});
