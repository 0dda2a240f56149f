/**
 * Whose text in a prompt may be read as coming from someone who could have written it into the
 * repository: the access of each author a new run's prompt quotes, read from the collaborator
 * permission API once per distinct login, at most `MAX_AUTHOR_ACCESS_READS` per preparation.
 */
import { authorAccessOfRole, type AuthorAccess } from "../core/prompt/context.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { getRepoPermission } from "../github/permissions.js";
import type { FlowLogger } from "./logger.js";

/**
 * Reads per prompt: a thread quotes its description and up to 20 comments, mostly by a few people.
 * Authors past the bound (the oldest comments' first) stay unknown, which the prompt treats as no
 * access: their text is quoted as material, never followed.
 */
const MAX_AUTHOR_ACCESS_READS = 10;

/**
 * The access of each login, in the order given (most important first), read concurrently; a
 * login past `max` or whose permission cannot be read is left out (unknown, quoted as no access).
 */
export async function readAuthorAccess(
  octokit: GitHubClient,
  repo: RepoRef,
  logins: readonly string[],
  options: { max?: number; logger?: FlowLogger } = {},
): Promise<Map<string, AuthorAccess>> {
  const distinct = [...new Set(logins)];
  const read = distinct.slice(0, options.max ?? MAX_AUTHOR_ACCESS_READS);
  if (distinct.length > read.length)
    options.logger?.warn(
      { unread: distinct.length - read.length },
      "more comment authors than access reads: the rest are quoted as without access",
    );
  const access = new Map<string, AuthorAccess>();
  await Promise.all(
    read.map(async (login) => {
      try {
        access.set(login, authorAccessOfRole(await getRepoPermission(octokit, repo, login)));
      } catch (error) {
        options.logger?.warn(
          { login, error: error instanceof Error ? error.message : String(error) },
          "a comment author's access could not be read: quoted as without access",
        );
      }
    }),
  );
  return access;
}
