/**
 * Watching: polls the run until a final state or `timeout-minutes`. Status changes are rare: each
 * gets one edit of the tracking comment with what the agent is doing now, in order, all done
 * before the result replaces the comment.
 */
import { readCurrentStep, watchRun, type WatchResult } from "../runs.js";
import type { StopWatch } from "../stop-watch.js";
import type { TrackedRun } from "./start.js";
import type { Step } from "./step.js";

export async function watchToEnd(step: Step, tracked: TrackedRun, stopWatch: StopWatch | null): Promise<WatchResult> {
  const { client } = step;
  const run = tracked.run!;
  const triggerPhrase = tracked.config.trigger_phrase;
  let progress: Promise<unknown> = Promise.resolve();
  let final = false;
  const watched = await watchRun(client, run, {
    deadline: step.deadline,
    poll: step.poll,
    onUpdate: (latest, phase) => {
      if (phase !== "in_progress" || !tracked.thread.enabled) return;
      progress = progress.then(async () => {
        const current = await readCurrentStep(client, run.id, { deadline: step.deadline, triggerPhrase });
        if (!final && !(await stopWatch?.check())) await tracked.track("running", latest.web_url ?? null, current);
      });
    },
    ...(stopWatch ? { signal: stopWatch.signal } : {}),
  });
  final = true;
  await progress;
  tracked.run = watched.run;
  return watched;
}
