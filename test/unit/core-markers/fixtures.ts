/** Marker fixtures shared by the marker and CI tests: a running marker, its line, and comments by the bot or a person. */
import type { MarkerComment } from "../../../src/core/markers/trust.js";
import type { RunMarker } from "../../../src/core/markers/schema.js";
import { SOURCE } from "../../../src/service/wire.js";

export const APP = { botLogins: ["my-app[bot]"] };
export const ACTION = { botLogins: ["github-actions[bot]"] };

export const running: RunMarker = {
  v: 1,
  runId: 123,
  orgId: 1,
  sourceType: SOURCE.gitHost,
  branches: ["agent/run-123"],
  state: "running",
};
export const RUNNING_LINE =
  '<!-- agent-run-bridge:run {"v":1,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":["agent/run-123"],"state":"running"} -->';

export const bot = (id: number, body: string, login = "my-app[bot]"): MarkerComment => ({ id, body, user: { login, type: "Bot" } });
export const human = (id: number, body: string, login = "mallory"): MarkerComment => ({ id, body, user: { login, type: "User" } });
