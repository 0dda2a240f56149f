/**
 * The repository configuration for the Action: `.github/agent-run.yml` read through the API from
 * the default branch (a pull request cannot loosen it), validated by the App's schema, then the
 * inputs laid over it. The file is optional; a broken file is an error the user must see.
 */
import { configInputFromStrings } from "../config/inputs.js";
import { parseRepoConfig, type ParseRepoConfigResult } from "../config/schema.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { isNotFound, toGitHubError } from "../github/errors.js";
import type { ActionInputs } from "./inputs.js";

export const CONFIG_PATH = ".github/agent-run.yml";

/** The file as YAML, before validation; `undefined` when the repository has none. */
export type ConfigFileRead = { ok: true; raw: unknown; found: boolean; warnings: string[] } | { ok: false; errors: string[] };

/** The file's text, or undefined when the repository has none (404). */
export async function fetchConfigFile(octokit: GitHubClient, repo: RepoRef): Promise<string | undefined> {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { ...repo, path: CONFIG_PATH });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return undefined;
    return Buffer.from(data.content, "base64").toString("utf8");
  } catch (error) {
    if (isNotFound(error)) return undefined;
    const mapped = toGitHubError(error, `reading ${CONFIG_PATH} in ${repo.owner}/${repo.repo}`);
    mapped.message += " The workflow's token needs `contents: read` to read the configuration.";
    throw mapped;
  }
}

/**
 * Parses the file's YAML (validation happens once the inputs are layered over it). The YAML parser
 * is loaded only when there is a file: most repositories have none, and a step starts faster without it.
 */
export async function parseConfigFile(text: string | undefined): Promise<ConfigFileRead> {
  if (text === undefined) return { ok: true, raw: undefined, found: false, warnings: [] };
  const { parse: parseYaml } = await import("yaml");
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    return { ok: false, errors: [`${CONFIG_PATH} is not valid YAML: ${(error as Error).message.split("\n")[0]}`] };
  }
  const warnings: string[] = [];
  if (raw !== null && typeof raw === "object" && "_extends" in raw) {
    warnings.push(`${CONFIG_PATH}: \`_extends\` is resolved by the App only; the Action reads this file alone.`);
  }
  return { ok: true, raw: raw ?? undefined, found: true, warnings };
}

/** The inputs that are also configuration keys. */
const INPUT_BY_PATH: Readonly<Record<string, string>> = {
  trigger_phrase: "trigger-phrase",
  repo_id: "repo-id",
  model: "model",
  agent_type: "agent-type",
};

/** Whether the file itself says `check_suite.enabled` (true or false). */
function setsCheckSuiteEnabled(raw: unknown): boolean {
  if (raw === null || typeof raw !== "object") return false;
  const section = (raw as Record<string, unknown>).check_suite;
  return section !== null && typeof section === "object" && "enabled" in section;
}

/**
 * The configuration as the Action's inputs and the file say it together, before validation: inputs
 * over the file. A workflow that listens to `workflow_run` is itself the opt-in to CI auto-fix, so
 * `check_suite.enabled` is on unless the file turns it off explicitly.
 */
export function layeredConfigInput(fileRaw: unknown, inputs: ActionInputs, eventName: string): unknown {
  const values: Record<string, string | undefined> = {
    trigger_phrase: inputs.triggerPhrase,
    repo_id: inputs.repoId === undefined ? undefined : String(inputs.repoId),
    model: inputs.model,
    agent_type: inputs.agentType,
  };
  if (eventName === "workflow_run" && !setsCheckSuiteEnabled(fileRaw)) values["check_suite.enabled"] = "true";
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
