import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { checkConfigText } from "../../config/check-file.js";
import { CONFIG_SCHEMA_URL } from "../../config/json-schema.js";
import { CONFIG_PATH } from "../../config/path.js";
import { UsageError } from "../errors.js";
import { EXIT_CODES } from "../exit-codes.js";
import { defineCommand } from "./registry.js";

async function readConfigText(file: string, cwd: string, stdin: AsyncIterable<string | Uint8Array>): Promise<string> {
  if (file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(resolve(cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      const hint = file === CONFIG_PATH ? " Run the command in the repository's root, or pass the file's path." : "";
      throw new UsageError(`config check: ${file} does not exist.${hint} (Without the file every default applies.)`);
    }
    if (code === "EISDIR") throw new UsageError(`config check: ${file} is a directory; pass the configuration file itself.`);
    throw new UsageError(`config check: cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * `agent-run config check [FILE]`: the repository configuration checked before it is committed.
 * Valid: exit 0 and one line on stdout saying what it turns on. Invalid: exit 2 and every problem
 * on stderr as `FILE:LINE:COLUMN: message`, unknown keys with a "did you mean".
 */
export const configCommand = defineCommand("config", `the repository configuration (${CONFIG_PATH})`, (config, context) => {
  config.addHelpCommand(false);
  config
    .command("check")
    .description("check a configuration file: exit 0 and a summary, or exit 2 and every problem")
    .addHelpText("after", `\nEditors can check the file as it is typed with the JSON Schema at\n  ${CONFIG_SCHEMA_URL}\n`)
    .argument("[file]", 'the file to check; "-" reads stdin', CONFIG_PATH)
    .action(async (file: string) => {
      const name = file === "-" ? "<stdin>" : file;
      const checked = checkConfigText(await readConfigText(file, context.cwd, context.stdin), name);
      if (checked.ok) {
        context.out(`${checked.summary}\n`);
        return;
      }
      for (const problem of checked.problems) context.errText(`${problem}\n`);
      const count = checked.problems.length === 1 ? "1 problem" : `${checked.problems.length} problems`;
      context.error(`${name} is invalid (${count}): the bridge would not act on it.`);
      context.exitCode = EXIT_CODES.usage;
    });
});
