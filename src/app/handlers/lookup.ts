/** The App's answers to "which run is this?": its durable store knows every task it started. */
import type { KnownRunLookup } from "../../flows/index.js";
import type { BridgeStore } from "../store/types.js";

export function storeLookup(store: BridgeStore): KnownRunLookup {
  return {
    async activeRunInThread(repo, threadNumber) {
      const task = await store.activeTaskForThread(repo.owner, repo.repo, threadNumber);
      return task ? { runId: task.runId, orgId: task.orgId } : null;
    },
    // The store is the truth for runs this App started: no unfinished task means nobody is working on it here.
    isRunInProgress: async (runId) => (await store.activeTaskForRun(runId)) !== null,
    runForBranch: (repo, head) => store.runForBranch(repo.owner, repo.repo, head),
    async checkAttempts(repo, prNumber) {
      const { count, shas } = await store.checkAttempts(repo.owner, repo.repo, prNumber);
      return { attempts: count, headShas: shas };
    },
  };
}
