import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{L as a}from"./chunk-5AGSRX4B.js";import"./chunk-WNOJY4XT.js";import"./chunk-LORREW4R.js";var t=a(process.env);t&&await new Promise(e=>setImmediate(e));var{runAction:i}=await import("./runner-O4M4WZTC.js");try{await i({headStart:t})}finally{t?.close()}
//# sourceMappingURL=index.js.map
