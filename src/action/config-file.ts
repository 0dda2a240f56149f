/**
 * The repository's configuration file as the Action reads it: its text through the API from the
 * default branch. Its YAML is config-yaml.ts's and its validation repo-config.ts's; this part needs
 * neither the parser nor zod nor the schema, so the head start can send the read before they are loaded.
 */
import { CONFIG_PATH } from "../config/path.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { isNotFound, toGitHubError } from "../github/errors.js";

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
