/**
 * The bundle's entry (dist/index.js): the step, nothing else. GitHub's answers to the reads every
 * step makes are awaited while the rest of the Action loads (head-start.ts says why), so the runner
 * is imported only after they are on the wire: Node 24 compiles and evaluates an `import()` without
 * returning to the event loop, so the sockets get one turn of it first. A cancel signal from the
 * runner ends the step with its last word (cancellation.ts); `runAction` reports and never rejects.
 */
import { listenForCancel } from "./cancellation.js";
import { startHeadStart } from "./head-start.js";

const cancelled = listenForCancel();
const headStart = startHeadStart(process.env);
if (headStart) await new Promise((resolve) => setImmediate(resolve));
const { runAction } = await import("./runner.js");
let outcome: string;
try {
  outcome = (await runAction({ headStart, cancelled })).outcome.kind;
} finally {
  headStart?.close();
}
// The abandoned watch still holds timers and sockets: leave now, with the exit code setFailed chose.
if (outcome === "cancelled") process.exit();
