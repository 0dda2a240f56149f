/** The bundle's entry (dist/index.js): run the step; `run` reports and never rejects. */
import { run } from "./main.js";
await run();
