/**
 * The prompts per flow: a new run's (the request and its whole context) and a resumed run's (the new
 * request and a short pointer to where it came from). The repository's `instructions` close every
 * prompt, and the whole is bounded.
 */
import type { AuthorAccess, PromptInput, PromptOptions, ThreadContext } from "./context.js";
import { NO_TEXT, identifier, joinPromptText, material, promptText, type PromptText } from "./material.js";
import {
  threadSectionAuthors,
  type ThreadExclusion,
  checkFailureHeader,
  checkFailureSection,
  fitPrompt,
  instructionText,
  quotedSection,
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

/**
 * Whose access a new run's prompt labels, each once: a review's author and its inline comments'
 * authors, then the thread description's author and the comments' it quotes.
 */
export function promptThreadAuthors(input: PromptInput, options: PromptOptions = {}): string[] {
  const quoted = quotedThreadOf(input);
  const threadAuthors = quoted ? threadSectionAuthors(quoted.thread, options, quoted.exclude) : [];
  const reviewAuthors = input.flow === "review" ? [input.review?.author, ...input.reviewComments.map((comment) => comment.author)] : [];
  return [...new Set([...reviewAuthors, ...threadAuthors].filter((login): login is string => !!login))];
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
  if (input.flow !== "review") return { ...input, thread: labelled };
  return {
    ...input,
    thread: labelled,
    review: input.review && accessOf(input.review.author) ? { ...input.review, access: accessOf(input.review.author) } : input.review,
    reviewComments: input.reviewComments.map((comment) => {
      const known = accessOf(comment.author);
      return known ? { ...comment, access: known } : comment;
    }),
  };
}

/** The request with the trigger's quoted lines after it, as material. */
function requestWithQuotes(
  instruction: PromptText,
  empty: PromptText,
  quoted: string | null | undefined,
  options: PromptOptions,
): PromptText {
  const quotes = quotedSection(quoted, options);
  return joinPromptText([instruction === "" ? empty : instruction, ...(quotes === "" ? [] : [quotes])], "\n\n");
}

/** The prompt of a new run. */
export function buildRunPrompt(input: PromptInput, options: PromptOptions = {}): PromptText {
  switch (input.flow) {
    case "comment": {
      const noun = threadNoun(input.thread.kind);
      const where = promptText`${identifier(input.thread.repository)}#${input.thread.number} (${identifier(input.commentUrl)})`;
      const head = joinPromptText(
        [
          promptText`@${identifier(input.requester)} asked for help on ${noun} ${where}:`,
          requestWithQuotes(
            instructionText(input.instruction, options),
            promptText`(No instruction was given: read the ${noun} below and do what it asks.)`,
            input.quoted,
            options,
          ),
        ],
        "\n\n",
      );
      return fitPrompt(head, threadSection(input.thread, options, quotedThreadOf(input)!.exclude), options);
    }
    case "label": {
      const head = joinPromptText([
        promptText`@${identifier(input.requester)} added a label to issue ${identifier(input.thread.repository)}#${input.thread.number} (${identifier(input.thread.url)}). Resolve the issue described below.`,
        labelMaterial(input.label),
      ]);
      return fitPrompt(head, threadSection(input.thread, options), options);
    }
    case "review": {
      const instruction = instructionText(input.instruction, options);
      const requester = identifier(input.requester);
      const pr = promptText`pull request ${identifier(input.thread.repository)}#${input.thread.number}`;
      const opening =
        input.review && input.review.state === "changes_requested" && instruction === "" && !input.quoted
          ? promptText`@${requester} requested changes on ${pr} (${identifier(input.thread.url)}). Address the review below and push to the pull request's branch.`
          : promptText`@${requester} asked for help in a review of ${pr} (${identifier(input.triggerCommentUrl ?? input.review?.url ?? input.thread.url)}):`;
      const asked =
        instruction === "" && !input.quoted
          ? NO_TEXT
          : requestWithQuotes(instruction, promptText`(No instruction was given.)`, input.quoted, options);
      const head = asked === "" ? opening : joinPromptText([opening, asked], "\n\n");
      const review = reviewSection(input.review, input.reviewComments, options);
      const context = joinPromptText([...(review === "" ? [] : [review]), threadSection(input.thread, options)], "\n\n");
      return fitPrompt(head, context, options);
    }
    case "check_suite":
    case "workflow_run":
      return fitPrompt(checkFailureHeader(input, false), checkFailureSection(input, options), options);
    case "dispatch": {
      // A workflow's own `prompt` input: its author's instruction, followed like a request.
      const head = instructionText(input.prompt, options);
      return fitPrompt(head, input.thread ? threadSection(input.thread, options) : NO_TEXT, options);
    }
    case "automation": {
      // The repository's own instruction first (its configuration, written by people with write access); the issue
      // or pull request follows as labelled material, like every outside text: nobody in the thread asked.
      const thread = input.thread;
      const noun = thread.kind === "pull_request" ? promptText`pull request` : promptText`issue`;
      const head = promptText`${instructionText(input.prompt, options)}\n\n(This run was started by the repository's automation "${identifier(input.automation)}" on ${identifier(input.event)}, for the ${noun} ${identifier(thread.repository)}#${thread.number} (${identifier(thread.url)}).)`;
      return fitPrompt(head, threadSection(thread, options), options);
    }
  }
}

/** The label a label trigger names, as material (the repository's label, but a name anyone with triage access may have chosen). */
const labelMaterial = (label: string) => material({ source: "label name", text: label, shape: "line" });

/**
 * The prompt that continues an existing run: the new request and a short pointer to where it
 * came from; the run already knows the thread.
 */
export function buildResumePrompt(input: PromptInput, options: PromptOptions = {}): PromptText {
  switch (input.flow) {
    case "comment": {
      const asked = requestWithQuotes(
        instructionText(input.instruction, options),
        promptText`(No new instruction: check the thread for what changed and continue.)`,
        input.quoted,
        options,
      );
      return fitPrompt(
        promptText`Follow-up from @${identifier(input.requester)} on ${identifier(input.commentUrl)}:\n\n${asked}`,
        NO_TEXT,
        options,
      );
    }
    case "label":
      return fitPrompt(
        joinPromptText([
          promptText`@${identifier(input.requester)} added a label again on ${identifier(input.thread.url)}. Check the issue for what changed and continue.`,
          labelMaterial(input.label),
        ]),
        NO_TEXT,
        options,
      );
    case "review": {
      const instruction = instructionText(input.instruction, options);
      const from = promptText`Follow-up review from @${identifier(input.requester)} on ${identifier(input.triggerCommentUrl ?? input.review?.url ?? input.thread.url)}`;
      const head =
        instruction === "" && !input.quoted
          ? promptText`${from}. Address it and push to the pull request's branch.`
          : promptText`${from}:\n\n${requestWithQuotes(instruction, promptText`(No instruction was given.)`, input.quoted, options)}`;
      return fitPrompt(head, reviewSection(input.review, input.reviewComments, options), options);
    }
    case "check_suite":
    case "workflow_run":
      return fitPrompt(checkFailureHeader(input, true), checkFailureSection(input, options), options);
    case "dispatch":
    case "automation":
      return fitPrompt(instructionText(input.prompt, options), NO_TEXT, options);
  }
}
