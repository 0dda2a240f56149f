/**
 * Who may see the operators' views (`GET /status`, `GET /healthz?verbose`): the holder of
 * STATUS_TOKEN, shown as `Authorization: Bearer …`, or a browser that signed in once through the
 * page's form. Never `?token=`: a query string ends up in access logs, proxies and browser history.
 *
 * The cookie holds an HMAC of the token (so the token itself is never stored in the browser, and a
 * new token signs everyone out), and is HttpOnly and SameSite=Strict: no script reads it and no
 * other site's page sends it.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

const STATUS_COOKIE = "agent_run_status";
/** A browser stays signed in for 12 hours. */
const COOKIE_MAX_AGE_S = 12 * 60 * 60;
/** A sign-in form is a few hundred bytes; anything much bigger is not one. */
const FORM_LIMIT_BYTES = 4_096;

function sameText(given: string, wanted: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(wanted);
  return a.length === b.length && timingSafeEqual(a, b);
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
export function hasBearer(req: IncomingMessage, expected: string): boolean {
  return sameText(bearerOf(req) ?? "", expected);
}

/** The bearer of STATUS_TOKEN, or a browser holding the sign-in cookie; false when no token is set. */
export function hasStatusAccess(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return false;
  if (hasBearer(req, token)) return true;
  const cookie = cookieOf(req, STATUS_COOKIE);
  return cookie !== null && sameText(cookie, statusCookieValue(token));
}

/** Whether the browser reached us over TLS (directly, or through a proxy that says so): the cookie is then `Secure`. */
function overTls(req: IncomingMessage): boolean {
  const forwarded = req.headers["x-forwarded-proto"];
  return (
    (req.socket as { encrypted?: boolean }).encrypted === true ||
    (typeof forwarded === "string" && forwarded.split(",")[0]!.trim() === "https")
  );
}

const SIGN_IN_PAGE = (problem: string | null) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>agent-run-bridge status: sign in</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 1rem; max-width: 28rem; color: #1f2328; }
  h1 { font-size: 1.3rem; } input, button { font: inherit; padding: .4rem; } input { width: 100%; box-sizing: border-box; }
  .problem { color: #d1242f; } .meta { color: #59636e; }
</style>
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
  res
    .writeHead(401, {
      "content-type": "text/html; charset=utf-8",
      "www-authenticate": 'Bearer realm="status"',
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    })
    .end(SIGN_IN_PAGE(problem));
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
 * `POST /status` from the sign-in form: the right token sets the cookie and sends the browser back
 * to `GET /status` (303, so a reload does not post the token again); a wrong one shows the form again.
 */
export async function signIn(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
  const form = (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded") ? await readForm(req) : null;
  const given = form?.get("token") ?? null;
  if (given === null || !sameText(given.trim(), token)) return answerSignIn(res, "That is not the status token.");
  const attributes = ["Path=/", "HttpOnly", "SameSite=Strict", `Max-Age=${COOKIE_MAX_AGE_S}`, ...(overTls(req) ? ["Secure"] : [])];
  res
    .writeHead(303, {
      location: "/status",
      "set-cookie": `${STATUS_COOKIE}=${statusCookieValue(token)}; ${attributes.join("; ")}`,
      "cache-control": "no-store",
    })
    .end();
}
