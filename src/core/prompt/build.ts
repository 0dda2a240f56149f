/**
 * The prompts per flow: a new run's (the request and its whole context) and a resumed run's (the new
 * request and a short pointer to where it came from). The repository's `instructions` close every
 * prompt, and the whole is bounded.
 */
import type { PromptInput, PromptOptions } from "./context.js";
import {
  checkFailureHeader,
  checkFailureSection,
  fitPrompt,
  instructionText,
  oneLine,
  reviewSection,
  threadNoun,
  threadSection,
} from "./sections.js";

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
      return fitPrompt(head, threadSection(input.thread, options, { id: input.commentId, url: input.commentUrl }), options);
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
      return fitPrompt(instructionText(input.prompt, options), "", options);
  }
}
