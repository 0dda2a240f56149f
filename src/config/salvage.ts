/**
 * What is still readable in a broken `.github/agent-run.yml`, for one question only: would this
 * event have started something if the file were right? A broken file must never be silent for an
 * event it affects (a misspelt `check_suite: { auto_fix: true }` must not make failing CI quietly
 * ignored), and must not make noise for events it cannot have affected.
 *
 * - Every value that is valid on its own is kept; the rest take their defaults.
 * - An unknown key that plainly means an absent one (`auto_fix` → `enabled`, `chek_suite` →
 *   `check_suite`, see key-suggestions) is read as that key.
 * - A value that was written but cannot be read is "unreadable": the event is judged as if it had
 *   said yes (`enabled`, `allow_forks`, `mention`), because it may have. So is every switch of a
 *   section that holds a key nobody can place, and everything when the file is not a mapping at
 *   all (invalid YAML, a list).
 */
import { setAsideInvalidAutomations } from "./automations.js";
import { suggestKey } from "./key-suggestions.js";
import type * as z from "zod/mini";
import { once } from "../core/once.js";
import { DEFAULT_REPO_CONFIG, isMapping, objectSchemaOf, repoConfigFields, type RepoConfig } from "./schema.js";

type Record_ = Record<string, unknown>;

/** The switches a broken file may have turned on, by dotted path. */
const PERMISSIVE_WHEN_UNREADABLE: Readonly<Record<string, unknown>> = {
  mention: true,
  "label.enabled": true,
  "reviews.enabled": true,
  "check_suite.enabled": true,
  "check_suite.allow_forks": true,
};

export interface SalvagedConfig {
  /** Readable values, defaults elsewhere. */
  config: RepoConfig;
  /** Dotted paths whose value was written (or may have been) but cannot be read. */
  unreadable: ReadonlySet<string>;
  /** Strings written in a broken `label` section: the label name may be any of them. */
  labelNames: readonly string[];
}

/** Maps unknown keys onto the absent keys they plainly mean; returns the keys nobody can place. */
function placeKeys(record: Record_, allowed: readonly string[]): { placed: Record_; unplaced: string[] } {
  const placed: Record_ = {};
  const unplaced: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (allowed.includes(key)) placed[key] = value;
  }
  for (const [key, value] of Object.entries(record)) {
    if (allowed.includes(key)) continue;
    const meant = suggestKey(key, allowed);
    if (meant !== undefined && !(meant in placed)) placed[meant] = value;
    else unplaced.push(key);
  }
  return { placed, unplaced };
}

const sections = once(() => {
  const fields = repoConfigFields();
  return Object.keys(fields).filter((key) => objectSchemaOf(fields[key as keyof typeof fields]) !== undefined);
});

function sectionKeys(section: string): string[] {
  const fields = repoConfigFields();
  const object = objectSchemaOf(fields[section as keyof typeof fields]);
  return object ? Object.keys(object._zod.def.shape) : [];
}

/** Everything unreadable: the file as a whole could not be read. */
function allUnreadable(): Set<string> {
  const paths = new Set<string>(Object.keys(repoConfigFields()).filter((key) => !sections().includes(key)));
  for (const section of sections()) for (const key of sectionKeys(section)) paths.add(`${section}.${key}`);
  return paths;
}

export function salvageConfig(raw: unknown): SalvagedConfig {
  if (!isMapping(raw)) return { config: DEFAULT_REPO_CONFIG, unreadable: allUnreadable(), labelNames: [] };
  const { _extends: _ignored, ...file } = raw;
  const unreadable = new Set<string>();
  const labelNames: string[] = [];
  const config: Record_ = { ...DEFAULT_REPO_CONFIG };
  // The readable automations are kept like any readable value; an invalid entry never was one.
  const top = setAsideInvalidAutomations(placeKeys(file, Object.keys(repoConfigFields())).placed).input as Record_;

  for (const [key, schema] of Object.entries(repoConfigFields())) {
    const value = top[key];
    if (!sections().includes(key)) {
      const parsed = schema.safeParse(value);
      if (parsed.success) config[key] = parsed.data;
      else unreadable.add(key);
      continue;
    }
    const keys = sectionKeys(key);
    if (value === undefined || value === null) continue;
    if (!isMapping(value)) {
      // `check_suite: true` and the like: the section's switches may well have been meant on.
      for (const field of keys) unreadable.add(`${key}.${field}`);
      continue;
    }
    const { placed, unplaced } = placeKeys(value, keys);
    const readable: Record_ = {};
    const fields = objectSchemaOf(schema)!._zod.def.shape as Record<string, z.ZodMiniType>;
    for (const field of keys) {
      if (!(field in placed)) {
        if (unplaced.length > 0) unreadable.add(`${key}.${field}`);
        continue;
      }
      const parsed = fields[field]!.safeParse(placed[field]);
      if (parsed.success) readable[field] = parsed.data;
      else unreadable.add(`${key}.${field}`);
    }
    if (key === "label") {
      for (const candidate of [placed.name, ...unplaced.map((name) => value[name])]) {
        if (typeof candidate === "string" && candidate.trim() !== "") labelNames.push(candidate.trim());
      }
    }
    config[key] = schema.parse(readable);
  }
  return { config: config as RepoConfig, unreadable, labelNames };
}

/**
 * The configuration to judge one event with: the salvaged values, every unreadable switch on, and
 * for a label event whose label name cannot be read, the added label when it is one the file
 * could have meant (the default, or any name written in the broken section).
 */
export function configForJudging(salvaged: SalvagedConfig, addedLabel: string | null = null): RepoConfig {
  const config = structuredClone(salvaged.config) as RepoConfig & Record_;
  for (const [path, value] of Object.entries(PERMISSIVE_WHEN_UNREADABLE)) {
    if (!salvaged.unreadable.has(path)) continue;
    const [section, field] = path.split(".") as [string, string | undefined];
    if (field === undefined) config[section] = value;
    else (config[section] as Record_)[field] = value;
  }
  if (addedLabel !== null && salvaged.unreadable.has("label.name")) {
    const candidates = [DEFAULT_REPO_CONFIG.label.name, ...salvaged.labelNames].map((name) => name.toLowerCase());
    if (candidates.includes(addedLabel.toLowerCase())) config.label = { ...config.label, name: addedLabel };
  }
  return config;
}
