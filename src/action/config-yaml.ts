/**
 * The Action's configuration file as YAML: parsed (the parser loaded only when there is a file),
 * with `_extends` judged by the App's rule. Loaded with the runner, after the head start's read.
 */
import { CONFIG_PATH } from "../config/path.js";
import { judgeExtends } from "../config/sources.js";
import { readConfigYaml } from "../config/yaml-problems.js";
import type { RepoRef } from "../github/client.js";

/** The file as YAML, before validation; `undefined` when the repository has none. */
export type ConfigFileRead = { ok: true; raw: unknown; found: boolean; warnings: string[] } | { ok: false; errors: string[] };

/**
 * Parses the file's YAML (validation happens once the inputs are layered over it). The YAML parser
 * is loaded only when there is a file: most repositories have none, and a step starts faster without it.
 * `_extends` is judged by the App's rule (config/sources.ts), though the Action never reads the file
 * it names: a value the App refuses is refused here too.
 */
export async function parseConfigFile(text: string | undefined, repo: RepoRef | null): Promise<ConfigFileRead> {
  if (text === undefined) return { ok: true, raw: undefined, found: false, warnings: [] };
  // The parser's own messages may quote the file's line: only where and what kind of mistake.
  const { parseDocument } = await import("./yaml-parser.js");
  const yaml = readConfigYaml(parseDocument, text, `\`${CONFIG_PATH}\``);
  if (!yaml.ok) return { ok: false, errors: [yaml.problem] };
  const raw = yaml.value;
  const warnings: string[] = [];
  if (raw !== null && typeof raw === "object" && "_extends" in raw) {
    if (repo) {
      const judged = judgeExtends(raw._extends, { ...repo, path: CONFIG_PATH }, repo);
      if (!judged.ok) return { ok: false, errors: [judged.problem] };
    }
    warnings.push(`${CONFIG_PATH}: \`_extends\` is resolved by the App only; the Action reads this file alone.`);
  }
  return { ok: true, raw: raw ?? undefined, found: true, warnings };
}
