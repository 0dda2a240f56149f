/**
 * Where the settings of a repository may come from: its own `.github/agent-run.yml`, the owner's
 * `.github` repository (Probot's organization defaults, as a fallback or through `_extends`), and
 * nowhere else. A public repository's file must not pull in a private repository's settings, which
 * would then steer its runs and be quoted in its threads. Pure: the caller reads the files and the
 * repositories' visibility, and asks here before it applies what it read.
 *
 * Every message names the key, the rule and the file, never a value written in a file.
 */
import { CONFIG_PATH } from "./path.js";

export type RepoVisibility = "public" | "internal" | "private";

/** Least private first: a repository may take settings from its own rank or a lower one. */
const VISIBILITY_RANK: Readonly<Record<RepoVisibility, number>> = { public: 0, internal: 1, private: 2 };

/** The repository holding the organization defaults (Probot's convention). */
export const ORGANIZATION_DEFAULTS_REPO = ".github";

/** A configuration file: its repository and its path from the repository's root. */
export interface ConfigFileRef {
  owner: string;
  repo: string;
  path: string;
}

/** Probot's `_extends` grammar: `repo`, `owner/repo`, either with `:path/to/file.yml`. */
const EXTENDS_PATTERN = /^(?:([a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38})\/)?([-_.\w\d]+)(?::([-_./\w\d]+\.ya?ml))?$/i;

const RULE =
  "settings are read only from this repository and the owner's `.github` repository (organization defaults), so that no other repository's settings configure this one";

const VISIBILITY_RULE =
  "settings are never read from a repository more private than the one they configure (public, then internal, then private)";

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const inConfiguredRepo = (file: ConfigFileRef, configured: { owner: string; repo: string }) =>
  sameName(file.owner, configured.owner) && sameName(file.repo, configured.repo);

/**
 * How a file is named in messages: its path, with "the owner's `.github` repository" when it is
 * there (the only other repository a file may come from, so naming it quotes nothing).
 */
export function describeConfigFile(file: ConfigFileRef, configured: { owner: string; repo: string }): string {
  return inConfiguredRepo(file, configured)
    ? `\`${file.path}\``
    : `\`${file.path}\` of the owner's \`${ORGANIZATION_DEFAULTS_REPO}\` repository`;
}

/**
 * How a key is named in messages: as written, with the file it came from when that is not the
 * configured repository's own file (`origins` maps each top-level key to its file).
 */
export function labelWithOrigin(
  origins: ReadonlyMap<string, ConfigFileRef>,
  configured: { owner: string; repo: string },
): (path: string) => string {
  return (path) => {
    if (path === "") return "configuration";
    const origin = origins.get(path.split(/[.[]/)[0]!);
    const own = !origin || (inConfiguredRepo(origin, configured) && origin.path === CONFIG_PATH);
    return own ? `\`${path}\`` : `\`${path}\` (in ${describeConfigFile(origin, configured)})`;
  };
}

export type ExtendsJudgement = { ok: true; target: ConfigFileRef; crossesRepository: boolean } | { ok: false; problem: string };

/**
 * The file `_extends` (written in `from`) names, if the rule lets it be read: a repository-only
 * value means the configured repository's owner, a value without a path the same path (Probot's reading).
 */
export function judgeExtends(value: unknown, from: ConfigFileRef, configured: { owner: string; repo: string }): ExtendsJudgement {
  const where = `\`_extends\` in ${describeConfigFile(from, configured)}`;
  const match = typeof value === "string" ? EXTENDS_PATTERN.exec(value.trim()) : null;
  if (!match) {
    return {
      ok: false,
      problem: `${where}: must name the file to inherit from, such as \`${ORGANIZATION_DEFAULTS_REPO}\` or \`${ORGANIZATION_DEFAULTS_REPO}:base.yml\`; ${RULE}.`,
    };
  }
  const target: ConfigFileRef = { owner: match[1] ?? configured.owner, repo: match[2]!, path: match[3] ?? CONFIG_PATH };
  const sameOwner = sameName(target.owner, configured.owner);
  const isConfigured = sameOwner && sameName(target.repo, configured.repo);
  const isDefaults = sameOwner && sameName(target.repo, ORGANIZATION_DEFAULTS_REPO);
  if (!isConfigured && !isDefaults) return { ok: false, problem: `${where}: names another repository; ${RULE}.` };
  return { ok: true, target: { ...target, owner: configured.owner }, crossesRepository: !isConfigured };
}

/** Whether settings read from `source` may configure a repository of `configured` visibility; the problem when not. */
export function judgeSourceVisibility(input: {
  configured: RepoVisibility;
  source: RepoVisibility;
  file: ConfigFileRef;
  via: "extends" | "fallback";
  repo: { owner: string; repo: string };
}): string | null {
  if (VISIBILITY_RANK[input.source] <= VISIBILITY_RANK[input.configured]) return null;
  const file = describeConfigFile(input.file, input.repo);
  const how =
    input.via === "extends"
      ? `\`_extends\` names ${file}`
      : `this repository has no \`${CONFIG_PATH}\`, and the organization defaults in ${file}`;
  return `${how}, which is ${input.source} while this repository is ${input.configured}; ${VISIBILITY_RULE}. Put the settings in this repository's own \`${CONFIG_PATH}\`.`;
}

/** The visibility GitHub reports for a repository (`visibility`, else the older `private` flag). */
export function visibilityOf(repository: { visibility?: string | null; private?: boolean | null }): RepoVisibility {
  const named = repository.visibility?.toLowerCase();
  if (named === "public" || named === "internal" || named === "private") return named;
  return repository.private === false ? "public" : "private";
}
