import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{X as n}from"./chunk-OM4Y72VY.js";import"./chunk-WNOJY4XT.js";import"./chunk-LORREW4R.js";var c=["SIGINT","SIGTERM"];function i(){return new Promise(e=>{let s=null,a=t=>{e(t),s??=setTimeout(()=>process.exit(1),9500).unref()};for(let t of c)process.on(t,a)})}var l=i(),o=n(process.env);o&&await new Promise(e=>setImmediate(e));var{runAction:m}=await import("./runner-76TCUK5Y.js"),r;try{r=(await m({headStart:o,cancelled:l})).outcome.kind}finally{o?.close()}r==="cancelled"&&process.exit();
//# sourceMappingURL=index.js.map
