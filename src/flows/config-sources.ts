/**
 * Reads a repository's `.github/agent-run.yml` as Probot's config loader does (the file on the
 * default branch, else the owner's `.github` repository's, then every `_extends` in turn, merged
 * key by key with the nearer file winning), with config/sources.ts asked before anything read is
 * applied: `_extends` is judged before the file it names is read, and a file from the owner's
 * `.github` repository is dropped when that repository is more private than the configured one.
 *
 * A broken file is an answer (`ok: false`, every message naming key, rule and file, never a value);
 * GitHub failing to answer is thrown, and the caller retries.
 */
import { parseDocument } from "yaml";
import { CONFIG_PATH } from "../config/path.js";
import {
  describeConfigFile,
  judgeExtends,
  judgeSourceVisibility,
  ORGANIZATION_DEFAULTS_REPO,
  visibilityOf,
  type ConfigFileRef,
  type RepoVisibility,
} from "../config/sources.js";
import { readConfigYaml } from "../config/yaml-problems.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { readRepositoryFile, readRepositoryVisibility } from "../github/repository-files.js";

/** Files one configuration may chain through `_extends` (Probot sets no bound; a loop is caught anyway). */
const MAX_CONFIG_FILES = 5;

type Values = Record<string, unknown>;

export type ConfigSourcesRead =
  | {
      ok: true;
      /** The merged settings, before validation; undefined when no file applies. */
      raw: Values | undefined;
      /** The file each top-level key was taken from. */
      origins: ReadonlyMap<string, ConfigFileRef>;
      /** The git blob sha of every file read, nearest first: which version of the configuration this is. */
      versions: string[];
    }
  /** `raw`: what the files read so far say (for judging whether the event was a trigger), null when nothing could be read. */
  | { ok: false; errors: string[]; raw: Values | null };

const isValues = (value: unknown): value is Values => value !== null && typeof value === "object" && !Array.isArray(value);

const sameFile = (a: ConfigFileRef, b: ConfigFileRef) =>
  a.owner.toLowerCase() === b.owner.toLowerCase() && a.repo.toLowerCase() === b.repo.toLowerCase() && a.path === b.path;

type FileRead = { kind: "values"; values: Values; sha: string } | { kind: "absent" } | { kind: "problem"; problem: string };

async function readConfigFile(octokit: GitHubClient, file: ConfigFileRef, configured: RepoRef): Promise<FileRead> {
  const found = await readRepositoryFile(octokit, { owner: file.owner, repo: file.repo }, file.path);
  const named = describeConfigFile(file, configured);
  if (found.kind === "absent") return found;
  if (found.kind === "not_a_file") return { kind: "problem", problem: `${named}: is a directory or a submodule, not a file` };
  const yaml = readConfigYaml(parseDocument, found.text, named);
  if (!yaml.ok) return { kind: "problem", problem: yaml.problem };
  const parsed = yaml.value;
  // An empty file says nothing (Probot reads it as `{}`).
  if (parsed === null || parsed === undefined) return { kind: "values", values: {}, sha: found.sha };
  if (!isValues(parsed))
    return { kind: "problem", problem: `${named}: must be a YAML mapping of keys to values, such as \`trigger_phrase: /agent\`` };
  return { kind: "values", values: parsed, sha: found.sha };
}

/** The configured file, merged with what it draws on, or the reason it may not be used. */
export async function readConfigSources(octokit: GitHubClient, repo: RepoRef): Promise<ConfigSourcesRead> {
  const read: Array<{ file: ConfigFileRef; values: Values; sha: string }> = [];
  const merged = (): Values => Object.assign({}, ...read.map((entry) => entry.values).reverse()) as Values;
  const failed = (problem: string): ConfigSourcesRead => ({ ok: false, errors: [problem], raw: read.length > 0 ? merged() : null });

  // The configured repository's visibility, read once and only when another repository's file is found.
  let configuredVisibility: Promise<RepoVisibility> | undefined;
  const visibilityProblem = async (file: ConfigFileRef, via: "extends" | "fallback") => {
    configuredVisibility ??= readRepositoryVisibility(octokit, repo).then(visibilityOf);
    const [configured, source] = await Promise.all([
      configuredVisibility,
      readRepositoryVisibility(octokit, { owner: file.owner, repo: file.repo }).then(visibilityOf),
    ]);
    return judgeSourceVisibility({ configured, source, file, via, repo });
  };

  let file: ConfigFileRef = { ...repo, path: CONFIG_PATH };
  let found = await readConfigFile(octokit, file, repo);
  if (found.kind === "absent") {
    if (repo.repo.toLowerCase() === ORGANIZATION_DEFAULTS_REPO) return { ok: true, raw: undefined, origins: new Map(), versions: [] };
    file = { owner: repo.owner, repo: ORGANIZATION_DEFAULTS_REPO, path: CONFIG_PATH };
    found = await readConfigFile(octokit, file, repo);
    if (found.kind === "absent") return { ok: true, raw: undefined, origins: new Map(), versions: [] };
    if (found.kind === "values") {
      const problem = await visibilityProblem(file, "fallback");
      if (problem) return failed(problem);
    }
  }
  if (found.kind === "problem") return failed(found.problem);
  read.push({ file, values: found.values, sha: found.sha });

  for (let current = read[0]!; current.values._extends !== undefined; current = read.at(-1)!) {
    const judged = judgeExtends(current.values._extends, current.file, repo);
    if (!judged.ok) return failed(judged.problem);
    const named = `\`_extends\` in ${describeConfigFile(current.file, repo)}`;
    if (read.some((entry) => sameFile(entry.file, judged.target)))
      return failed(`${named}: leads back to a file already read (a loop); remove one of the \`_extends\``);
    if (read.length >= MAX_CONFIG_FILES) return failed(`${named}: chains more than ${MAX_CONFIG_FILES} files; inherit from fewer files`);
    const next = await readConfigFile(octokit, judged.target, repo);
    // An absent base adds nothing (as in Probot).
    if (next.kind === "absent") break;
    if (next.kind === "problem") return failed(next.problem);
    if (judged.crossesRepository) {
      const problem = await visibilityProblem(judged.target, "extends");
      if (problem) return failed(problem);
    }
    read.push({ file: judged.target, values: next.values, sha: next.sha });
  }

  const origins = new Map<string, ConfigFileRef>();
  for (const entry of read) {
    for (const key of Object.keys(entry.values)) if (key !== "_extends" && !origins.has(key)) origins.set(key, entry.file);
  }
  const { _extends: _dropped, ...raw } = merged();
  return { ok: true, raw, origins, versions: read.map((entry) => entry.sha) };
}
