/**
 * The repository's configuration file as the Action reads it: its text through the API from the
 * default branch, then its YAML. Validation is repo-config.ts's; this part needs neither zod nor the
 * schema, so the head start can send the read before they are loaded.
 */
import { CONFIG_PATH } from "../config/path.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { isNotFound, toGitHubError } from "../github/errors.js";

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

type YamlModule = typeof import("yaml");

/**
 * `parse` from the yaml module as it arrives: named under Node (which reads yaml's CommonJS exports),
 * but only as `default` in the bundle, where esbuild inlines that CommonJS build into an ESM chunk.
 */
function yamlParse(module: YamlModule | { default: YamlModule }): YamlModule["parse"] {
  return "parse" in module ? module.parse : module.default.parse;
}

/**
 * Parses the file's YAML (validation happens once the inputs are layered over it). The YAML parser
 * is loaded only when there is a file: most repositories have none, and a step starts faster without it.
 */
export async function parseConfigFile(text: string | undefined): Promise<ConfigFileRead> {
  if (text === undefined) return { ok: true, raw: undefined, found: false, warnings: [] };
  const parseYaml = yamlParse(await import("yaml"));
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
