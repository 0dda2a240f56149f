/**
 * GitHub's write pacing, time-scaled. Probot's Octokit paces every write of the process through
 * @octokit/plugin-throttling: one content write per second, and one notifying write (a new issue
 * comment) per 3 seconds, process-wide. Those are rate windows like the service's, so a benchmark that
 * compresses time must compress them by the same factor. The plugin takes its limiters from the
 * `throttle` options (`write`, `notifications`); these stand in for its Bottleneck groups with the
 * same rule (first come first served, starts at least `minTime` apart), only shorter.
 */
import { ProbotOctokit } from "probot";

/** The plugin's own figures (@octokit/plugin-throttling createGroups). */
export const GITHUB_PACING_MS = { write: 1_000, notifications: 3_000 } as const;

/** What the plugin calls on a group: `group.key(id).schedule(options, job, ...args)`. */
class PacedGroup {
  private last = Number.NEGATIVE_INFINITY;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly minTimeMs: number) {}

  key(): PacedGroup {
    return this;
  }

  schedule<A extends unknown[], R>(_options: object, job: (...args: A) => Promise<R>, ...args: A): Promise<R> {
    const turn = this.tail.then(async () => {
      const wait = this.last + this.minTimeMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.last = performance.now();
    });
    // The next job waits for this one's start, not its end (the plugin's jobs here are no-ops).
    this.tail = turn;
    return turn.then(() => job(...args));
  }
}

/** Probot's Octokit with GitHub's write pacing multiplied by `scale` (1 = Probot's defaults, untouched). */
export function scaledPacingOctokit(scale: number): typeof ProbotOctokit {
  if (!(scale > 0)) throw new RangeError(`the GitHub pacing scale must be a positive number, got ${scale}`);
  const write = new PacedGroup(GITHUB_PACING_MS.write * scale);
  const notifications = new PacedGroup(GITHUB_PACING_MS.notifications * scale);
  // Only the function form reaches the throttle options Probot builds (see facts.md).
  return ProbotOctokit.defaults((options: { throttle?: object }) => ({
    ...options,
    throttle: { ...options.throttle, write, notifications },
  })) as typeof ProbotOctokit;
}
