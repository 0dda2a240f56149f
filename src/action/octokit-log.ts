/**
 * Where the GitHub client's own warnings go: @octokit/request warns of a deprecated endpoint with
 * text from GitHub's answer (its `Sunset` and `Link` headers), by default on stderr, which the
 * runner reads for workflow commands too. They go to the step's log through the door instead
 * (door.ts connects it when it opens; the head start's client exists before, so until then they wait).
 * Its own file, without @actions/core: the head start loads it before the rest of the Action.
 */
type Sink = (message: string) => void;

let sink: Sink | null = null;
const waiting: string[] = [];

const toLog = (message: string) => {
  if (sink) sink(message);
  else waiting.push(message);
};
const ignore = () => undefined;

/** The `log` of every client the Action makes (octokit's and its requests'). */
export const octokitLog = { debug: ignore, info: ignore, warn: toLog, error: toLog };

/** Sends the client's warnings (those waiting first) to `next`. */
export function sendOctokitLogTo(next: Sink): void {
  sink = next;
  for (const message of waiting.splice(0)) next(message);
}
