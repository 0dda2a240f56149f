/**
 * The bot's short replies, each a new comment starting with its kind marker (so the bot can tell
 * its own refusals apart): a refusal, a broken configuration, a pull request handed back after the
 * CI attempt cap, and a service failure said in public words.
 */
import {
  AgentRunError,
  AuthenticationError,
  BadRequestError,
  DeadlineError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  PermissionError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  TimeoutError,
  UnprocessableError,
} from "../../service/errors.js";
import { renderKindMarker } from "../markers/write.js";
import { inlineCode } from "../sanitize-output/code.js";
import { joinMarkdown, md, type SafeMarkdown } from "../sanitize-output/safe-markdown.js";
import { renderLink } from "../sanitize-output/links.js";
import { sanitizeInline, sanitizeMarkdown } from "../sanitize-output/prose.js";
import { linkTarget, mentionOf, plural } from "./pieces.js";

export interface RefusalInput {
  login: string;
  /** Why, in a sentence (e.g. from planRun's reason). */
  reason: string;
}

export interface RepositoryMismatchInput {
  /** The repository the run was asked for (`owner/name`). */
  repository: string;
}

export interface ConfigErrorInput {
  errors: string[];
  file: string;
}

export interface HandBackInput {
  attempts: number;
  prUrl?: string | null;
  triggerPhrase?: string;
}

export interface ServiceErrorInput {
  /** What went wrong, one line. */
  message: string;
  /** What a maintainer (or the requester) should do next. */
  whatToDo: string;
}

/** One short reply to someone who may not trigger the bot (they are mentioned, so they see it). */
export function renderRefusal(input: RefusalInput): string {
  const who = mentionOf(input.login);
  const reason = sanitizeInline(input.reason, { maxLength: 500 });
  const because = reason === "" ? md`.` : md`: ${reason}`;
  return `${renderKindMarker("refusal")}\n🚫 ${who}, I can't start the agent for you${because}`;
}

/**
 * The configured `repo_id` is another repository's on the service: nothing was started. Names the
 * key and the file, not the id nor the repository the service lists under it (which may be private).
 */
export function renderRepositoryMismatch(input: RepositoryMismatchInput): string {
  const repository = inlineCode(input.repository, { maxLength: 200 });
  return `${renderKindMarker("refusal")}\n🚫 I did not start the agent: \`repo_id\` in \`.github/agent-run.yml\` names another repository on the service, not ${repository}. Set it to this repository's id on the service, or remove it to let the bridge find it.`;
}

/** A configuration's problems as a Markdown list, at most 30 shown. */
function problemList(problems: readonly string[]): SafeMarkdown {
  const maxShown = 30;
  const items = problems.slice(0, maxShown).map((problem) => md`- ${sanitizeInline(problem, { maxLength: 500 })}`);
  if (problems.length > maxShown) items.push(`- … and ${problems.length - maxShown} more` as SafeMarkdown);
  return joinMarkdown(items, "\n");
}

/** The repository's configuration file is invalid: nothing was started. */
export function renderConfigError(input: ConfigErrorInput): string {
  const file = inlineCode(input.file, { maxLength: 200 });
  const list = input.errors.length > 0 ? md`\n\n${problemList(input.errors)}` : md``;
  return `${renderKindMarker("config_error")}\n⚠️ **The agent configuration in ${file} is invalid**, so nothing was started.${list}\n\nFix the file on the default branch, then trigger the agent again.`;
}

/**
 * Some `automations` entries of the configuration are invalid and skipped, the rest applies. Said once
 * per version of the file (the App keys it by the files' blob shas), like the other configuration errors.
 */
export function renderSkippedAutomations(input: ConfigErrorInput): string {
  const file = inlineCode(input.file, { maxLength: 200 });
  return `${renderKindMarker("config_error")}\n⚠️ **Some automations in ${file} are invalid and are skipped**; the other automations and the rest of the file apply.\n\n${problemList(input.errors)}\n\nFix the entries on the default branch. This is said once for each version of the file.`;
}

/** The attempt cap was reached: the pull request goes back to the humans. */
export function renderHandBack(input: HandBackInput): string {
  const attempts = Math.max(0, Math.floor(input.attempts));
  const pr = input.prUrl && linkTarget(input.prUrl) ? renderLink("this pull request", linkTarget(input.prUrl)) : md`this pull request`;
  const again = input.triggerPhrase?.trim()
    ? md`Comment ${inlineCode(`${input.triggerPhrase.trim()} <what to do>`, { maxLength: 100 })} to ask me again.`
    : md`Ask me again in a comment if you want another try.`;
  const tries = plural(attempts, "time", "times") as SafeMarkdown;
  return `${renderKindMarker("hand_back")}\n🙋 I tried to fix ${pr} ${tries} and the checks still fail, so I am handing it back to you. I will not start new fix runs for it on my own. ${again}`;
}

/**
 * The service refused or failed (plan allowance used up, bad token…): say what to do. The token and
 * other secrets are taken out by the writer's redaction (core/redact.ts), like in every comment.
 */
export function renderServiceError(input: ServiceErrorInput): string {
  const message = sanitizeInline(input.message, { maxLength: 500 });
  const whatToDo = sanitizeMarkdown(input.whatToDo, { maxLength: 2000 });
  return `${renderKindMarker("service_error")}\n⚠️ **The agent could not run: ${message}**${whatToDo === "" ? "" : `\n\n${whatToDo}`}`;
}

/**
 * The public wording of a service failure. Deliberately leaves out the server's own words and the
 * request path: they belong in the logs, not in a public thread.
 */
export function serviceErrorForComment(error: unknown): { message: string; whatToDo: string } {
  if (error instanceof PaymentRequiredError) {
    return {
      message: "the organization's allowance for agent runs is used up (402).",
      whatToDo: "A maintainer needs to add credits or raise the plan on the Agent Run Service, then trigger the agent again.",
    };
  }
  if (error instanceof AuthenticationError) {
    return {
      message: "the Agent Run Service rejected the bridge's API token (401).",
      whatToDo:
        "A maintainer needs to replace the API token the bridge is configured with (for the Action, the secret passed as `api-token`).",
    };
  }
  if (error instanceof PermissionError) {
    return {
      message: "the API token has no access to the configured organization (403).",
      whatToDo: "A maintainer needs to check the organization id and what the token may access.",
    };
  }
  if (error instanceof RateLimitError || error instanceof DeadlineError) {
    return { message: "the Agent Run Service is busy (rate limit).", whatToDo: "Try again in a few minutes." };
  }
  if (error instanceof ServerError || error instanceof NetworkError || error instanceof TimeoutError) {
    return {
      message: "the Agent Run Service could not be reached or failed.",
      whatToDo: "Try again later. If it keeps happening, tell a maintainer.",
    };
  }
  if (error instanceof NotFoundError) {
    return { message: "the run was not found on the Agent Run Service (404).", whatToDo: "Start a new run instead." };
  }
  if (error instanceof BadRequestError || error instanceof UnprocessableError || error instanceof RequestValidationError) {
    // Field names are the bridge's own request fields, safe to show; the server's sentences are not.
    const fields = error.rejectedFields.filter((field) => /^[A-Za-z_][\w.]{0,40}$/.test(field));
    return {
      message:
        fields.length > 0
          ? `the Agent Run Service rejected the request's ${fields.join(", ")}.`
          : "the Agent Run Service rejected the request.",
      whatToDo: "A maintainer should check the agent configuration (model, agent type, repository id).",
    };
  }
  if (error instanceof AgentRunError) {
    return { message: "the Agent Run Service refused the request.", whatToDo: "Try again. If it keeps happening, tell a maintainer." };
  }
  return { message: "an unexpected error stopped it.", whatToDo: "Try again. If it keeps happening, tell a maintainer." };
}
