/**
 * The bundle's post entry (dist/post.js, `runs.post` in action.yml): the runner starts it after the
 * main step, even a cancelled or killed one. A separate entry rather than a mode of index.js: a main
 * step killed before it saved anything must never be run again as its own post step.
 */
import { runPostStep } from "./post-step.js";

await runPostStep(process.env);
