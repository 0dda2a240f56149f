/** Marker fixtures shared by the marker and CI tests: a running marker, its line, and comments by the bot or a person. */
import { listTrustedRunMarkers, type FoundRunMarker, type MarkerComment } from "../../../src/core/markers/trust.js";
import type { MarkerPlace, RunMarker } from "../../../src/core/markers/schema.js";
import { SOURCE } from "../../../src/service/wire.js";

export const APP = { botLogins: ["my-app[bot]"] };
export const ACTION = { botLogins: ["github-actions[bot]"] };

/** The thread the fixtures' markers were written in, and are read in unless a test says otherwise. */
export const PLACE: MarkerPlace = { repository: "octo-org/widgets", thread: 1 };

export const running: RunMarker = {
  v: 2,
  repo: PLACE.repository,
  thread: PLACE.thread,
  runId: 123,
  orgId: 1,
  sourceType: SOURCE.gitHost,
  branches: ["agent/run-123"],
  state: "running",
};
export const RUNNING_LINE =
  '<!-- agent-run-bridge:run {"v":2,"repo":"octo-org/widgets","thread":1,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":["agent/run-123"],"state":"running"} -->';

/** The same marker as written before markers named their thread. */
export const LEGACY_RUNNING_LINE =
  '<!-- agent-run-bridge:run {"v":1,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":["agent/run-123"],"state":"running"} -->';

export const bot = (id: number, body: string, login = "my-app[bot]"): MarkerComment => ({ id, body, user: { login, type: "Bot" } });
export const human = (id: number, body: string, login = "mallory"): MarkerComment => ({ id, body, user: { login, type: "User" } });

/** The newest run marker the bot wrote in the thread (listTrustedRunMarkers' first): what a reader of the thread believes. */
export function newestTrustedRunMarker(...args: Parameters<typeof listTrustedRunMarkers>): FoundRunMarker | null {
  return listTrustedRunMarkers(...args)[0] ?? null;
}
