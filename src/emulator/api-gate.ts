/**
 * What every API request passes before its route's own checks (api-actions.ts), in order: injected
 * faults → authentication (401) → rate limits (429); and, once its route has answered, the faults
 * drawn to play after the action. Error bodies take the configured style (`errorAnswers`).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorState } from "./control.js";
import type { FaultDecision } from "./faults.js";
import type { LimitedEndpoint } from "./rate-limiter.js";
import type { ErrorStyle } from "./types.js";
import type { ValidationIssue } from "./validation.js";

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Error answers in the configured style: the spec's `{detail}`, or real deployments' `{message, status_code}` and 422. */
export function errorAnswers(style: ErrorStyle) {
  const failure = (status: number, text: string): ApiAnswer => ({
    status,
    body: style === "fastapi" ? { message: text, status_code: status } : { detail: text },
  });
  return {
    failure,
    invalid: (detail: ValidationIssue[]): ApiAnswer => ({ status: style === "fastapi" ? 422 : 400, body: { detail } }),
    notFound: (runId: number) => failure(404, style === "fastapi" ? "Agent run not found." : `agent run ${runId} not found`),
    forbidden: (orgId: number) =>
      failure(403, `this API token has no access to organization ${orgId}: use the organization id the token was issued for`),
  };
}

export type ErrorAnswers = ReturnType<typeof errorAnswers>;

const send = (reply: FastifyReply, result: ApiAnswer): FastifyReply => reply.code(result.status).send(result.body);

/** Who sent a request the gate let through: the organizations its token may use, and the user it acts as. */
export interface Caller {
  orgIds: readonly number[];
  userId: number;
}

function bearerToken(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

export class ApiGate {
  private readonly admitted = new WeakMap<FastifyRequest, Caller & { faults: FaultDecision }>();
  private readonly tokens: ReadonlyMap<string, Caller>;

  constructor(
    private readonly state: EmulatorState,
    private readonly failure: ErrorAnswers["failure"],
  ) {
    this.tokens = new Map(state.options.tokens.map((t, index) => [t.token, { orgIds: t.orgIds, userId: t.userId ?? index + 1 }]));
  }

  /** The shared checks; a request that fails one is answered here (undefined: it goes on to its route). */
  async admit(request: FastifyRequest, reply: FastifyReply, limit: LimitedEndpoint): Promise<FastifyReply | undefined> {
    const decision = this.state.faults.decide();
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    const fault = this.faultBeforeAction(request, reply, decision);
    if (fault) return fault;
    const token = bearerToken(request.headers.authorization);
    const holder = token === undefined ? undefined : this.tokens.get(token);
    if (token === undefined || holder === undefined) return this.unauthorized(reply, token);
    const limited = this.overBudget(reply, token, limit);
    if (limited) return limited;
    this.admitted.set(request, { orgIds: holder.orgIds, userId: holder.userId, faults: decision });
    return undefined;
  }

  /** The caller of a request `admit` let through. */
  callerOf(request: FastifyRequest): Caller {
    return this.admitted.get(request)!;
  }

  /** Sends a route's answer, or instead the after-action fault the request drew. */
  answer(request: FastifyRequest, reply: FastifyReply, result: ApiAnswer): FastifyReply {
    const decision = this.admitted.get(request)?.faults;
    if (decision?.afterAction && decision.drop) return this.dropConnection(request, reply);
    if (decision?.afterAction && decision.serverErrorStatus !== null) return this.serverError(reply, decision.serverErrorStatus);
    return send(reply, result);
  }

  /** A dropped connection, a 5xx or a rate-limit storm drawn to play before the action, if any. */
  private faultBeforeAction(request: FastifyRequest, reply: FastifyReply, decision: FaultDecision): FastifyReply | undefined {
    if (!decision.afterAction && decision.drop) return this.dropConnection(request, reply);
    if (!decision.afterAction && decision.serverErrorStatus !== null) return this.serverError(reply, decision.serverErrorStatus);
    if (!decision.storm) return undefined;
    const retryAfter = decision.storm.retryAfterSeconds;
    const seconds = retryAfter === "default" ? (this.state.options.retryAfterHeader ? 1 : null) : retryAfter;
    return this.tooManyRequests(reply, "too many requests (injected rate-limit storm)", seconds);
  }

  private unauthorized(reply: FastifyReply, token: string | undefined): FastifyReply {
    reply.header("www-authenticate", "Bearer");
    return send(
      reply,
      this.failure(
        401,
        token === undefined
          ? "missing API token: send the header Authorization: Bearer <API token>"
          : "invalid API token: check the token you send in Authorization: Bearer <API token>",
      ),
    );
  }

  /** The 429 for a token over one of its windows, when rate limits are on. */
  private overBudget(reply: FastifyReply, token: string, limit: LimitedEndpoint): FastifyReply | undefined {
    const { options, limiter, clock } = this.state;
    if (!options.rateLimits) return undefined;
    const decided = limiter.tryAcquire(token, limit, clock.now());
    if (decided.allowed) return undefined;
    const realMs = clock.toRealMs(decided.waitMs);
    const seconds = options.retryAfterHeader ? Math.max(1, Math.ceil(realMs / 1000)) : null;
    return this.tooManyRequests(reply, `${decided.window.describe} per API token; retry in ${(realMs / 1000).toFixed(3)} s`, seconds);
  }

  private tooManyRequests(reply: FastifyReply, detail: string, retryAfterSeconds: number | null): FastifyReply {
    if (retryAfterSeconds !== null) reply.header("retry-after", String(retryAfterSeconds));
    return send(reply, this.failure(429, `rate limit exceeded: ${detail}`));
  }

  private dropConnection(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    this.state.stats.droppedConnections += 1;
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }

  private serverError(reply: FastifyReply, status: number): FastifyReply {
    return send(reply, this.failure(status, `the service is temporarily unavailable (injected fault ${status}); try again`));
  }
}
