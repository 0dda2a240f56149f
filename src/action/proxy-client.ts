/**
 * The proxy-aware client @actions/github makes (`getOctokit`'s parts), for a runner that sets a proxy
 * for the API's host (octokit.ts). It brings a bundled undici (about 0.5 MB), so the build makes it a
 * file of its own (dist/proxy-client.js), loaded only then by the main step and the post step alike.
 */
export { GitHub, defaults, getOctokitOptions } from "@actions/github/lib/utils";
