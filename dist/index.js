import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{$ as o}from"./chunk-NR5NWDFC.js";import"./chunk-WWXOC67G.js";import"./chunk-LORREW4R.js";var c=["SIGINT","SIGTERM"];var i=(function i(){return new Promise(e=>{let s=null,a=t=>{e(t),s??=setTimeout(()=>process.exit(1),9500).unref()};for(let t of c)process.on(t,a)})});var l=i(),n=o(process.env);n&&await new Promise(e=>setImmediate(e));var{runAction:m}=await import("./runner-AQO5JA7L.js"),r;try{r=(await m({headStart:n,cancelled:l})).outcome.kind}finally{n?.close()}r==="cancelled"&&process.exit();
//# sourceMappingURL=index.js.map
