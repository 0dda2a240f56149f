/**
 * The Action's inputs, read once from the `INPUT_*` environment the runner sets and validated by
 * one zod schema before anything is sent anywhere. The inputs the repository configuration also
 * has (trigger phrase, repository id, model, agent type) use the SAME field schemas as
 * `.github/agent-run.yml`; an input left empty falls back to the file, then to the schema default.
 *
 * Every problem is reported at once, each naming its input, e.g.
 *   Invalid inputs: `org-id` must be a positive integer, got "acme"; `metadata` must be a JSON object …
 */
import type { AllowedBots, AllowedUsers } from "../core/actors.js";
import { compileRedactPatterns, splitRedactPatterns } from "../core/redact.js";
import { RESERVED_METADATA_KEYS, reservedKeysIn } from "../core/metadata.js";
import * as z from "zod/mini";
import { rawInput, type Env } from "./raw-inputs.js";
import { AgentTypeFieldSchema, ModelSchema, RepoIdValueSchema, TriggerPhraseTextSchema } from "../config/schema.js";
import { ImageDataUriSchema, LOGS_PATH_CHOICES, type AgentType, type LogsPathChoice } from "../service/wire.js";
import { isAllowedServiceUrl, SERVICE_URL_RULE, urlForMessage } from "../service/service-url.js";

const MODES = ["auto", "create", "resume"] as const;
type Mode = (typeof MODES)[number];

const COMMENT_MODES = ["auto", "true", "false"] as const;
type CommentMode = (typeof COMMENT_MODES)[number];

/** Longest wait accepted: GitHub stops a self-hosted job after 5 days (hosted ones after 6 hours). */
const MAX_TIMEOUT_MINUTES = 7_200;
const MAX_IMAGES = 10;

/** Every input the action reads, as action.yml declares them. */
export const INPUT_NAMES = [
  "api-url",
  "api-token",
  "previous-api-token",
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
  "follow-up",
  "wait",
  "timeout-minutes",
  "comment",
  "github-token",
  "allowed-bots",
  "allowed-non-write-users",
  "fail-on-error",
  "logs-path",
  "runs-url",
  "redact-patterns",
] as const;
type InputName = (typeof INPUT_NAMES)[number];

/** Inputs whose value never appears in a message. */
const SECRET_INPUTS: ReadonlySet<InputName> = new Set(["api-token", "previous-api-token", "github-token"]);

/** Inputs whose messages already point at the bad part (quoting the whole value would not help). */
const QUOTED_BY_MESSAGE: ReadonlySet<InputName> = new Set([
  "metadata",
  "images",
  "allowed-bots",
  "allowed-non-write-users",
  "prompt",
  "redact-patterns",
]);

/** An `images` line: a data URI as given, or a file to read (relative to the workspace). */
export type ImageSource = { kind: "data_uri"; uri: string } | { kind: "file"; path: string };

export interface ActionInputs {
  apiUrl: string;
  apiToken: string;
  /** The API token before a rotation: markers it signed are still believed (never used to sign or to call the service). */
  previousApiToken: string | undefined;
  orgId: number;
  /** The explicit prompt, or undefined when empty. */
  prompt: string | undefined;
  mode: Mode;
  /** Set exactly when `mode` is `resume`. */
  runId: number | undefined;
  repoId: number | undefined;
  model: string | undefined;
  agentType: AgentType | undefined;
  /** A JSON object sent beside the bridge's own metadata (none of its keys reserved), or undefined. */
  metadata: Record<string, unknown> | undefined;
  images: ImageSource[];
  /** Undefined: the repository configuration's (default `/agent`). */
  triggerPhrase: string | undefined;
  /** `follow_up` over the configuration file's (checked by its schema); undefined: the file's (default `queue`). */
  followUp: string | undefined;
  wait: boolean;
  timeoutMinutes: number;
  comment: CommentMode;
  /** "" when a workflow blanks it (its default is the job's token). */
  githubToken: string;
  allowedBots: AllowedBots;
  /** People whose events may start a run from the `prompt` input without write access. */
  allowedNonWriteUsers: AllowedUsers;
  failOnError: boolean;
  /** Where the service's logs endpoint is: auto (detected), spec or alpha. */
  logsPath: LogsPathChoice;
  /** The service's web page of the organization's runs, linked when a run may have started unseen; undefined: none. */
  runsUrl: string | undefined;
  /** The operator's own redaction patterns, on top of the built-in ones (runner.ts applies them from the start). */
  redactPatterns: RegExp[];
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

export { rawInput, type Env } from "./raw-inputs.js";

// ---------------------------------------------------------------------------------------------
// Field readers over the raw text (undefined = empty input)
//
// Each input is one zod transform over its text that reads the value and reports what is wrong with
// it: a runner builds this schema on every step before its first request, and a zod schema is an
// object per node, so a reader in plain code costs a handful of nodes where pipes of checks cost a
// dozen per input (3% of the instructions a start runs to its create: bench/cold-start.ts --instructions).

type Report = (message: string) => void;
/** Reads one input's text (undefined when the input is empty); what `report` says fails the step, whatever it returns. */
type Reader<T> = (text: string | undefined, report: Report) => T;

/** An input read by `read`; its problems are the input's, with its text as the input. */
const field = <T>(read: Reader<T>) =>
  z.transform((text: string | undefined, payload) =>
    read(text, (message) => payload.issues.push({ code: "custom", message, input: text, path: [] })),
  );

/** An empty input reads as `fallback`; a given one through `read`. */
const orElse =
  <T>(read: (text: string, report: Report) => T, fallback: T): Reader<T> =>
  (text, report) =>
    text === undefined ? fallback : read(text, report);

const required =
  <T>(what: string, read: (text: string, report: Report) => T): Reader<T> =>
  (text, report) => {
    if (text !== undefined) return read(text, report);
    report(`is required: ${what}`);
    return undefined as T;
  };

const positiveInteger = (error: string) => (text: string, report: Report) => {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value <= 0 || value > Number.MAX_SAFE_INTEGER) report(error);
  return value;
};

const serviceUrlText = (text: string, report: Report) => {
  if (!isAllowedServiceUrl(text)) report(SERVICE_URL_RULE);
  return text;
};

const asIs = (text: string) => text;

/** YAML 1.2 core booleans, as `core.getBooleanInput` accepts them. */
const BOOLEAN_TEXT = new Set(["true", "True", "TRUE", "false", "False", "FALSE"]);
const booleanText = (fallback: boolean) =>
  orElse((text, report) => {
    if (!BOOLEAN_TEXT.has(text)) report("must be true or false");
    return text.toLowerCase() === "true";
  }, fallback);

const choiceText = <T extends string>(options: readonly [T, ...T[]], fallback: T) =>
  orElse((text, report): T => {
    const value = text.toLowerCase() as T;
    if (!options.includes(value)) report(`must be one of: ${options.join(", ")}`);
    return value;
  }, fallback);

const metadataText = (text: string, report: Report): Record<string, unknown> | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    report(`must be a JSON object such as {"ticket":"ENG-1"}, but it is not valid JSON (${(error as Error).message})`);
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    report('must be a JSON object such as {"ticket":"ENG-1"}, not an array, a string, a number or null');
    return undefined;
  }
  const metadata = value as Record<string, unknown>;
  // The bridge's own keys say where a run came from and are read back (core/metadata.ts): a workflow's go beside them.
  const clashes = reservedKeysIn(metadata);
  if (clashes.length > 0) {
    const named = clashes.map((key) => `"${key}"`).join(", ");
    report(
      `sets ${named}, which the bridge writes itself; rename ${clashes.length === 1 ? "that key" : "those keys"} (reserved: ${RESERVED_METADATA_KEYS.join(", ")})`,
    );
  }
  return metadata;
};

const lines = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((line) => line.trim())
    .filter((line) => line !== "");

const imagesText = (text: string, report: Report): ImageSource[] => {
  const entries = lines(text, /\r?\n/);
  if (entries.length > MAX_IMAGES) {
    report(`lists ${entries.length} images; at most ${MAX_IMAGES} are accepted`);
    return [];
  }
  return entries.map((entry, index): ImageSource => {
    if (!entry.startsWith("data:")) return { kind: "file", path: entry };
    if (!ImageDataUriSchema.safeParse(entry).success)
      report(`line ${index + 1} is not a base64 data URI such as data:image/png;base64,iVBOR…`);
    return { kind: "data_uri", uri: entry };
  });
};

const LOGIN_OR_BOT = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;

const allowedBotsText = (text: string, report: Report): AllowedBots => {
  const entries = lines(text, /[,\n]/).map((entry) => entry.replace(/^@/, ""));
  if (entries.includes("*")) return { all: true, logins: [] };
  for (const entry of entries) {
    if (!LOGIN_OR_BOT.test(entry)) report(`has ${JSON.stringify(entry)}, which is not a login such as renovate[bot] (or * for every bot)`);
  }
  return { all: false, logins: entries };
};

/** One pattern per line; a bad one is named by its line, never quoted (it may spell a secret). */
const redactPatternsText = (text: string, report: Report): RegExp[] => {
  const { patterns, errors } = compileRedactPatterns(splitRedactPatterns(text));
  for (const error of errors) report(error);
  return patterns;
};

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;

const allowedNonWriteUsersText = (text: string, report: Report): AllowedUsers => {
  const entries = lines(text, /[,\n]/).map((entry) => entry.replace(/^@/, ""));
  if (entries.includes("*")) return { all: true, logins: [] };
  for (const entry of entries) {
    if (!LOGIN.test(entry)) report(`has ${JSON.stringify(entry)}, which is not a GitHub login such as octocat (or * for everyone)`);
  }
  return { all: false, logins: entries };
};

const TIMEOUT_ERROR = `must be a number of minutes greater than 0 and at most ${MAX_TIMEOUT_MINUTES}`;
const timeoutText = (text: string, report: Report) => {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value <= 0 || value > MAX_TIMEOUT_MINUTES) report(TIMEOUT_ERROR);
  return value;
};

const CROSS_INPUT = { crossInput: true };

const InputFieldsSchema = z.strictObject({
  "api-url": field(required("the service's base URL, such as https://agents.example.com", serviceUrlText)),
  "api-token": field(required("pass the service's API token from a secret, e.g. `api-token: ${{ secrets.AGENT_RUN_API_TOKEN }}`", asIs)),
  "previous-api-token": z.optional(z.string()),
  "org-id": field(
    required(
      "the service's organization id, a positive integer",
      positiveInteger("must be a positive integer (the service's organization id)"),
    ),
  ),
  prompt: z.optional(z.string()),
  mode: field(choiceText(MODES, "auto")),
  "run-id": field(orElse(positiveInteger("must be a positive integer (the id of the run to continue)"), undefined)),
  "repo-id": z.pipe(
    field(orElse(positiveInteger("must be a positive integer (the service's repository id)"), undefined)),
    z.optional(RepoIdValueSchema),
  ),
  model: ModelSchema,
  "agent-type": AgentTypeFieldSchema,
  metadata: field(orElse(metadataText, undefined)),
  images: field(orElse(imagesText, [])),
  // The config file's trigger phrase schema without its default: an empty input defers to the file.
  "trigger-phrase": z.optional(TriggerPhraseTextSchema),
  "follow-up": z.optional(z.string()),
  wait: field(booleanText(true)),
  "timeout-minutes": field(orElse(timeoutText, 60)),
  comment: field(choiceText(COMMENT_MODES, "auto")),
  "github-token": z.optional(z.string()),
  "allowed-bots": field(orElse(allowedBotsText, { all: false, logins: [] })),
  "allowed-non-write-users": field(orElse(allowedNonWriteUsersText, { all: false, logins: [] })),
  "fail-on-error": field(booleanText(true)),
  "logs-path": field(choiceText(LOGS_PATH_CHOICES, "auto")),
  // Linked from the thread: the API URL's rule keeps javascript:, data: and clear-text links to other hosts out.
  "runs-url": field(orElse(serviceUrlText, undefined)),
  "redact-patterns": field(orElse(redactPatternsText, [])),
});

const ActionInputsSchema = z.pipe(
  InputFieldsSchema.check(
    z.superRefine((inputs, ctx) => {
      if (inputs.mode === "resume") {
        if (inputs["run-id"] === undefined)
          ctx.addIssue({
            code: "custom",
            params: CROSS_INPUT,
            path: ["run-id"],
            message: "is required with `mode: resume`: the id of the run to continue",
          });
        if (inputs.prompt === undefined)
          ctx.addIssue({
            code: "custom",
            params: CROSS_INPUT,
            path: ["prompt"],
            message: "is required with `mode: resume`: the follow-up instruction for the run",
          });
      } else if (inputs["run-id"] !== undefined) {
        ctx.addIssue({
          code: "custom",
          params: CROSS_INPUT,
          path: ["run-id"],
          message: `is only used with \`mode: resume\` (mode is ${inputs.mode}): remove it, or set \`mode: resume\``,
        });
      }
    }),
  ),
  z.transform((i): ActionInputs => ({
    apiUrl: i["api-url"],
    apiToken: i["api-token"],
    previousApiToken: i["previous-api-token"] === "" || i["previous-api-token"] === i["api-token"] ? undefined : i["previous-api-token"],
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
    followUp: i["follow-up"],
    wait: i.wait,
    timeoutMinutes: i["timeout-minutes"],
    comment: i.comment,
    githubToken: i["github-token"] ?? "",
    allowedBots: i["allowed-bots"],
    allowedNonWriteUsers: i["allowed-non-write-users"],
    failOnError: i["fail-on-error"],
    logsPath: i["logs-path"],
    runsUrl: i["runs-url"],
    redactPatterns: i["redact-patterns"],
  })),
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
    // A password inside the service URL is masked like any secret.
    const given = (name === "api-url" || name === "runs-url") && raw[name] !== undefined ? urlForMessage(raw[name]) : raw[name];
    // Rules across inputs are about the combination, not this value.
    const crossInput = issue.code === "custom" && (issue.params as { crossInput?: boolean } | undefined)?.crossInput === true;
    const echo =
      given !== undefined &&
      !crossInput &&
      !SECRET_INPUTS.has(name) &&
      !QUOTED_BY_MESSAGE.has(name) &&
      !issue.message.startsWith("is required");
    const problem = `\`${name}\` ${issue.message}${echo ? `, got ${quote(given)}` : ""}`;
    if (!problems.includes(problem)) problems.push(problem);
  }
  throw new InputError(problems);
}
