import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h,i,j,k,l,m,n,o}from"./chunk-B73WXFOX.js";import"./chunk-LORREW4R.js";export{c as GitHubAuthenticationError,a as GitHubError,b as GitHubInputError,i as GitHubNetworkError,e as GitHubNotFoundError,d as GitHubPermissionError,g as GitHubRateLimitError,h as GitHubServerError,f as GitHubValidationError,n as callGitHub,o as isNotFound,k as rateLimitSignals,l as rateLimitWaitMs,j as retryAfterSeconds,m as toGitHubError};
//# sourceMappingURL=errors-CU7X4KMT.js.map
