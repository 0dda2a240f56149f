import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{K as t}from"./chunk-O5IYX4TD.js";import"./chunk-WNOJY4XT.js";import"./chunk-LORREW4R.js";var a=t(process.env);a&&await new Promise(e=>setImmediate(e));var{runAction:i}=await import("./runner-DRXCTCWO.js");await i({headStart:a});
//# sourceMappingURL=index.js.map
