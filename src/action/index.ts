/** The bundle's entry (dist/index.js): the step, nothing else. `runAction` reports and never rejects. */
import { runAction } from "./runner.js";
await runAction();
