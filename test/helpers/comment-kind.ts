/** Which kind of bot comment a body is (by its single marker), or null: how a test tells the bot's replies apart. Checks neither author nor thread. */
import { parseKindMarker, parseMarker } from "../../src/core/markers/read.js";
import type { BotCommentKind } from "../../src/core/markers/schema.js";

export function parseCommentKind(body: string | null | undefined): BotCommentKind | null {
  if (parseMarker(body) !== null) return "run";
  return parseKindMarker(body)?.kind ?? null;
}
