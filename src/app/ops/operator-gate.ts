/**
 * The door of every operators' view: a client that presented too many wrong tokens is turned away
 * before its token is even compared (ops/wrong-token-throttle.ts), and what it shows now is counted.
 */
import type { IncomingMessage } from "node:http";
import { clientKeyOf, compileTrustProxy } from "./client-address.js";
import type { Access } from "./status-access.js";
import { WrongTokenThrottle, type WrongTokenRule } from "./wrong-token-throttle.js";

/** `turnedAway`: the client must wait `waitS` seconds (the `Retry-After` of its 429). */
type GateVerdict = { access: Access } | { turnedAway: true; waitS: number };

/** What a view asks the gate: judge this check for the request at hand. */
export type Guard = (check: () => Access) => GateVerdict;

export interface OperatorGate {
  /**
   * Asks `check` for this request's access unless its client is turned away, and counts a wrong
   * token. Synchronous on purpose: the count and the comparison happen in one turn, so a client's
   * parallel requests cannot all pass the check before the first wrong one is counted.
   */
  judge(req: IncomingMessage, check: () => Access): GateVerdict;
}

export function createOperatorGate(trustProxy: number | readonly string[], rule?: WrongTokenRule): OperatorGate {
  const trust = compileTrustProxy(trustProxy);
  const throttle = new WrongTokenThrottle(rule);
  return {
    judge(req, check) {
      const client = clientKeyOf(req, trust);
      const waitMs = throttle.waitMs(client);
      if (waitMs > 0) return { turnedAway: true, waitS: Math.ceil(waitMs / 1000) };
      const access = check();
      if (access === "wrong") throttle.wrong(client);
      if (access === "granted") throttle.right(client);
      return { access };
    },
  };
}
