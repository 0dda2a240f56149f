/**
 * The Action's marker key (core/markers/signature.ts): every workflow of a repository writes as
 * `github-actions[bot]`, but only a job holding the service's API token can sign a marker. The key
 * is derived from the token (HMAC-SHA256 of a fixed label), so the token itself never keys anything
 * that is posted, and a new token means fresh runs rather than resumed ones.
 *
 * node:crypto is loaded on first use, as lazy-crypto.ts does for @actions/core: a step that reads
 * or writes no marker does not pay for it.
 */
import { createRequire } from "node:module";
import type { MarkerSigner } from "../core/markers/signature.js";

const load = createRequire(import.meta.url);
const crypto = () => load("node:crypto") as typeof import("node:crypto");

const KEY_LABEL = "agent-run-bridge marker signing key v1";

export function createMarkerSigner(apiToken: string): MarkerSigner {
  let key: Buffer | undefined;
  const sign = (content: string): string => {
    key ??= crypto().createHmac("sha256", apiToken).update(KEY_LABEL).digest();
    return crypto().createHmac("sha256", key).update(content).digest("base64url");
  };
  return {
    sign,
    verify(content, signature) {
      const wanted = Buffer.from(sign(content));
      const given = Buffer.from(signature);
      return given.length === wanted.length && crypto().timingSafeEqual(given, wanted);
    },
  };
}
