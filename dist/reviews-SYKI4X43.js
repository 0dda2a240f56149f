import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-VCO4GW2H.js";import"./chunk-B4HOVT7O.js";import"./chunk-DEWFW34Q.js";import"./chunk-B73WXFOX.js";import"./chunk-Q57VX7JZ.js";import"./chunk-LORREW4R.js";export{c as createPullRequestReview,a as listPullRequestFilesWithPatches,b as listPullRequestReviews};
//# sourceMappingURL=reviews-SYKI4X43.js.map
