/**
 * The prompts per flow: a new run's (the request and its whole context) and a resumed run's (the new
 * request and a short pointer to where it came from). The repository's `instructions` close every
 * prompt, and the whole is bounded.
 */
import type { AuthorAccess, PromptInput, PromptOptions, ThreadContext } from "./context.js";
import {
  threadSectionAuthors,
  type ThreadExclusion,
  checkFailureHeader,
  checkFailureSection,
  fitPrompt,
  instructionText,
  oneLine,
  reviewSection,
  threadNoun,
  threadSection,
} from "./sections.js";

/** The thread a new run's prompt quotes, and the comment it leaves out because the prompt quotes it as the request. */
function quotedThreadOf(input: PromptInput): { thread: ThreadContext; exclude: ThreadExclusion } | null {
  switch (input.flow) {
    case "comment":
      return { thread: input.thread, exclude: { id: input.commentId, url: input.commentUrl } };
    case "label":
    case "review":
    case "automation":
      return { thread: input.thread, exclude: {} };
    case "dispatch":
      return input.thread ? { thread: input.thread, exclude: {} } : null;
    case "check_suite":
    case "workflow_run":
      return null;
  }
}

/** Whose access a new run's prompt labels: the thread description's author and the comments' it quotes, each once. */
export function promptThreadAuthors(input: PromptInput, options: PromptOptions = {}): string[] {
  const quoted = quotedThreadOf(input);
  return quoted ? threadSectionAuthors(quoted.thread, options, quoted.exclude) : [];
}

/** The input with each quoted author's access filled in from `access` (a login it lacks stays unknown, which reads as none). */
export function withAuthorAccess(input: PromptInput, access: ReadonlyMap<string, AuthorAccess>): PromptInput {
  if (!("thread" in input) || !input.thread) return input;
  const thread = input.thread;
  const accessOf = (login: string | null | undefined) => (login ? access.get(login) : undefined);
  const labelled: ThreadContext = {
    ...thread,
    ...(accessOf(thread.author) ? { authorAccess: accessOf(thread.author) } : {}),
    comments: (thread.comments ?? []).map((comment) => {
      const known = accessOf(comment.author);
      return known ? { ...comment, access: known } : comment;
    }),
  };
  return { ...input, thread: labelled };
}

/** The prompt of a new run. */
export function buildRunPrompt(input: PromptInput, options: PromptOptions = {}): string {
  switch (input.flow) {
    case "comment": {
      const noun = threadNoun(input.thread.kind);
      const instruction = instructionText(input.instruction, options);
      const head = [
        `@${input.requester} asked for help on ${noun} ${input.thread.repository}#${input.thread.number} (${input.commentUrl}):`,
        "",
        instruction === "" ? `(No instruction was given: read the ${noun} below and do what it asks.)` : instruction,
      ].join("\n");
      return fitPrompt(head, threadSection(input.thread, options, quotedThreadOf(input)!.exclude), options);
    }
    case "label": {
      const head = `@${input.requester} added the label "${oneLine(input.label)}" to issue ${input.thread.repository}#${input.thread.number} (${input.thread.url}). Resolve the issue described below.`;
      return fitPrompt(head, threadSection(input.thread, options), options);
    }
    case "review": {
      const instruction = instructionText(input.instruction, options);
      const where = `pull request ${input.thread.repository}#${input.thread.number} (${input.thread.url})`;
      const head = [
        input.review && input.review.state === "changes_requested" && instruction === ""
          ? `@${input.requester} requested changes on ${where}. Address the review below and push to the pull request's branch.`
          : `@${input.requester} asked for help in a review of pull request ${input.thread.repository}#${input.thread.number} (${input.triggerCommentUrl ?? input.review?.url ?? input.thread.url}):`,
        ...(instruction === "" ? [] : ["", instruction]),
      ].join("\n");
      const context = [reviewSection(input.review, input.reviewComments, options), threadSection(input.thread, options)]
        .filter(Boolean)
        .join("\n\n");
      return fitPrompt(head, context, options);
    }
    case "check_suite":
    case "workflow_run":
      return fitPrompt(checkFailureHeader(input, false), checkFailureSection(input, options), options);
    case "dispatch": {
      const head = instructionText(input.prompt, options);
      return fitPrompt(head, input.thread ? threadSection(input.thread, options) : "", options);
    }
    case "automation": {
      // The repository's own instruction first; the thread's title and body follow only as quoted material.
      const where = `${threadNoun(input.thread.kind)} ${input.thread.repository}#${input.thread.number} (${input.thread.url})`;
      const head = [
        instructionText(input.prompt, options),
        "",
        `(This run was started by the repository's automation "${oneLine(input.automation)}" on ${input.event}, for ${where}.)`,
      ].join("\n");
      return fitPrompt(head, threadSection(input.thread, options, {}, "all"), options);
    }
  }
}

/**
 * The prompt that continues an existing run: the new request and a short pointer to where it
 * came from; the run already knows the thread.
 */
export function buildResumePrompt(input: PromptInput, options: PromptOptions = {}): string {
  switch (input.flow) {
    case "comment": {
      const instruction = instructionText(input.instruction, options);
      const head = `Follow-up from @${input.requester} on ${input.commentUrl}:\n\n${instruction === "" ? "(No new instruction: check the thread for what changed and continue.)" : instruction}`;
      return fitPrompt(head, "", options);
    }
    case "label":
      return fitPrompt(
        `@${input.requester} added the label "${oneLine(input.label)}" again on ${input.thread.url}. Check the issue for what changed and continue.`,
        "",
        options,
      );
    case "review": {
      const instruction = instructionText(input.instruction, options);
      const url = input.triggerCommentUrl ?? input.review?.url ?? input.thread.url;
      const head = `Follow-up review from @${input.requester} on ${url}${instruction === "" ? ". Address it and push to the pull request's branch." : `:\n\n${instruction}`}`;
      return fitPrompt(head, reviewSection(input.review, input.reviewComments, options), options);
    }
    case "check_suite":
    case "workflow_run":
      return fitPrompt(checkFailureHeader(input, true), checkFailureSection(input, options), options);
    case "dispatch":
    case "automation":
      return fitPrompt(instructionText(input.prompt, options), "", options);
  }
}
