/**
 * The repository configuration for the Action: `.github/agent-run.yml` read through the API from
 * the default branch (a pull request cannot loosen it), validated by the App's schema, then the
 * inputs laid over it. The file is optional; a broken file is an error the user must see.
 */
import { actionEventDefaults } from "../config/action-defaults.js";
import { configInputFromStrings } from "../config/inputs.js";
import { parseRepoConfig, type ParseRepoConfigResult } from "../config/schema.js";
import { CONFIG_PATH } from "../config/path.js";
import type { ActionInputs } from "./inputs.js";

export { fetchConfigFile } from "./config-file.js";
export { parseConfigFile } from "./config-yaml.js";

/** The inputs that are also configuration keys. */
const INPUT_BY_PATH: Readonly<Record<string, string>> = {
  trigger_phrase: "trigger-phrase",
  repo_id: "repo-id",
  model: "model",
  agent_type: "agent-type",
  follow_up: "follow-up",
};

/**
 * The configuration as the Action's inputs and the file say it together, before validation: inputs
 * over the file, over the Action's own defaults for the event (config/action-defaults.ts: a workflow
 * that listens to `workflow_run` is itself the opt-in to CI auto-fix unless the file says otherwise).
 */
export function layeredConfigInput(fileRaw: unknown, inputs: ActionInputs, eventName: string): unknown {
  const values: Record<string, string | undefined> = {
    ...actionEventDefaults(eventName, fileRaw),
    trigger_phrase: inputs.triggerPhrase,
    repo_id: inputs.repoId === undefined ? undefined : String(inputs.repoId),
    model: inputs.model,
    agent_type: inputs.agentType,
    follow_up: inputs.followUp,
  };
  return configInputFromStrings(values, fileRaw ?? {});
}

/**
 * The configuration the Action acts on: inputs over the file over the defaults, validated by the
 * App's schema; a message names the input, or the key of the file, at fault.
 */
export function effectiveConfig(fileRaw: unknown, inputs: ActionInputs, eventName: string): ParseRepoConfigResult {
  return parseRepoConfig(layeredConfigInput(fileRaw, inputs, eventName), {
    label: (path) => (INPUT_BY_PATH[path] ? `input \`${INPUT_BY_PATH[path]}\`` : `\`${path}\` in ${CONFIG_PATH}`),
  });
}
