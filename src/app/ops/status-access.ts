/**
 * Who may see the operators' views (`GET /status`, `GET /healthz?verbose`): the holder of
 * STATUS_TOKEN, shown as `Authorization: Bearer …`, or a browser that signed in once through the
 * page's form. Never `?token=`: a query string ends up in access logs, proxies and browser history.
 *
 * The cookie holds an HMAC of the token (so the token itself is never stored in the browser, and a
 * new token signs everyone out), and is HttpOnly and SameSite=Strict: no script reads it and no
 * other site's page sends it.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { operatorPageHeaders, styleElement } from "./page-headers.js";

const STATUS_COOKIE = "agent_run_status";
/** A browser stays signed in for 12 hours. */
const COOKIE_MAX_AGE_S = 12 * 60 * 60;
/** A sign-in form is a few hundred bytes; anything much bigger is not one. */
const FORM_LIMIT_BYTES = 4_096;

/** What a request showed: the right token (or its cookie), none at all, or a wrong one (the throttle counts those). */
export type Access = "granted" | "absent" | "wrong";

/**
 * Equal in constant time, whatever the lengths: both sides are hashed first, so the comparison
 * always runs over 32 bytes and its time tells nothing of the secret's length or its first bytes.
 */
function sameSecret(given: string, wanted: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(wanted));
}

function judged(given: string | null, wanted: string): Access {
  if (given === null) return "absent";
  return sameSecret(given, wanted) ? "granted" : "wrong";
}
/** The cookie's value for a token. */
function statusCookieValue(token: string): string {
  return createHmac("sha256", token).update("agent-run-bridge status sign-in v1").digest("base64url");
}

function bearerOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization ?? "";
  return header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : null;
}

function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}

/** A bearer token compared in constant time (also what guards `/metrics` with METRICS_TOKEN). */
export function bearerAccess(req: IncomingMessage, expected: string): Access {
  return judged(bearerOf(req), expected);
}

/**
 * The bearer of STATUS_TOKEN, or a browser holding the sign-in cookie (a bearer, when sent, decides).
 * A cookie that does not match counts as none, not as a wrong guess: it is what every browser holds
 * after the token changed, and guessing a 256-bit HMAC is hopeless anyway.
 */
export function statusAccess(req: IncomingMessage, token: string): Access {
  const bearer = bearerAccess(req, token);
  if (bearer !== "absent") return bearer;
  return judged(cookieOf(req, STATUS_COOKIE), statusCookieValue(token)) === "granted" ? "granted" : "absent";
}

/** Whether the browser reached us over TLS (directly, or through a proxy that says so): the cookie is then `Secure`. */
function overTls(req: IncomingMessage): boolean {
  const forwarded = req.headers["x-forwarded-proto"];
  return (
    (req.socket as { encrypted?: boolean }).encrypted === true ||
    (typeof forwarded === "string" && forwarded.split(",")[0]!.trim() === "https")
  );
}

const SIGN_IN_STYLE = `
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 1rem; max-width: 28rem; color: #1f2328; }
  h1 { font-size: 1.3rem; } input, button { font: inherit; padding: .4rem; } input { width: 100%; box-sizing: border-box; }
  .problem { color: #d1242f; } .meta { color: #59636e; }
`;
const SIGN_IN_HEADERS = operatorPageHeaders(SIGN_IN_STYLE);

const SIGN_IN_PAGE = (problem: string | null) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>agent-run-bridge status: sign in</title>
${styleElement(SIGN_IN_STYLE)}
</head>
<body>
<h1>agent-run-bridge status</h1>
${problem ? `<p class="problem">${problem}</p>\n` : ""}<form method="post" action="/status">
<p><label for="token">Status token (STATUS_TOKEN)</label><br><input id="token" name="token" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
<p class="meta">Scripts and tools can send the token as <code>Authorization: Bearer …</code> instead.</p>
</body>
</html>
`;

/** 401 with the sign-in form (scripts read the `www-authenticate` header). */
export function answerSignIn(res: ServerResponse, problem: string | null = null): void {
  res.writeHead(401, { ...SIGN_IN_HEADERS, "www-authenticate": 'Bearer realm="status"' }).end(SIGN_IN_PAGE(problem));
}

/** 429 to a client that presented too many wrong tokens: the form says when it may try again. */
export function answerSignInLater(res: ServerResponse, waitS: number): void {
  res
    .writeHead(429, { ...SIGN_IN_HEADERS, "retry-after": String(waitS) })
    .end(SIGN_IN_PAGE(`Too many wrong tokens from your address: try again in ${waitS} s.`));
}

function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= FORM_LIMIT_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(bytes <= FORM_LIMIT_BYTES ? new URLSearchParams(Buffer.concat(chunks).toString("utf8")) : null));
    req.on("error", () => resolve(null));
  });
}

/**
 * Whether a browser sent the sign-in from another site's page (`Sec-Fetch-Site`, which browsers set
 * themselves and no page can change). A proxy in front of the App cannot confuse it as it would an
 * `Origin` compared with a rewritten `Host`; tools that send no such header are not browsers.
 */
function fromAnotherSite(req: IncomingMessage): boolean {
  const site = req.headers["sec-fetch-site"];
  return typeof site === "string" && site !== "same-origin" && site !== "none";
}

/** The token a `POST /status` carries, or null when it carries none; `cross_site` when another site's page posted it. */
export async function signInAttempt(req: IncomingMessage): Promise<{ given: string | null } | "cross_site"> {
  if (fromAnotherSite(req)) return "cross_site";
  const form = (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded") ? await readForm(req) : null;
  const given = form?.get("token")?.trim();
  return { given: given ? given : null };
}

/** Whether a sign-in's token is the status token. */
export function signInAccess(given: string | null, token: string): Access {
  return judged(given, token);
}

/** 403 to a sign-in posted from another site (a page that would use an operator's browser to guess). */
export function answerCrossSiteSignIn(res: ServerResponse): void {
  res
    .writeHead(403, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" })
    .end("The status page's sign-in takes forms from its own page only.\n");
}

/**
 * The right token from the sign-in form: the cookie is set and the browser sent back to
 * `GET /status` (303, so a reload does not post the token again).
 */
export function answerSignedIn(req: IncomingMessage, res: ServerResponse, token: string): void {
  const attributes = ["Path=/", "HttpOnly", "SameSite=Strict", `Max-Age=${COOKIE_MAX_AGE_S}`, ...(overTls(req) ? ["Secure"] : [])];
  res
    .writeHead(303, {
      location: "/status",
      "set-cookie": `${STATUS_COOKIE}=${statusCookieValue(token)}; ${attributes.join("; ")}`,
      "cache-control": "no-store",
    })
    .end();
}
