/**
 * The CLI writes to the terminal through one door, CliContext (src/cli/context.ts), where redaction
 * and terminal escaping live: a command that wrote to process.stdout, console or the raw streams
 * itself would print a run's text with its escape sequences intact. process-io.ts only hands the
 * real streams to the context.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SRC, tsFiles } from "./imports.js";

const CLI = join(SRC, "cli");
/** The door itself, and the launcher that gives it the process's streams. */
const DOOR = ["context.ts", "process-io.ts"];

/** The ways a source text could write around the door. */
function directWritesIn(source: string): string[] {
  const writes =
    /\bprocess\s*\.\s*(?:stdout|stderr)\b|\bconsole\s*\.\s*\w+|\bio\s*\.\s*(?:stdout|stderr)\b|\.\s*write(?:Sync)?\s*\(\s*(?:1|2)\s*,/g;
  return [...source.matchAll(writes)].map((match) => match[0]);
}

describe("the CLI's one door to the terminal", () => {
  it("the scan sees the ways around it", () => {
    expect(directWritesIn("process.stdout.write(run.summary);")).toEqual(["process.stdout"]);
    expect(directWritesIn("console.log(entry.thought);")).toEqual(["console.log"]);
    expect(directWritesIn("context.io.stderr.write(problem);")).toEqual(["io.stderr"]);
    expect(directWritesIn("fs.writeSync(1, text);")).toEqual([".writeSync(1,"]);
    expect(directWritesIn("context.out(renderRun(run));")).toEqual([]);
  });

  it("no file under src/cli but the door writes to the streams", () => {
    const files = tsFiles(CLI).filter((file) => !DOOR.includes(relative(CLI, file)));
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) => directWritesIn(readFileSync(file, "utf8")).map((write) => `${relative(CLI, file)}: ${write}`));
    expect(found).toEqual([]);
  });
});
