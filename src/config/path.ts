/**
 * Where the repository configuration lives. A file of its own, free of zod and the schema: the
 * Action's head start reads the file before either is loaded.
 */

/** The name under `.github/` (Probot's `context.config` takes it so). */
const CONFIG_FILE_NAME = "agent-run.yml";

/** The path from the repository's root. */
export const CONFIG_PATH = `.github/${CONFIG_FILE_NAME}`;
