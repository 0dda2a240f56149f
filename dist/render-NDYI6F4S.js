import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{b as a,c as b,d as c}from"./chunk-YCVNQUVV.js";import"./chunk-OO54H2U2.js";import"./chunk-JNPCK73A.js";import"./chunk-ELV575TI.js";import"./chunk-Q57VX7JZ.js";import"./chunk-LORREW4R.js";export{a as renderReview,c as renderReviewNotice,b as renderReviewWithoutInline};
//# sourceMappingURL=render-NDYI6F4S.js.map
