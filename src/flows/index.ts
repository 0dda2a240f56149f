/**
 * The I/O orchestration shared by the App and the Action: one path from a webhook to "what to do",
 * so that no decision exists twice. Decisions are core's (pure); this folder only fetches their
 * inputs through src/github and the service client. Nothing here writes to GitHub or the service.
 *
 * How a shell uses it (the App in src/app/handlers, the Action in src/action):
 *
 *   const event = parseWebhookEvent(name, payload);                       // core/events
 *   const parsed = parseRepoConfig(raw);                                  // config
 *   if (!parsed.ok) {
 *     const detection = detectDespiteConfigError(event, raw, self);      // would it have been a trigger?
 *     if (detection.kind === "trigger") {
 *       const body = await configErrorReply({ octokit, repo, threadNumber, errors: parsed.errors, self });
 *       if (body) post(body);                                             // null: the thread already says so
 *     }
 *     return;
 *   }
 *   const detection = detectTrigger(event, parsed.config, self);          // core/plan
 *   if (detection.kind === "ignore") return log(detection.reason);
 *   const prepared = await prepareRun({ octokit, trigger: detection.trigger, config, self, client, lookup, origin });
 *   switch (prepared.action) {
 *     case "ignore":    log(prepared.reason); break;
 *     case "refuse":    post(prepared.thread, prepared.body); break;      // one short reply, no run
 *     case "hand_back": post(prepared.thread, prepared.body); break;      // CI attempt cap reached
 *     case "create":    react(prepared.reaction, "eyes"); track(); client.createRun(prepared.request); break;
 *     case "resume":    react(…); track(); client.resumeRun(prepared.runId, prepared.resumePrompt); break;
 *     case "queue":     react(…); note on the run's tracking comment; send prepared.resumePrompt as a resume once prepared.runId finishes;
 *   }
 *
 * Exported API:
 *
 * - `prepareRun(input: PrepareRunInput): Promise<PreparedRun>` — permission (checkTriggerPermission,
 *   skipped for CI and explicit prompts; a bot that `classifyActor` calls an `allowed_bot` under
 *   `input.self.allowedBots` is allowed by that list), the known run (the lookup's active run in the thread, then
 *   the bot's trusted markers in the thread and, for pull requests, the run that produced the head
 *   branch: reviews and CI look at the branch first), whether it is still working (lookup, else
 *   `client.getRun` + classifyRunStatus; a 404 means no known run), CI facts (attempts from the lookup
 *   or countFixAttempts, this head SHA already tried, already handed back, failing checks left after
 *   `ignore_checks`), then `planRun`. For create/resume/queue it fetches the prompt context (thread
 *   and its last 300 comments, PR refs, review and inline comments, failed check runs with
 *   annotations or failed workflow jobs with log tails) and builds `resumePrompt` always and, for
 *   create, `request` = { prompt, metadata (buildRunMetadata, with `source_type`), images (the
 *   trigger's GitHub attachments as data URIs, at most 4 of at most 3 MB), repo_id, model, agent_type }.
 *   `repo_id` is the configured one, else the one the service lists for the GitHub repository
 *   (`client.listRepositories`, when the shell's client has it; remembered an hour per client),
 *   else none; create's `repository` says which, or why there is none.
 * - `PreparedRun`: `{ action: "ignore" | "refuse" | "hand_back" | "create" | "resume" | "queue", plan,
 *   facts, reason, thread, … }`; refuse/hand_back carry `body` (rendered reply); create/resume/queue
 *   carry `reaction` (👀 target or null), `requester`, `sourceType`, `triggerUrl`, `markerHints`
 *   ({ sourceType, branches, headSha? } for a shell that writes its own run marker), `checkAttempt`
 *   (CI: { prNumber, headSha, number, max }), `promptInput`, `resumePrompt`; create adds `request`
 *   and `skippedImages`; resume adds `runId`, `orgId`; queue adds `runId` (null while the thread's
 *   run is still being created) and `orgId`.
 * - `replanWithKnownRun(prepared, knownRun)`: re-plans a resume/queue with fresher knowledge of
 *   whether the run is working (moves between resume and queue only).
 * - `KnownRunLookup` (the caller's own records; every method may answer null = "no record, read the
 *   markers") and `MARKERS_ONLY_LOOKUP` for shells without records (the Action).
 * - `RunReader`: `{ orgId, getRun(runId) }`, which `AgentRunClient` satisfies.
 * - `configForDetection(raw)`, `detectDespiteConfigError(event, raw, self)`,
 *   `configErrorReply({ octokit, repo, threadNumber, errors, self, file? })`, `REPO_CONFIG_FILE`.
 * - `prepareStop({ octokit, request, config, self, client? })` for a `detectStopRequest` (core/stop):
 *   refuse (with the refusal body) or stop (the open tracking comments' final bodies, the reply, the
 *   👍 target, the runs stopped). The App also drops the follow-ups it holds and pauses its watch.
 * - `checkSpendLimitsFromComments({ octokit, repo, prepared, config, self, now })`: the spend limits
 *   counted from the bot's own comments (for shells without a store); a shell with records passes
 *   its counts to core's `judgeSpendLimits` instead.
 * - Kill switch and a stopped pull request: `detectTrigger` ignores triggers on a thread carrying
 *   the kill-switch label; `prepareRun` reads a CI trigger's pull request labels and ignores CI
 *   failures there too, and while CI auto-fix is paused by a `/agent stop` (core/stop).
 * - Building blocks for shells with other needs: `findKnownRun`, `checkFailureFacts`,
 *   `triggerPermission`, `fetchCheckFailures`, `fetchReviewComments`, `promptInputFor`,
 *   `triggerImages`, `asMarkerComments`, `asPromptComments`.
 */
export * from "./types.js";
export { prepareRun, replanWithKnownRun, THREAD_COMMENT_SCAN_LIMIT } from "./prepare.js";
export { configErrorReply, configForDetection, detectDespiteConfigError, REPO_CONFIG_FILE } from "./config-errors.js";
export { asMarkerComments, checkFailureFacts, findKnownRun, headBranchOf, triggerPermission, type KnownRunQuery } from "./facts.js";
export { asPromptComments, fetchCheckFailures, fetchReviewComments, promptInputFor, type CheckFailures, type FetchedThread } from "./context.js";
export { DEFAULT_MAX_IMAGE_BYTES, triggerImages } from "./images.js";
export { prepareStop, type PreparedStop, type StopEdit } from "./stop.js";
export { checkSpendLimitsFromComments, REPOSITORY_COMMENT_PAGES, type SpendLimitCheck } from "./spend-limits.js";
export {
  MAX_REPOSITORY_PAGES,
  REPOSITORY_ID_CACHE_MS,
  RepositoryIdDirectory,
  sharedRepositoryIds,
  type RepositoryIdResolution,
  type RepositoryLister,
} from "./repository-id.js";
