import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
var t=process.getBuiltinModule("node:os"),e=(o=>t[o]);var n=e("EOL");export{n as a};
//# sourceMappingURL=chunk-35TLITZI.js.map
