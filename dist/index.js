import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{ba as o}from"./chunk-VORAFTUQ.js";import"./chunk-WNOJY4XT.js";import"./chunk-LORREW4R.js";var c=["SIGINT","SIGTERM"];var i=(function i(){return new Promise(e=>{let s=null,a=t=>{e(t),s??=setTimeout(()=>process.exit(1),9500).unref()};for(let t of c)process.on(t,a)})});var l=i(),n=o(process.env);n&&await new Promise(e=>setImmediate(e));var{runAction:m}=await import("./runner-3SMMOQRT.js"),r;try{r=(await m({headStart:n,cancelled:l})).outcome.kind}finally{n?.close()}r==="cancelled"&&process.exit();
//# sourceMappingURL=index.js.map
