/** A task as the handlers would insert it, for the store's own tests: a create, queued, in `owner`/Widgets. */
import type { NewTask } from "../../src/app/store/types.js";
import { SOURCE } from "../../src/service/wire.js";

export function newTask(owner: string, issueNumber: number, overrides: Partial<NewTask> = {}): NewTask {
  return {
    kind: "create",
    state: "queued",
    sourceType: SOURCE.gitHost,
    thread: { installationId: 1, owner, repo: "Widgets", issueNumber },
    runId: null,
    orgId: 1,
    trackingCommentId: null,
    reaction: null,
    request: { prompt: "p" },
    requestedBy: "m",
    deadlineAt: 5_000_000,
    ...overrides,
  };
}
