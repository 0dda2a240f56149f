/**
 * The Action writes to the job's log through one door, src/action/door.ts, where redaction and the
 * fence against workflow commands live (core/workflow-commands.ts): a file that printed with
 * @actions/core's writers, console or the raw streams itself would let a run's text be read as a
 * command. runner.ts and post-step.ts may still mask secrets and save state (their values are
 * escaped or go to a file); octokit-log.ts keeps the GitHub client's own warnings off stderr.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SRC, tsFiles } from "./imports.js";

const ACTION = join(SRC, "action");
const DOOR = "door.ts";

/** The ways a source text could print around the door. */
function directWritesIn(source: string): string[] {
  const writes =
    /\bcore\s*\.\s*(?:info|warning|error|notice|debug|setFailed|setOutput|summary|startGroup|endGroup|group|issueCommand)\b|\bprocess\s*\.\s*(?:stdout|stderr)\b|\bconsole\s*\.\s*\w+|\.\s*write(?:Sync)?\s*\(\s*(?:1|2)\s*,/g;
  return [...source.matchAll(writes)].map((match) => match[0]);
}

describe("the Action's one door to the job's log", () => {
  it("the scan sees the ways around it", () => {
    expect(directWritesIn("core.info(run.web_url);")).toEqual(["core.info"]);
    expect(directWritesIn("core.setFailed(message)")).toEqual(["core.setFailed"]);
    expect(directWritesIn("console.warn(text)")).toEqual(["console.warn"]);
    expect(directWritesIn("process.stderr.write(text)")).toEqual(["process.stderr"]);
    expect(directWritesIn("core.setSecret(token); core.saveState(name, json); log.info(text)")).toEqual([]);
  });

  it("no file under src/action but the door prints", () => {
    const files = tsFiles(ACTION).filter((file) => relative(ACTION, file) !== DOOR);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) => directWritesIn(readFileSync(file, "utf8")).map((write) => `${relative(ACTION, file)}: ${write}`));
    expect(found).toEqual([]);
  });
});
