import { describe, expect, it } from "vitest";
import { describeCurrentStep, describeStep, digestTrace, observationText } from "../../../src/core/trace.js";
import { LogEntrySchema, type LogEntry, TOOL_NAMES } from "../../../src/service/wire.js";
import { mentionsIn, readGfm } from "./gfm.js";

/** Entries read through the wire schema, as the client hands them over (spec §2.5, §2.7). */
function entry(fields: Record<string, unknown>): LogEntry {
  return LogEntrySchema.parse({
    agent_run_id: 42,
    created_at: "2025-06-21 11:20:04.338398",
    thought: null,
    tool_name: null,
    tool_input: null,
    tool_output: null,
    observation: null,
    ...fields,
  });
}

const search = entry({
  message_type: "ACTION",
  thought: 'Searching the repository for "retryDelay" to find where it is handled.',
  tool_name: TOOL_NAMES.search,
  tool_input: { pattern: "retryDelay", path: "src/" },
  tool_output: { matches: [{ file: "src/retry.ts", line: 12 }] },
  observation: 'Found 3 matches for "retryDelay"; src/retry.ts looks relevant.',
});
const plan = entry({ message_type: "PLAN_EVALUATION", thought: "Progress check: the change is in place; next, verify the callers." });
const write = entry({
  message_type: "ACTION",
  thought: "Updating src/retry.ts.",
  tool_name: TOOL_NAMES.write,
  tool_input: { path: "src/retry.ts", content: "export const retryDelay = 100;\n" },
  tool_output: { bytes: 31 },
  observation: "Wrote src/retry.ts.",
});
const pr = entry({
  message_type: "INITIAL_PR_GENERATION",
  thought: "Opening a pull request from agent/run-42.",
  observation: { pull_request: { id: 7 } },
});
const finalAnswer = entry({
  message_type: "FINAL_ANSWER",
  thought: "The task is complete.",
  observation: "Made retryDelay configurable and opened a pull request.",
});
const toolError = entry({
  message_type: "ERROR",
  tool_name: TOOL_NAMES.write,
  observation: { error: "EACCES: permission denied, open 'src/retry.ts'", file: "src/retry.ts" },
});
const plainError = entry({ message_type: "ERROR", observation: "The model ran out of tokens.\nTraceback: …" });

describe("describeCurrentStep", () => {
  it("describes the latest entry in a few words, tools by their input", () => {
    expect(describeCurrentStep([search])).toBe("Searching the code for `retryDelay` in `src/`");
    expect(describeCurrentStep([search, write])).toBe("Writing `src/retry.ts`");
    expect(describeCurrentStep([search, write, plan])).toBe("Evaluating the plan");
    expect(describeCurrentStep([search, write, plan, pr])).toBe("Opening a pull request");
    expect(describeCurrentStep([search, write, plan, pr, finalAnswer])).toBe("Writing the final answer");
    expect(describeCurrentStep([search, toolError])).toBe("Error in `file_write`: EACCES: permission denied, open 'src/retry.ts'");
    expect(describeCurrentStep([plainError])).toBe("Error: The model ran out of tokens.");
  });

  it("names every spec message type", () => {
    const line = (message_type: string) => describeStep(entry({ message_type }));
    expect(line("USER_MESSAGE")).toBe("Reading a message from the user");
    expect(line("USER_GIT_HOST_ISSUE_COMMENT")).toBe("Reading a comment from the thread");
    expect(line("DETECT_PR_ERRORS")).toBe("Checking the pull request for errors");
    expect(line("FIX_PR_ERRORS")).toBe("Fixing errors in the pull request");
    expect(line("PR_CREATION_FAILED")).toBe("Error: the pull request could not be created");
    expect(line("PR_EVALUATION")).toBe("Reviewing the pull request");
    expect(line("COMMIT_EVALUATION")).toBe("Reviewing the commits");
    expect(line("AGENT_RUN_LINK")).toBe("Linking a related agent run");
    expect(line("ERROR")).toBe("Error");
    expect(line("ACTION")).toBe("Taking an action");
  });

  it("copes with ALPHA junk: missing fields, unknown types, input as a JSON string, other tools", () => {
    const junk = [
      entry({}),
      entry({ message_type: "SOMETHING_NEW" }),
      entry({ message_type: null, thought: "no type" }),
      entry({ message_type: "ACTION", tool_name: TOOL_NAMES.search, tool_input: null }),
    ];
    expect(describeCurrentStep(junk)).toBe("Searching the code");
    expect(describeCurrentStep(junk.slice(0, 3))).toBeNull();
    expect(describeCurrentStep([])).toBeNull();
    expect(describeStep(entry({ message_type: "action", tool_name: "FILE_WRITE", tool_input: '{"path":"a.ts","content":"x"}' }))).toBe(
      "Writing `a.ts`",
    );
    expect(describeStep(entry({ message_type: "ACTION", tool_name: TOOL_NAMES.write, tool_input: "not json" }))).toBe("Writing a file");
    expect(
      describeStep(entry({ message_type: "ACTION", tool_name: TOOL_NAMES.search, tool_input: { query: "x", paths: ["a/", "b/"] } })),
    ).toBe("Searching the code for `x` in `a/, b/`");
    expect(describeStep(entry({ message_type: "ACTION", tool_name: TOOL_NAMES.search, tool_input: { path: "lib/" } }))).toBe(
      "Searching the code in `lib/`",
    );
    // A new type that names a tool still says something.
    expect(describeStep(entry({ message_type: "TOOL_CALL", tool_name: "shell_exec" }))).toBe("Running `shell_exec`");
    // Not even an object (the schema would reject it; the reader still must not throw).
    expect(describeCurrentStep([null, 3, "x"] as unknown as LogEntry[])).toBeNull();
  });

  it("keeps agent text in a step line inert and short", () => {
    const hostile = entry({
      message_type: "ACTION",
      tool_name: TOOL_NAMES.search,
      tool_input: { pattern: "`</details><img src=x onerror=alert(1)>` @org/team " + "x".repeat(200), path: "a|b" },
    });
    const step = describeCurrentStep([hostile])!;
    expect(step).toBe(
      `Searching the code for \`\` \`</details><img src=x onerror=alert(1)>\` @org/team ${"x".repeat(28)}… \`\` in <code>a&#124;b</code>`,
    );
    const reading = readGfm(`**Now:** ${step}`);
    expect(reading.html).toEqual(["<code>", "</code>"]);
    expect(mentionsIn(reading)).toEqual([]);
    const error = describeCurrentStep([entry({ message_type: "ERROR", observation: "/agent rm -rf @everyone <b>" })], {
      triggerPhrase: "/agent",
    });
    expect(error).toBe("Error: `/agent` rm -rf `@everyone` &lt;b&gt;");
  });
});

describe("digestTrace", () => {
  const entries = [search, plan, write, toolError, toolError, plainError, pr, finalAnswer];

  it("keeps every error (repeats counted once), the last steps and the final answer", () => {
    expect(digestTrace(entries, { maxSteps: 3 })).toEqual({
      errors: ["file_write: EACCES: permission denied, open 'src/retry.ts' (×2)", "The model ran out of tokens.\nTraceback: …"],
      lastSteps: ["Error: The model ran out of tokens.", "Opening a pull request", "Writing the final answer"],
      finalAnswer: "Made retryDelay configurable and opened a pull request.",
      totalEntries: 8,
    });
  });

  it("takes the last final answer, falls back to its thought, and allows no steps", () => {
    const digest = digestTrace([finalAnswer, entry({ message_type: "FINAL_ANSWER", thought: "Nothing else to do." })], { maxSteps: 0 });
    expect(digest.finalAnswer).toBe("Nothing else to do.");
    expect(digest.lastSteps).toEqual([]);
    expect(digestTrace([], { maxSteps: 5 })).toEqual({ errors: [], lastSteps: [], finalAnswer: null, totalEntries: 0 });
  });

  it("counts PR creation failures as errors and gives errors without details a text", () => {
    const digest = digestTrace(
      [entry({ message_type: "PR_CREATION_FAILED", observation: { detail: "branch protection" } }), entry({ message_type: "ERROR" })],
      { maxSteps: 10 },
    );
    expect(digest.errors).toEqual(["branch protection", "(no details given)"]);
  });

  it("rejects a maxSteps that is not a whole number of 0 or more", () => {
    expect(() => digestTrace([], { maxSteps: -1 })).toThrow("digestTrace: maxSteps must be a whole number of 0 or more, got -1");
    expect(() => digestTrace([], { maxSteps: 1.5 })).toThrow(RangeError);
  });
});

describe("observationText", () => {
  it("reads strings, the usual message fields, or compact JSON", () => {
    expect(observationText("  done  ")).toBe("done");
    expect(observationText({ message: "m", error: "e" })).toBe("m");
    expect(observationText({ error: "e" })).toBe("e");
    expect(observationText({ pull_request: { id: 7 } })).toBe('{"pull_request":{"id":7}}');
    expect(observationText(42)).toBe("42");
    expect(observationText({})).toBeNull();
    expect(observationText("   ")).toBeNull();
    expect(observationText(null)).toBeNull();
  });
});
