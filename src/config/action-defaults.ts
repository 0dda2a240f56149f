/**
 * Where the Action's defaults differ from the schema's: for one event, a key the file does not set
 * takes this value instead. The Action applies it (action/repo-config.ts) and the configuration
 * reference prints it beside the default (renderConfigReference), both from this one table, so the
 * docs cannot say one default while the Action keeps another.
 */

/** Per workflow event, the dotted keys the Action turns on unless the file sets them, as input strings. */
export const ACTION_EVENT_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // A workflow that listens to `workflow_run` and runs this action is itself the opt-in to CI auto-fix.
  workflow_run: { "check_suite.enabled": "true" },
};

/** Whether the file itself says `path` (a dotted key), whatever the value. */
export function fileSetsPath(raw: unknown, path: string): boolean {
  let node: unknown = raw;
  for (const key of path.split(".")) {
    if (node === null || typeof node !== "object" || Array.isArray(node) || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** The Action's defaults for this event that the file leaves to the defaults. */
export function actionEventDefaults(eventName: string, fileRaw: unknown): Record<string, string> {
  const defaults = Object.entries(ACTION_EVENT_DEFAULTS[eventName] ?? {});
  return Object.fromEntries(defaults.filter(([path]) => !fileSetsPath(fileRaw, path)));
}

/** How the reference says a key's Action-only defaults, e.g. " (the Action on `workflow_run`: `true`)", or "". */
export function actionDefaultNote(path: string): string {
  const notes = Object.entries(ACTION_EVENT_DEFAULTS).flatMap(([event, values]) =>
    values[path] === undefined ? [] : [`the Action on \`${event}\`: \`${values[path]}\``],
  );
  return notes.length === 0 ? "" : ` (${notes.join("; ")})`;
}
