/**
 * Signed markers, for writers whose login others share. The Action writes as `github-actions[bot]`,
 * and so does every workflow of the repository: the login alone cannot tell the Action's markers from
 * a marker another workflow (or a pull request's workflow) wrote. The Action therefore signs each
 * marker (an HMAC keyed from the service API token, which other workflows do not hold) and believes
 * only markers that verify. The signature closes the marker line:
 *
 *   <!-- agent-run-bridge:run {"v":1,…} sig=<43 base64url characters> -->
 *
 * What is signed is the marker's content (`agent-run-bridge:run {…}`), so the marker's JSON and kind
 * cannot be changed under it. The HMAC itself is the shell's (`MarkerSigner`): core stays free of
 * crypto and I/O. Markers without a signature (the App's, whose login is its own, or those of
 * versions before signing) parse as before; whether to believe them is trust.ts's question.
 */
import { MARKER_NAMESPACE } from "../sanitize-output/safe-markdown.js";

/** HMAC-SHA256 over a marker's content, base64url without padding (43 characters). */
export interface MarkerSigner {
  sign(content: string): string;
  /** Constant-time comparison of `signature` with `sign(content)`. */
  verify(content: string, signature: string): boolean;
}

/** What a signature adds to a marker line: ` sig=` and 43 characters. */
export const MARKER_SIGNATURE_LENGTH = 48;

/** ` sig=…` before a marker's closing `-->`; read.ts's patterns accept it. */
export const MARKER_SIGNATURE_SUFFIX = " sig=[A-Za-z0-9_-]{43}";

// One marker line: its content (kind and optional JSON), an optional signature, the closing.
const MARKER_LINE = new RegExp(`^<!-- (${MARKER_NAMESPACE}:[a-z_]+(?: \\{[^\\n]*\\})?)(?: sig=([A-Za-z0-9_-]{43}))? -->[ \\t]*$`, "m");

/** The body with its marker line signed (an earlier signature replaced); a body without a marker is returned as is. */
export function signMarkers(body: string, signer: MarkerSigner): string {
  return body.replace(MARKER_LINE, (_line, content: string) => `<!-- ${content} sig=${signer.sign(content)} -->`);
}

/** Whether the body's marker line carries a signature that verifies. */
export function hasValidMarkerSignature(body: string | null | undefined, signer: MarkerSigner): boolean {
  const line = body ? MARKER_LINE.exec(body) : null;
  return line !== null && line[2] !== undefined && signer.verify(line[1]!, line[2]);
}

/** `signMarkers` for a writer that may not sign (the App): the body unchanged without a signer. */
export function withMarkerSignature(body: string, signer: MarkerSigner | undefined): string {
  return signer ? signMarkers(body, signer) : body;
}

/** The body as it was before `signMarkers` (comparing what was posted with what would be posted now). */
export function withoutMarkerSignature(body: string): string {
  return body.replace(MARKER_LINE, (_line, content: string) => `<!-- ${content} -->`);
}
