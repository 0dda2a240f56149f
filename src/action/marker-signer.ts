/**
 * The Action's marker key (core/markers/signature.ts): every workflow of a repository writes as
 * `github-actions[bot]`, but only a job holding the service's API token can sign a marker. The key
 * is derived from the token (HMAC-SHA256 of a fixed label), so the token itself never keys anything
 * that is posted.
 *
 * A rotated token must not turn every marker already posted into a stranger's (threads would start
 * fresh runs instead of resuming, and CI attempts would count from zero): the `previous-api-token`
 * input gives the token before the rotation, whose key still verifies (it never signs; an edited
 * marker is signed again with the current key). A token rotated because it leaked is not passed
 * there: markers signed with it are then not believed, which costs resumes, never trust.
 *
 * node:crypto is loaded on first use, as lazy-crypto.ts does for @actions/core: a step that reads
 * or writes no marker does not pay for it.
 */
import type { MarkerSigner } from "../core/markers/signature.js";

const crypto = () => process.getBuiltinModule("node:crypto");

const KEY_LABEL = "agent-run-bridge marker signing key v1";

const keyOf = (apiToken: string): Buffer => crypto().createHmac("sha256", apiToken).update(KEY_LABEL).digest();
const signWith = (key: Buffer, content: string): string => crypto().createHmac("sha256", key).update(content).digest("base64url");

/** Signs with `apiToken`'s key; verifies with it or with `previousApiToken`'s. */
export function createMarkerSigner(apiToken: string, previousApiToken?: string): MarkerSigner {
  let keys: Buffer[] | undefined;
  const loadKeys = (): Buffer[] => (keys ??= [apiToken, ...(previousApiToken ? [previousApiToken] : [])].map(keyOf));
  const matches = (key: Buffer, content: string, given: Buffer): boolean => {
    const wanted = Buffer.from(signWith(key, content));
    return given.length === wanted.length && crypto().timingSafeEqual(given, wanted);
  };
  return {
    sign: (content) => signWith(loadKeys()[0]!, content),
    verify(content, signature) {
      const given = Buffer.from(signature);
      // Every key is tried, so that the time taken says nothing about which one matched.
      return loadKeys().reduce((found, key) => matches(key, content, given) || found, false);
    },
  };
}
