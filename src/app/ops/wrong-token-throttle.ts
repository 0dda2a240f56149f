/**
 * Wrong tokens cost time: each client (ops/client-address.ts) may present a handful of wrong tokens
 * a minute to the operators' views (`/status`, its sign-in form, `/healthz?verbose`, `/metrics`);
 * after that every request of that client there is answered 429 with `Retry-After` until its minute
 * is over, whether its token is right or not (else the 429s would tell a right guess from a wrong one).
 *
 * The memory is bounded: at most `maxClients` clients are remembered, in the order their minute
 * started, so the one forgotten first when a flood of addresses fills it is the one closest to being
 * forgiven anyway. Per replica: behind a load balancer over `n` replicas a client gets `n` allowances.
 */

export interface WrongTokenRule {
  /** Wrong tokens a client may present per window before it is turned away. */
  allowance: number;
  windowMs: number;
  maxClients: number;
}

export const WRONG_TOKEN_RULE: WrongTokenRule = { allowance: 5, windowMs: 60_000, maxClients: 10_000 };

interface ClientRecord {
  windowStartedAt: number;
  wrong: number;
}

export class WrongTokenThrottle {
  private readonly clients = new Map<string, ClientRecord>();

  constructor(
    private readonly rule: WrongTokenRule = WRONG_TOKEN_RULE,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long the client must wait before it is heard again; 0 = now. */
  waitMs(client: string): number {
    const record = this.current(client);
    if (record === undefined || record.wrong < this.rule.allowance) return 0;
    return record.windowStartedAt + this.rule.windowMs - this.now();
  }

  /** The client presented a wrong token. */
  wrong(client: string): void {
    const record = this.current(client);
    if (record !== undefined) {
      record.wrong += 1;
      return;
    }
    this.forgetExpired();
    if (this.clients.size >= this.rule.maxClients) this.clients.delete(this.clients.keys().next().value!);
    this.clients.set(client, { windowStartedAt: this.now(), wrong: 1 });
  }

  /** The client presented the right token: its earlier typos are forgiven. */
  right(client: string): void {
    this.clients.delete(client);
  }

  /** Clients remembered (bounded by the rule's `maxClients`). */
  get size(): number {
    return this.clients.size;
  }

  private current(client: string): ClientRecord | undefined {
    const record = this.clients.get(client);
    if (record === undefined || this.now() < record.windowStartedAt + this.rule.windowMs) return record;
    this.clients.delete(client);
    return undefined;
  }

  /** Drops the clients whose window is over, oldest first; stops at the first one still counting. */
  private forgetExpired(): void {
    const now = this.now();
    for (const [client, record] of this.clients) {
      if (now < record.windowStartedAt + this.rule.windowMs) return;
      this.clients.delete(client);
    }
  }
}
