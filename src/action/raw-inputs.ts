/** Inputs as the runner sets them, before any validation (inputs.ts validates; the head start only peeks). */
export type Env = Readonly<Record<string, string | undefined>>;

/** The variable the runner sets for an input: `INPUT_` + the name upper-cased, spaces as `_`, hyphens kept. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;
}

/** An input's value as `core.getInput` reads it: trimmed, "" when unset. */
export function rawInput(env: Env, name: string): string {
  return (env[inputVariable(name)] ?? "").trim();
}
