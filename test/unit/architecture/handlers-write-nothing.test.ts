/**
 * One writer per thread: the App's handlers verify, dedupe, store and hand over; every comment,
 * edit and reaction is the engine's (src/app/engine*). A handler that wrote to GitHub itself would
 * be a second owner of the thread's comments again (a stop editing what the engine edits).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const HANDLERS = resolve(dirname(fileURLToPath(import.meta.url)), "../../../src/app/handlers");

/** The GitHub writes a source text makes or could make: the thread writer, or github/'s comment and reaction calls. */
function githubWritesIn(source: string): string[] {
  const writes =
    /\b(writer\s*\.\s*\w+|createComment|updateComment|editComment|addReaction|react)\s*\(|\bwriter\b\s*[:=]|from\s+["'][./]*(?:github\/(?:comments|reactions)|thread-writer)\.js["']/g;
  return [...source.matchAll(writes)].map((match) => match[0]);
}

describe("the App's handlers write nothing to GitHub", () => {
  it("the scan sees the ways a handler could write", () => {
    expect(githubWritesIn('await deps.writer.createComment(thread, body, { priority: "acknowledge" });')).toEqual([
      "writer.createComment(",
    ]);
    expect(
      githubWritesIn('import { addReaction } from "../../github/reactions.js";\nawait addReaction(octokit, repo, target, "+1");'),
    ).toEqual(['from "../../github/reactions.js"', "addReaction("]);
    expect(githubWritesIn('await deps.engine.reply(thread, body, "acknowledge");')).toEqual([]);
  });

  it("no file under src/app/handlers makes one", () => {
    const files = readdirSync(HANDLERS).filter((name) => name.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(3);
    const found = files.flatMap((name) => githubWritesIn(readFileSync(join(HANDLERS, name), "utf8")).map((write) => `${name}: ${write}`));
    expect(found).toEqual([]);
  });
});
