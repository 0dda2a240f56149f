/**
 * What a step runs only once its decision is made and its create (if any) has been sent: watching
 * the run, its result and review, the step's report of a service error, the outputs and the job
 * summary. One module, loaded with `import()` where each is first needed, so the bundle has one
 * chunk for all of it: a step's start path does not compile it before its create (a runner pays
 * for every byte, and for every file, it loads first; BENCHMARKS.md, cold start).
 */
export { finishRun, reportServiceError, startedOnly, stoppedFromThread } from "./steps/finish.js";
export { watchToEnd } from "./steps/watch.js";
export { JOB_SUMMARY_MAX_BYTES, OUTPUT_NAMES, outputsFor, renderJobSummary } from "./report.js";
export { describeCurrentStep, digestTrace } from "../core/trace.js";
export { redactReviewToFit } from "../core/review/render.js";
