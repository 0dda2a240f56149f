/**
 * The Action's inputs, read once from the `INPUT_*` environment the runner sets and validated by
 * one zod schema before anything is sent anywhere. The inputs the repository configuration also
 * has (trigger phrase, repository id, model, agent type) use the SAME field schemas as
 * `.github/agent-run.yml`; an input left empty falls back to the file, then to the schema default.
 *
 * Every problem is reported at once, each naming its input, e.g.
 *   Invalid inputs: `org-id` must be a positive integer, got "acme"; `metadata` must be a JSON object …
 */
import type { AllowedBots } from "../core/actors.js";
import * as z from "zod";
import { AgentTypeFieldSchema, ModelSchema, RepoIdSchema, TriggerPhraseSchema } from "../config/schema.js";
import { ImageDataUriSchema, LOGS_PATH_CHOICES, type AgentType, type LogsPathChoice } from "../service/wire.js";

export const MODES = ["auto", "create", "resume"] as const;
export type Mode = (typeof MODES)[number];

export const COMMENT_MODES = ["auto", "true", "false"] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];

/** Longest wait accepted: GitHub stops a self-hosted job after 5 days (hosted ones after 6 hours). */
export const MAX_TIMEOUT_MINUTES = 7_200;
export const MAX_IMAGES = 10;

/** Every input the action reads, as action.yml declares them. */
export const INPUT_NAMES = [
  "api-url",
  "api-token",
  "org-id",
  "prompt",
  "mode",
  "run-id",
  "repo-id",
  "model",
  "agent-type",
  "metadata",
  "images",
  "trigger-phrase",
  "wait",
  "timeout-minutes",
  "comment",
  "github-token",
  "allowed-bots",
  "fail-on-error",
  "logs-path",
] as const;
export type InputName = (typeof INPUT_NAMES)[number];

/** Inputs whose value never appears in a message. */
const SECRET_INPUTS: ReadonlySet<InputName> = new Set(["api-token", "github-token"]);

/** Inputs whose messages already point at the bad part (quoting the whole value would not help). */
const QUOTED_BY_MESSAGE: ReadonlySet<InputName> = new Set(["metadata", "images", "allowed-bots", "prompt"]);

/** An `images` line: a data URI as given, or a file to read (relative to the workspace). */
export type ImageSource = { kind: "data_uri"; uri: string } | { kind: "file"; path: string };


export interface ActionInputs {
  apiUrl: string;
  apiToken: string;
  orgId: number;
  /** The explicit prompt, or undefined when empty. */
  prompt: string | undefined;
  mode: Mode;
  /** Set exactly when `mode` is `resume`. */
  runId: number | undefined;
  repoId: number | undefined;
  model: string | undefined;
  agentType: AgentType | undefined;
  /** A JSON object merged over the event's metadata, or undefined. */
  metadata: Record<string, unknown> | undefined;
  images: ImageSource[];
  /** Undefined: the repository configuration's (default `/agent`). */
  triggerPhrase: string | undefined;
  wait: boolean;
  timeoutMinutes: number;
  comment: CommentMode;
  /** "" when a workflow blanks it (its default is the job's token). */
  githubToken: string;
  allowedBots: AllowedBots;
  failOnError: boolean;
  /** Where the service's logs endpoint is: auto (detected), spec or alpha. */
  logsPath: LogsPathChoice;
}

/** The inputs are wrong: nothing was sent. The message names every input at fault. */
export class InputError extends Error {
  override name = "InputError";
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid input${problems.length === 1 ? "" : "s"}: ${problems.join("; ")}.`);
    this.problems = problems;
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The variable the runner sets for an input: `INPUT_` + the name upper-cased, spaces as `_`, hyphens kept. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;
}

/** An input's value as `core.getInput` reads it: trimmed, "" when unset. */
export function rawInput(env: Env, name: string): string {
  return (env[inputVariable(name)] ?? "").trim();
}

// ---------------------------------------------------------------------------------------------
// Field schemas over the raw text (undefined = empty input)

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `is required: ${what}` : undefined);

const positiveInt = (error: string) =>
  z
    .string()
    .regex(/^\d+$/, { error })
    .transform(Number)
    .pipe(z.number().int().positive({ error }).max(Number.MAX_SAFE_INTEGER, { error }));

const httpUrl = z
  .string({ error: required("the service's base URL, such as https://agents.example.com") })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "";
      } catch {
        return false;
      }
    },
    { error: "must be an http(s) URL such as https://agents.example.com, without credentials in it" },
  );

/** YAML 1.2 core booleans, as `core.getBooleanInput` accepts them. */
const booleanText = (fallback: boolean) =>
  z
    .enum(["true", "True", "TRUE", "false", "False", "FALSE"], { error: "must be true or false" })
    .optional()
    .transform((value) => (value === undefined ? fallback : value.toLowerCase() === "true"));

const choiceText = <T extends string>(options: readonly [T, ...T[]], fallback: T) =>
  z
    .string()
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(options, { error: `must be one of: ${options.join(", ")}` }))
    .optional()
    .transform((value) => value ?? fallback);

const metadataText = z
  .string()
  .transform((text, ctx): unknown => {
    try {
      return JSON.parse(text);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `must be a JSON object such as {"ticket":"ENG-1"}, but it is not valid JSON (${(error as Error).message})` });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string(), z.unknown(), { error: 'must be a JSON object such as {"ticket":"ENG-1"}, not an array, a string, a number or null' }))
  .optional();

const lines = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((line) => line.trim())
    .filter((line) => line !== "");

const imagesText = z
  .string()
  .transform((text, ctx): ImageSource[] => {
    const entries = lines(text, /\r?\n/);
    if (entries.length > MAX_IMAGES) {
      ctx.addIssue({ code: "custom", message: `lists ${entries.length} images; at most ${MAX_IMAGES} are accepted` });
      return z.NEVER;
    }
    return entries.map((entry, index): ImageSource => {
      if (!entry.startsWith("data:")) return { kind: "file", path: entry };
      if (!ImageDataUriSchema.safeParse(entry).success) {
        ctx.addIssue({ code: "custom", message: `line ${index + 1} is not a base64 data URI such as data:image/png;base64,iVBOR…` });
      }
      return { kind: "data_uri", uri: entry };
    });
  })
  .optional()
  .transform((images) => images ?? []);

const LOGIN_OR_BOT = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;

const allowedBotsText = z
  .string()
  .transform((text, ctx): AllowedBots => {
    const entries = lines(text, /[,\n]/).map((entry) => entry.replace(/^@/, ""));
    if (entries.includes("*")) return { all: true, logins: [] };
    for (const entry of entries) {
      if (!LOGIN_OR_BOT.test(entry)) ctx.addIssue({ code: "custom", message: `has ${JSON.stringify(entry)}, which is not a login such as renovate[bot] (or * for every bot)` });
    }
    return { all: false, logins: entries };
  })
  .optional()
  .transform((bots) => bots ?? { all: false, logins: [] });

const timeoutText = z
  .string()
  .regex(/^\d+(\.\d+)?$/, { error: `must be a number of minutes greater than 0 and at most ${MAX_TIMEOUT_MINUTES}` })
  .transform(Number)
  .pipe(
    z
      .number()
      .positive({ error: `must be a number of minutes greater than 0 and at most ${MAX_TIMEOUT_MINUTES}` })
      .max(MAX_TIMEOUT_MINUTES, { error: `must be a number of minutes greater than 0 and at most ${MAX_TIMEOUT_MINUTES}` }),
  )
  .optional()
  .transform((minutes) => minutes ?? 60);

/** The config file's trigger phrase schema without its default: an empty input defers to the file. */
const triggerPhraseText = TriggerPhraseSchema.unwrap().optional();

const CROSS_INPUT = { crossInput: true };

export const ActionInputsSchema = z
  .strictObject({
    "api-url": httpUrl,
    "api-token": z.string({ error: required("pass the service's API token from a secret, e.g. `api-token: ${{ secrets.AGENT_RUN_API_TOKEN }}`") }),
    "org-id": z
      .string({ error: required("the service's organization id, a positive integer") })
      .pipe(positiveInt("must be a positive integer (the service's organization id)")),
    prompt: z.string().optional(),
    mode: choiceText(MODES, "auto"),
    "run-id": positiveInt("must be a positive integer (the id of the run to continue)").optional(),
    "repo-id": positiveInt("must be a positive integer (the service's repository id)").pipe(RepoIdSchema.unwrap()).optional(),
    model: ModelSchema,
    "agent-type": AgentTypeFieldSchema,
    metadata: metadataText,
    images: imagesText,
    "trigger-phrase": triggerPhraseText,
    wait: booleanText(true),
    "timeout-minutes": timeoutText,
    comment: choiceText(COMMENT_MODES, "auto"),
    "github-token": z.string().optional(),
    "allowed-bots": allowedBotsText,
    "fail-on-error": booleanText(true),
    "logs-path": choiceText(LOGS_PATH_CHOICES, "auto"),
  })
  .superRefine((inputs, ctx) => {
    if (inputs.mode === "resume") {
      if (inputs["run-id"] === undefined) ctx.addIssue({ code: "custom", params: CROSS_INPUT, path: ["run-id"], message: "is required with `mode: resume`: the id of the run to continue" });
      if (inputs.prompt === undefined) ctx.addIssue({ code: "custom", params: CROSS_INPUT, path: ["prompt"], message: "is required with `mode: resume`: the follow-up instruction for the run" });
    } else if (inputs["run-id"] !== undefined) {
      ctx.addIssue({ code: "custom", params: CROSS_INPUT, path: ["run-id"], message: `is only used with \`mode: resume\` (mode is ${inputs.mode}): remove it, or set \`mode: resume\`` });
    }
  })
  .transform(
    (i): ActionInputs => ({
      apiUrl: i["api-url"],
      apiToken: i["api-token"],
      orgId: i["org-id"],
      prompt: i.prompt,
      mode: i.mode,
      runId: i.mode === "resume" ? i["run-id"] : undefined,
      repoId: i["repo-id"],
      model: i.model,
      agentType: i["agent-type"],
      metadata: i.metadata,
      images: i.images,
      triggerPhrase: i["trigger-phrase"],
      wait: i.wait,
      timeoutMinutes: i["timeout-minutes"],
      comment: i.comment,
      githubToken: i["github-token"] ?? "",
      allowedBots: i["allowed-bots"],
      failOnError: i["fail-on-error"],
      logsPath: i["logs-path"],
    }),
  );

const quote = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);

/**
 * Reads and validates every input. Throws `InputError` listing every problem, each naming its
 * input; a token's value is never part of a message.
 */
export function readInputs(env: Env): ActionInputs {
  const raw: Partial<Record<InputName, string>> = {};
  for (const name of INPUT_NAMES) {
    const value = rawInput(env, name);
    if (value !== "") raw[name] = value;
  }
  const result = ActionInputsSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems: string[] = [];
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? "inputs") as InputName;
    const given = raw[name];
    // Rules across inputs are about the combination, not this value.
    const crossInput = issue.code === "custom" && (issue.params as { crossInput?: boolean } | undefined)?.crossInput === true;
    const echo = given !== undefined && !crossInput && !SECRET_INPUTS.has(name) && !QUOTED_BY_MESSAGE.has(name) && !issue.message.startsWith("is required");
    const problem = `\`${name}\` ${issue.message}${echo ? `, got ${quote(given)}` : ""}`;
    if (!problems.includes(problem)) problems.push(problem);
  }
  throw new InputError(problems);
}

