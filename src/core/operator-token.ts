/**
 * How strong a token guarding the operators' views (STATUS_TOKEN, METRICS_TOKEN) must be. Both are
 * compared on every request to whatever a client sends, so a short or one-kind token is a password
 * an attacker can guess; the App refuses to start with one instead of serving it.
 */

const MIN_OPERATOR_TOKEN_LENGTH = 32;

/**
 * Commands whose output passes the rule: 64 hexadecimal characters (digits and letters; all 64 of one
 * kind has a chance below 1 in 10^13), or 43 base64url characters.
 */
export const MAKE_OPERATOR_TOKEN =
  "make one with `openssl rand -hex 32` or `node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"`";

const CHARACTER_CLASSES: ReadonlyArray<RegExp> = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];

/** How many of lower-case letters, upper-case letters, digits and other characters the token uses. */
function characterClassesIn(token: string): number {
  return CHARACTER_CLASSES.filter((kind) => kind.test(token)).length;
}

/**
 * Why the token is too weak to guard anything, in words that never quote it; null when it is strong
 * enough: at least MIN_OPERATOR_TOKEN_LENGTH characters, of at least two kinds.
 */
export function operatorTokenWeakness(token: string): string | null {
  const length = [...token].length;
  if (length < MIN_OPERATOR_TOKEN_LENGTH) return `is ${length} characters long; it must have at least ${MIN_OPERATOR_TOKEN_LENGTH}`;
  if (characterClassesIn(token) < 2) return "uses one kind of character only; it must mix at least two of letters, digits and symbols";
  return null;
}
