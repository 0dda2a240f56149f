/**
 * Outside text has one door into a prompt: src/core/prompt/material.ts. Only that file makes the
 * `PromptText` brand, cleans and fences text, or bounds it; the sections and builders around it
 * assemble prompt text and nothing else, and what they hand the flows is prompt text.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { buildResumePrompt, buildRunPrompt } from "../../../src/core/prompt/build.js";
import type { PromptText } from "../../../src/core/prompt/material.js";
import { checkFailureHeader, checkFailureSection, fitPrompt, reviewSection, threadSection } from "../../../src/core/prompt/sections.js";
import { SRC, importsOf, tsFiles } from "./imports.js";

const MATERIAL = join(SRC, "core/prompt/material.ts");
/** The prompt's parts: everything that words a prompt, material.ts excepted. images.ts only reads attachments out of text. */
const PROMPT_PARTS = tsFiles(join(SRC, "core/prompt")).filter((file) => file !== MATERIAL && !file.endsWith("images.ts"));

describe("the door for outside text into a prompt", () => {
  it("only material.ts makes the PromptText brand", () => {
    const casts = tsFiles(SRC)
      .filter((file) => file !== MATERIAL && /as\s+(?:unknown\s+as\s+)?PromptText\b/.test(readFileSync(file, "utf8")))
      .map((file) => relative(SRC, file));
    expect(casts).toEqual([]);
  });

  it("the prompt's parts neither clean, bound nor fence text themselves: they go through material.ts", () => {
    const offenders = PROMPT_PARTS.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const found: string[] = [];
      if (importsOf(file).some((target) => target.endsWith("sanitize-input.ts"))) found.push("imports sanitize-input");
      if (text.includes("```") || /"`"\.repeat/.test(text)) found.push("writes a fence");
      return found.map((what) => `${relative(SRC, file)}: ${what}`);
    });
    expect(offenders).toEqual([]);
  });

  it("every part and every prompt is PromptText", () => {
    expectTypeOf(buildRunPrompt).returns.toEqualTypeOf<PromptText>();
    expectTypeOf(buildResumePrompt).returns.toEqualTypeOf<PromptText>();
    for (const part of [threadSection, reviewSection, checkFailureSection, checkFailureHeader, fitPrompt]) {
      expectTypeOf(part).returns.toEqualTypeOf<PromptText>();
    }
    // A bare string is not prompt text: the compiler refuses it (checked by `npm run typecheck`).
    // @ts-expect-error a string from outside cannot stand where prompt text is expected
    fitPrompt("bare outside text", "" as PromptText, {});
  });
});
