import { UsageError } from "./errors.js";

/** `--prompt -` reads the prompt from stdin (for long prompts, or piped from another tool). */
export async function resolvePrompt(value: string, stdin: AsyncIterable<string | Uint8Array>): Promise<string> {
  if (value !== "-") return value;
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "")
    throw new UsageError("--prompt -: stdin was empty; pipe the prompt in, e.g. `cat task.md | agent-run create --prompt -`.");
  return text;
}
