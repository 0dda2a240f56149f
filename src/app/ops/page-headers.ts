/**
 * The headers of every page for operators (`/status` and its sign-in form). The pages carry no
 * script and one inline stylesheet: the policy allows exactly that stylesheet (by its hash) and
 * nothing else, so markup that slipped into a page (a run's step, a repository's name) can neither
 * run nor load anything; no other site may frame them (clickjacking of the sign-in form), the
 * address is not sent on as a referrer, and no cache keeps a copy of what an operator saw.
 */
import { createHash } from "node:crypto";

/** `<style>…</style>` exactly as the page carries it, its text being what the policy's hash covers. */
export function styleElement(css: string): string {
  return `<style>${css}</style>`;
}

export function operatorPageHeaders(css: string): Record<string, string> {
  const styleHash = createHash("sha256").update(css).digest("base64");
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `default-src 'none'; style-src 'sha256-${styleHash}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
}
