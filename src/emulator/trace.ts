/**
 * The trace generator: a plausible, deterministic execution log for one part of a run (its
 * creation or a resume), following spec §2.7. Content is seeded from the run id and the prompt and
 * reuses the prompt's words, so a trace reads like work on that prompt. Pure: no clock, no I/O.
 */
import { MESSAGE_TYPES, TOOL_NAMES } from "../service/wire.js";
import type { MessageType } from "../service/wire.js";
import { hashString, pick, seededRandom } from "./random.js";
import type { Random } from "./random.js";

/** A log entry without the fields the store adds when it becomes visible (run id, timestamp). */
export interface TraceStep {
  message_type: MessageType;
  thought: string | null;
  tool_name: string | null;
  tool_input: Record<string, unknown> | null;
  tool_output: Record<string, unknown> | null;
  observation: Record<string, unknown> | string | null;
}

export interface PlannedStep {
  /** Fraction (0..1] of the part's duration at which the entry appears. */
  at: number;
  step: TraceStep;
}

export interface TracePullRequest {
  id: number;
  title: string;
  url: string;
  head_branch_name: string;
}

export interface TracePlanInput {
  runId: number;
  /** 0 for the creation, 1.. for resumes. */
  partIndex: number;
  prompt: string;
  /** Exact number of entries, USER_MESSAGE of a resume included. */
  logSteps: number;
  outcome: "completed" | "failed";
  pullRequests: readonly TracePullRequest[];
  /** The final response (FINAL_ANSWER observation) on success. */
  summary: string;
  /** The error details (ERROR observation) on failure. */
  errorMessage: string;
  /** Share of a new run's duration spent queued, before the first entry. */
  queuedShare: number;
}

// Named access to the wire's message types, so that no wire spelling is typed here.
const MESSAGE = Object.fromEntries(MESSAGE_TYPES.map((t) => [t, t])) as { [K in MessageType]: K };

const STOP_WORDS = new Set(
  (
    "the and for with this that from into please should would could make sure when then have has are was " +
    "not but all any can its it's our your their them they there here what which while also just only " +
    "some more most very been being does done will shall about after before again each other such than " +
    "too same into onto over under agent run runs"
  ).split(" "),
);

/** The words and files of a prompt that a trace talks about. */
interface PromptTopic {
  gist: string;
  keywords: string[];
  files: string[];
}

function topicOf(prompt: string): PromptTopic {
  const gist = gistOf(prompt, 80);
  const tokens = prompt.match(/[A-Za-z_][A-Za-z0-9_./-]{2,}/g) ?? [];
  const files: string[] = [];
  const keywords: string[] = [];
  for (const raw of tokens) {
    const token = raw.replace(/[./-]+$/, "");
    if (/\/|\.[a-z]{1,5}$/i.test(token) && /^[\w./-]+$/.test(token)) {
      if (!files.includes(token)) files.push(token);
    } else if (!STOP_WORDS.has(token.toLowerCase()) && token.length >= 4) {
      const word = token.toLowerCase();
      if (!keywords.includes(word)) keywords.push(word);
    }
  }
  // Longer words tend to be the prompt's subject ("dispatcher") rather than its colour ("flaky").
  const chosenKeywords = [...keywords].sort((x, y) => y.length - x.length).slice(0, 6);
  if (chosenKeywords.length === 0) chosenKeywords.push("main");
  if (files.length === 0) {
    for (const word of chosenKeywords.slice(0, 3)) files.push(`src/${word.replace(/[^a-z0-9_-]/g, "-")}.ts`);
  }
  return { gist, keywords: chosenKeywords, files: files.slice(0, 4) };
}

/** First line of a prompt, whitespace collapsed, cut to `max` characters. */
export function gistOf(prompt: string, max: number): string {
  const line = prompt.trim().split(/\r?\n/)[0]!.replace(/\s+/g, " ");
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

export function defaultSummary(prompt: string, pullRequests: readonly TracePullRequest[]): string {
  const topic = topicOf(prompt);
  const prs = pullRequests.length === 1 ? "opened 1 pull request" : `opened ${pullRequests.length} pull requests`;
  return `Worked on "${topic.gist}": reviewed ${topic.files.join(", ")} and ${prs}.`;
}

export function defaultResult(pullRequests: readonly TracePullRequest[]): string {
  if (pullRequests.length === 0) return "Finished without code changes: no pull request was needed.";
  return pullRequests.map((pr) => `Opened pull request #${pr.id} "${pr.title}" from ${pr.head_branch_name}: ${pr.url}`).join("\n");
}

export function defaultErrorMessage(prompt: string): string {
  const file = topicOf(prompt).files[0]!;
  return `The agent stopped: the edit of ${file} failed its checks twice and no pull request was opened.`;
}

export function defaultPullRequestTitle(prompt: string): string {
  return `Agent: ${gistOf(prompt, 60)}`;
}

/** Plans exactly `logSteps` entries for one part of a run. */
export function planTrace(input: TracePlanInput): PlannedStep[] {
  const random = seededRandom(hashString(`${input.runId}:${input.partIndex}:${input.prompt}`));
  const topic = topicOf(input.prompt);
  const isResume = input.partIndex > 0;
  let budget = Math.max(0, Math.floor(input.logSteps));
  const take = (): boolean => (budget > 0 ? (budget--, true) : false);

  // Most telling entries first, so that short traces still read sensibly.
  const userMessage = isResume && take() ? [userMessageStep(input.prompt)] : [];
  const closing = take()
    ? [input.outcome === "completed" ? finalAnswerStep(input.summary, random) : errorStep(input.errorMessage, topic, random)]
    : [];
  const opening = take() ? [openingPlanStep(topic, isResume, random)] : [];
  const prSteps: TraceStep[] = [];
  if (input.outcome === "completed") {
    const generations = input.pullRequests.filter(() => take()).map((pr) => prGenerationStep(pr));
    const evaluations = input.pullRequests
      .slice(0, generations.length)
      .filter(() => take())
      .map((pr) => prEvaluationStep(pr));
    generations.forEach((g, i) => {
      prSteps.push(g);
      if (evaluations[i]) prSteps.push(evaluations[i]);
    });
  }
  const middle = Array.from({ length: budget }, (_, i) => workStep(i, topic, random));

  const steps = [...userMessage, ...opening, ...middle, ...prSteps, ...closing];
  return scheduleSteps(steps, isResume ? 0 : input.queuedShare, userMessage.length > 0);
}

/** Spreads steps over the part's duration: the last one appears exactly when the part ends. */
function scheduleSteps(steps: TraceStep[], queuedShare: number, firstIsImmediate: boolean): PlannedStep[] {
  const immediate = firstIsImmediate ? 1 : 0;
  const spread = steps.length - immediate;
  return steps.map((step, index) => {
    if (index < immediate) return { at: 0, step };
    const k = index - immediate + 1;
    // Exactly 1 for the last step, free of rounding: it must appear when the part ends.
    return { at: k === spread ? 1 : queuedShare + (k / spread) * (1 - queuedShare), step };
  });
}

function blank(message_type: MessageType): TraceStep {
  return { message_type, thought: null, tool_name: null, tool_input: null, tool_output: null, observation: null };
}

function userMessageStep(prompt: string): TraceStep {
  return { ...blank(MESSAGE.USER_MESSAGE), observation: prompt };
}

function openingPlanStep(topic: PromptTopic, isResume: boolean, random: Random): TraceStep {
  const words = topic.keywords.slice(0, 3).join(", ");
  const thought = isResume
    ? `The user asked for a follow-up ("${topic.gist}"). I will revisit ${topic.files[0]} and adjust the change around ${words}.`
    : `Task: "${topic.gist}". Plan: find the code about ${words}, change ${topic.files[0]}, then open a pull request.`;
  const observation =
    random() < 0.5 ? { plan: [`search for ${topic.keywords[0]}`, `edit ${topic.files[0]}`, "open a pull request"] } : null;
  return { ...blank(MESSAGE.PLAN_EVALUATION), thought, observation };
}

function workStep(index: number, topic: PromptTopic, random: Random): TraceStep {
  const phase = index % 4;
  if (phase === 3) return progressPlanStep(topic, random);
  if (phase === 2) return fileWriteStep(topic, random);
  return searchStep(topic, random);
}

function searchStep(topic: PromptTopic, random: Random): TraceStep {
  const keyword = pick(random, topic.keywords);
  const count = 1 + Math.floor(random() * 3);
  const matches = Array.from({ length: count }, () => ({
    file: pick(random, topic.files),
    line: 1 + Math.floor(random() * 400),
    text: pick(random, [
      `export function ${camel(keyword)}(input: unknown) {`,
      `  // handles ${keyword}`,
      `const ${camel(keyword)}Options = loadOptions("${keyword}");`,
      `  if (!${camel(keyword)}) throw new Error("missing ${keyword}");`,
    ]),
  }));
  return {
    ...blank(MESSAGE.ACTION),
    thought: `Searching the repository for "${keyword}" to find where it is handled.`,
    tool_name: TOOL_NAMES.search,
    tool_input: { pattern: keyword, path: "." },
    tool_output: { matches },
    observation: `Found ${count} match${count === 1 ? "" : "es"} for "${keyword}"; ${matches[0]!.file} looks relevant.`,
  };
}

function fileWriteStep(topic: PromptTopic, random: Random): TraceStep {
  const file = pick(random, topic.files);
  const keyword = pick(random, topic.keywords);
  const content = `// ${keyword}: updated for "${topic.gist}"\nexport const ${camel(keyword)}Enabled = true;\n`;
  return {
    ...blank(MESSAGE.ACTION),
    thought: `Updating ${file} so that ${keyword} behaves as requested.`,
    tool_name: TOOL_NAMES.write,
    tool_input: { path: file, content },
    tool_output: { bytes_written: Buffer.byteLength(content, "utf8") },
    observation: `Wrote ${file}.`,
  };
}

function progressPlanStep(topic: PromptTopic, random: Random): TraceStep {
  const keyword = pick(random, topic.keywords);
  return {
    ...blank(MESSAGE.PLAN_EVALUATION),
    thought: `Progress check: the ${keyword} change is in place; next, verify the callers in ${pick(random, topic.files)}.`,
    observation: random() < 0.3 ? "No conflicting changes found." : null,
  };
}

function prGenerationStep(pr: TracePullRequest): TraceStep {
  return {
    ...blank(MESSAGE.INITIAL_PR_GENERATION),
    thought: `Opening a pull request from ${pr.head_branch_name}.`,
    observation: { pull_request: { id: pr.id, title: pr.title, url: pr.url, head_branch_name: pr.head_branch_name } },
  };
}

function prEvaluationStep(pr: TracePullRequest): TraceStep {
  return {
    ...blank(MESSAGE.PR_EVALUATION),
    thought: `Reviewing the diff of pull request #${pr.id}.`,
    observation: `Pull request #${pr.id} "${pr.title}" matches the request; no errors detected.`,
  };
}

function finalAnswerStep(summary: string, random: Random): TraceStep {
  return {
    ...blank(MESSAGE.FINAL_ANSWER),
    thought: random() < 0.5 ? "The task is complete." : null,
    observation: summary,
  };
}

function errorStep(errorMessage: string, topic: PromptTopic, random: Random): TraceStep {
  const inTool = random() < 0.5;
  return {
    ...blank(MESSAGE.ERROR),
    tool_name: inTool ? TOOL_NAMES.write : null,
    observation: inTool ? { error: errorMessage, file: topic.files[0] } : { error: errorMessage },
  };
}

function camel(word: string): string {
  const parts = word.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = parts.map((p, i) => (i === 0 ? p.toLowerCase() : p[0]!.toUpperCase() + p.slice(1).toLowerCase())).join("");
  return /^[A-Za-z_]/.test(joined) ? joined : `v${joined}`;
}
