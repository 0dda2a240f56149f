import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{aa as o}from"./chunk-W5UWJRWQ.js";import"./chunk-XSMPFL64.js";var c=["SIGINT","SIGTERM"];var i=(function i(){return new Promise(e=>{let s=null,a=t=>{e(t),s??=setTimeout(()=>process.exit(1),9500).unref()};for(let t of c)process.on(t,a)})});var l=i(),n=o(process.env);n&&await new Promise(e=>setImmediate(e));var{runAction:m}=await import("./runner-RX7OPN2V.js"),r;try{r=(await m({headStart:n,cancelled:l})).outcome.kind}finally{n?.close()}r==="cancelled"&&process.exit();
//# sourceMappingURL=index.js.map
