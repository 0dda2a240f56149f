/**
 * Which GitHub the bridge talks to, github.com or a GitHub Enterprise Server, and what follows from
 * it: the web origin, the GraphQL endpoint, which pasted URLs are attachments and the one origin
 * that may receive the token when an attachment is downloaded. Pure: the shells read the
 * environment and pass it here. The App: `githubServerAt(webUrlOfApiUrl(base))`, its base being
 * `{GHE_PROTOCOL}://{GHE_HOST}/api/v3` (app/env.ts); the Action: `githubServerAt(GITHUB_SERVER_URL)`
 * (action/runner-env.ts). Agent output's image rule derives its hosts from the same object
 * (`imageHostsFor`, sanitize-output/image-hosts.ts).
 */

const GITHUB_COM_WEB_URL = "https://github.com";
export const GITHUB_COM_API_URL = "https://api.github.com";

export interface GitHubServer {
  /** `https://github.com`, or the Enterprise Server's `{protocol}://{host}[:port]`. */
  readonly webOrigin: string;
  /** True for an Enterprise Server (any web origin other than github.com). */
  readonly enterprise: boolean;
  /** The only origins that receive the token with an attachment download: the web origin itself. */
  readonly tokenOrigins: readonly string[];
}

/** github.com's hosts for users' pasted images, besides its own `/user-attachments/` paths. */
const GITHUB_COM_USER_IMAGE_HOSTS = ["user-images.githubusercontent.com", "private-user-images.githubusercontent.com"];

/** github.com, the default everywhere. */
export const GITHUB_COM: GitHubServer = {
  webOrigin: GITHUB_COM_WEB_URL,
  enterprise: false,
  tokenOrigins: [GITHUB_COM_WEB_URL],
};

/** The server a web URL names (the Action's GITHUB_SERVER_URL); github.com when it is absent, empty or github.com. */
export function githubServerAt(webUrl: string | null | undefined): GitHubServer {
  const text = webUrl?.trim();
  if (!text) return GITHUB_COM;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`The GitHub server URL "${text}" is not a URL: it must look like https://github.example.com.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`The GitHub server URL "${text}" must start with https:// (or http://).`);
  }
  if (url.origin === GITHUB_COM_WEB_URL) return GITHUB_COM;
  return {
    webOrigin: url.origin,
    enterprise: true,
    tokenOrigins: [url.origin],
  };
}

/**
 * The web URL behind a REST API base: `https://HOST` for an Enterprise Server's `https://HOST/api/v3`
 * (the only place GHES serves REST), github.com for any other base (api.github.com, none, or a
 * stand-in for it such as a local fake).
 */
export function webUrlOfApiUrl(apiBaseUrl: string | null | undefined): string {
  const base = apiBaseUrl?.trim().replace(/\/+$/, "");
  return base && /\/api\/v3$/.test(base) ? base.slice(0, -"/api/v3".length) : GITHUB_COM_WEB_URL;
}

/**
 * The GraphQL endpoint for a REST API base, as GitHub lays them out: `https://api.github.com/graphql`
 * for github.com, `{origin}/api/graphql` for an Enterprise Server's `{origin}/api/v3` (GHES serves
 * no GraphQL under `/api/v3`), `{base}/graphql` for anything else.
 */
export function graphqlUrlOfApiUrl(apiBaseUrl: string): string {
  const base = apiBaseUrl.trim().replace(/\/+$/, "");
  if (/\/api\/v3$/.test(base)) return `${base.slice(0, -"/v3".length)}/graphql`;
  return `${base}/graphql`;
}

/**
 * Whether a URL is an attachment users pasted on this server: https on github.com (its
 * `/user-attachments/` paths and the user-image hosts), or on an Enterprise Server its own origin's
 * `/user-attachments/` and `/media/` paths and its `media.` subdomain, with the server's own scheme.
 * Credentials in the URL never count.
 */
export function isAttachmentUrl(candidate: string, server: GitHubServer = GITHUB_COM): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (!server.enterprise) {
    if (url.protocol !== "https:") return false;
    if (url.hostname === "github.com") return url.port === "" && url.pathname.startsWith("/user-attachments/");
    return url.port === "" && GITHUB_COM_USER_IMAGE_HOSTS.includes(url.hostname);
  }
  const web = new URL(server.webOrigin);
  if (url.protocol !== web.protocol || url.port !== web.port) return false;
  if (url.hostname === web.hostname) return url.pathname.startsWith("/user-attachments/") || url.pathname.startsWith("/media/");
  return url.hostname === `media.${web.hostname}`;
}
