/**
 * `automations`: runs that start by themselves when an issue or pull request is opened (or a draft
 * is marked ready), each with its own instruction and filters. An entry that cannot be read is set
 * aside with its problems (`setAsideInvalidAutomations`): it never takes the valid entries, or the
 * rest of the file, down with it.
 */
import * as z from "zod/mini";
import { locateIssues, type LocatedProblem } from "./issues.js";
import { once } from "../core/once.js";

/** The events an automation may start on (`<event>.<action>`, as webhooks name them). */
export const AUTOMATION_EVENTS = ["issues.opened", "pull_request.opened", "pull_request.ready_for_review"] as const;
export type AutomationEvent = (typeof AUTOMATION_EVENTS)[number];

/** What an automation's run does: an ordinary run, or a review of the pull request. */
const AUTOMATION_MODES = ["run", "review"] as const;

export const AUTOMATION_NAME = /^[a-z0-9-]{1,40}$/;
const AUTOMATION_PROMPT_MAX_CHARS = 4000;

function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

const stringList = (entry: z.ZodMiniType<string>, error: string, description: string) =>
  described(z._default(z.array(entry, { error }), []), description);

/** One entry of `automations` (built on first use, core/once.ts). */
const automationSchema = once(() =>
  z.strictObject(
    {
      name: described(
        z.string({ error: 'must be a name such as "triage-bugs"' }).check(
          z.regex(AUTOMATION_NAME, {
            error: 'must be 1 to 40 lowercase letters, digits or hyphens, such as "triage-bugs"',
          }),
        ),
        "The automation's name, unique in the file: its runs carry it (`metadata.automation`), and it is started at most once per issue or pull request.",
      ),
      on: described(
        z.enum(AUTOMATION_EVENTS, { error: `must be one of ${AUTOMATION_EVENTS.join(", ")}` }),
        "The event that starts it: a new issue, a new pull request, or a draft pull request marked ready for review.",
      ),
      prompt: described(
        z
          .string({ error: "must be the instruction for the agent (text)" })
          .check(
            z.trim(),
            z.minLength(1, { error: "must not be empty: it is the instruction for the agent" }),
            z.maxLength(AUTOMATION_PROMPT_MAX_CHARS, { error: `must be at most ${AUTOMATION_PROMPT_MAX_CHARS} characters` }),
          ),
        "The instruction. The run's prompt is this instruction, followed by the issue's or pull request's title and body as quoted material (never as instructions).",
      ),
      labels: stringList(
        z
          .string({ error: 'each entry must be a label name such as "bug"' })
          .check(
            z.trim(),
            z.minLength(1, { error: "each entry must be a non-empty label name" }),
            z.maxLength(50, { error: "each entry must be at most 50 characters (GitHub's limit for label names)" }),
          ),
        'must be a list of label names such as ["bug"]',
        "Only when the issue or pull request carries one of these labels at that event (case-insensitive). Empty: any.",
      ),
      paths: stringList(
        z
          .string({ error: 'each entry must be a glob pattern such as "src/**"' })
          .check(
            z.regex(/^[^!\s]/, { error: 'each entry must be a non-empty glob pattern such as "src/**" (a leading "!" is not supported)' }),
          ),
        'must be a list of glob patterns such as ["src/**"]',
        "Pull requests only: only when a changed file matches one of these glob patterns (`*`, `**`, `?`). Empty: any.",
      ),
      mode: described(
        z._default(z.enum(AUTOMATION_MODES, { error: `must be one of ${AUTOMATION_MODES.join(", ")}` }), "run"),
        "`run`: an ordinary run. `review` (pull requests only): the run reviews the pull request and the bridge posts one pull-request review with inline comments.",
      ),
      drafts: described(
        z._default(z.boolean({ error: "must be true or false" }), false),
        "Pull requests only: whether a draft starts it when opened. Default false: a draft waits, and the automation starts when it is marked ready for review (once per pull request).",
      ),
    },
    {
      error: (issue) =>
        issue.code === "invalid_type"
          ? "must be a mapping with the keys name, on, prompt and optionally labels, paths, mode, drafts"
          : undefined,
    },
  ),
);

export type Automation = z.output<ReturnType<typeof automationSchema>>;

export const automationsSchema = once(() =>
  described(
    z._default(z.array(automationSchema(), { error: "must be a list of automations (each a mapping with name, on and prompt)" }), []),
    "Runs that start by themselves on a new issue or pull request, under the same trust rules as a comment (see docs/automations.md). An invalid entry is reported and skipped; the others still work.",
  ),
);

/**
 * Takes the invalid entries of `automations` out of a configuration before it is validated: each
 * is reported (with its path, for the line in the file) and skipped, so a typo in one automation
 * never stops the others or the comment triggers. Duplicate names keep the first entry.
 */
export function setAsideInvalidAutomations(
  input: unknown,
  label: (path: string) => string = (path) => `\`${path}\``,
  values: "quoted" | "kinds" = "kinds",
): { input: unknown; problems: LocatedProblem[] } {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return { input, problems: [] };
  const record = input as Record<string, unknown>;
  const entries = record.automations;
  if (!Array.isArray(entries)) return { input, problems: [] };
  const problems: LocatedProblem[] = [];
  const kept: unknown[] = [];
  const names = new Map<string, number>();
  entries.forEach((entry, index) => {
    const parsed = automationSchema().safeParse(entry);
    if (!parsed.success) {
      const located = locateIssues(parsed.error.issues, entry, {
        label: (path) => label(`automations[${index}]${path ? `.${path}` : ""}`),
        allowedKeysAt: (path) => (path.length === 0 ? Object.keys(automationSchema()._zod.def.shape) : undefined),
        // Quoted only for a local check of one's own file; a reply on GitHub says the kind alone.
        values,
      });
      problems.push(...located.map((problem) => ({ ...problem, path: ["automations", index, ...problem.path] })));
      return;
    }
    const earlier = names.get(parsed.data.name);
    if (earlier !== undefined) {
      // Named by the earlier entry's place, not by the name itself: a reply never quotes a value of the file.
      problems.push({
        path: ["automations", index, "name"],
        message: `${label(`automations[${index}].name`)}: the same name as \`automations[${earlier}]\`; names must be unique (this entry is skipped)`,
      });
      return;
    }
    names.set(parsed.data.name, index);
    kept.push(entry);
  });
  return { input: { ...record, automations: kept }, problems };
}
