/**
 * A file's text from a repository's default branch, and a repository's visibility: the two reads
 * the configuration loader makes. Raw format, as Probot's config loader asks, so that conditional
 * reads (conditional-reads.ts) answer repeated reads of either from their copy.
 */
import { createHash } from "node:crypto";
import type { GitHubClient, RepoRef } from "./client.js";
import { callGitHub, isNotFound, toGitHubError } from "./errors.js";

/** `sha`: the file's git blob sha, which names this version of it (what the contents API's JSON calls `sha`). */
export type RepositoryFile = { kind: "file"; text: string; sha: string } | { kind: "absent" } | { kind: "not_a_file" };

/** Git's blob sha of a text: sha1 over "blob <bytes>\0" and the bytes, as `git hash-object` computes it. */
function gitBlobSha(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** The file at `path` on the default branch: its text, absent (404), or something else there (a directory, a submodule). */
export async function readRepositoryFile(octokit: GitHubClient, repo: RepoRef, path: string): Promise<RepositoryFile> {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
      ...repo,
      path,
      mediaType: { format: "raw" },
    });
    // A directory or a submodule is answered as JSON whatever the format asked for.
    return typeof data === "string" ? { kind: "file", text: data, sha: gitBlobSha(data) } : { kind: "not_a_file" };
  } catch (error) {
    if (isNotFound(error)) return { kind: "absent" };
    throw toGitHubError(error, `reading ${path} in ${repo.owner}/${repo.repo}`);
  }
}

/** `visibility` (public, internal, private) and `private`, as `GET /repos/{owner}/{repo}` reports them. */
export async function readRepositoryVisibility(
  octokit: GitHubClient,
  repo: RepoRef,
): Promise<{ visibility: string | null; private: boolean | null }> {
  const { data } = await callGitHub(`reading the visibility of ${repo.owner}/${repo.repo}`, () =>
    octokit.request("GET /repos/{owner}/{repo}", { ...repo }),
  );
  return { visibility: data.visibility ?? null, private: typeof data.private === "boolean" ? data.private : null };
}
