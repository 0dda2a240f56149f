/**
 * GitHub's side of webhooks: the fake signs and sends deliveries to the App's webhook URL, records
 * each attempt as GitHub does (the App's status code; 0 when it could not connect or got no answer
 * within 10 s), and serves the App's delivery log: `GET /app/hook/deliveries` (newest first, cursor
 * pagination with a Link header), `GET /app/hook/deliveries/{id}`, and `POST …/{id}/attempts`,
 * which sends the same payload again under the same GUID as a new attempt with `redelivery: true`
 * (422 past three days). All three take the App's JWT only.
 */
import { createHmac, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DOCS, notFound, queryOf } from "./http.js";
import { classifyToken } from "./recorder.js";
import { intParam } from "./routes/context.js";
import { isoSeconds, takeId, type FakeGitHubState } from "./state.js";

/** One attempt of one delivery, as `GET /app/hook/deliveries/{id}` shows it. */
export interface FakeHookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  /** Seconds the App took to answer. */
  duration: number;
  status: string;
  /** The App's HTTP status; 0 when GitHub could not connect or timed out. */
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
  throttled_at: string | null;
  request: { headers: Record<string, string>; payload: object };
  response: { headers: Record<string, string>; payload: string | null };
}

/** A past attempt to put in the log without sending anything (an old failure, someone's manual redelivery). */
export interface HookDeliverySeed {
  event: string;
  payload: object;
  guid?: string;
  /** Default: now. */
  deliveredAt?: Date;
  statusCode: number;
  redelivery?: boolean;
}

export interface WebhookTarget {
  url: string;
  secret: string;
}

/** GitHub gives up on an answer after 10 s. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** GitHub redelivers only what it delivered within the past three days. */
const REDELIVERY_WINDOW_MS = 3 * 24 * 60 * 60_000;

export interface WebhookSender {
  readonly deliveries: FakeHookDelivery[];
  target: WebhookTarget | null;
  /** Signs and sends a delivery to the target, records the attempt, and resolves with it. */
  send(event: string, payload: object, options?: { guid?: string; redelivery?: boolean }): Promise<FakeHookDelivery>;
  record(seed: HookDeliverySeed): FakeHookDelivery;
  /** Resolves once every delivery sent so far (redeliveries included) has its answer. */
  settled(): Promise<void>;
}

/** Why an attempt has no status code, in GitHub's words: no connection, or no answer within 10 s. */
type NoAnswer = "failed to connect to host" | "timed out";

function statusText(code: number, noAnswer: NoAnswer): string {
  if (code === 0) return noAnswer;
  return code >= 200 && code < 300 ? "OK" : `Invalid HTTP Response: ${code}`;
}

export function createWebhookSender(state: FakeGitHubState): WebhookSender {
  const deliveries: FakeHookDelivery[] = [];
  const pending = new Set<Promise<unknown>>();

  const attempt = (
    fields: Omit<FakeHookDelivery, "id" | "status" | "action" | "installation_id" | "repository_id" | "throttled_at">,
    noAnswer: NoAnswer = "failed to connect to host",
  ) => {
    const payload = fields.request.payload as { action?: unknown; installation?: { id?: unknown }; repository?: { id?: unknown } };
    const delivery: FakeHookDelivery = {
      ...fields,
      id: takeId(state),
      status: statusText(fields.status_code, noAnswer),
      action: typeof payload.action === "string" ? payload.action : null,
      installation_id: typeof payload.installation?.id === "number" ? payload.installation.id : null,
      repository_id: typeof payload.repository?.id === "number" ? payload.repository.id : null,
      throttled_at: null,
    };
    deliveries.push(delivery);
    return delivery;
  };

  const sender: WebhookSender = {
    deliveries,
    target: null,
    send(event, payload, options = {}) {
      const guid = options.guid ?? randomUUID();
      const body = JSON.stringify(payload);
      const target = sender.target;
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "user-agent": "GitHub-Hookshot/fake",
        "x-github-event": event,
        "x-github-delivery": guid,
        "x-github-hook-installation-target-type": "integration",
        "x-hub-signature-256": `sha256=${createHmac("sha256", target?.secret ?? "")
          .update(body)
          .digest("hex")}`,
      };
      const deliveredAt = state.now();
      const started = performance.now();
      const sending = (async () => {
        let statusCode = 0;
        let responseHeaders: Record<string, string> = {};
        let responseBody: string | null = null;
        let noAnswer: NoAnswer = "failed to connect to host";
        if (target) {
          try {
            const response = await fetch(target.url, { method: "POST", headers, body, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
            responseBody = await response.text();
            statusCode = response.status;
            responseHeaders = Object.fromEntries(response.headers);
          } catch (error) {
            statusCode = 0;
            if (error instanceof Error && error.name === "TimeoutError") noAnswer = "timed out";
          }
        }
        return attempt(
          {
            guid,
            delivered_at: isoSeconds(deliveredAt),
            redelivery: options.redelivery ?? false,
            duration: Math.round(performance.now() - started) / 1000,
            status_code: statusCode,
            event,
            request: { headers, payload },
            response: { headers: responseHeaders, payload: responseBody },
          },
          noAnswer,
        );
      })();
      pending.add(sending);
      void sending.finally(() => pending.delete(sending));
      return sending;
    },
    record(seed) {
      return attempt({
        guid: seed.guid ?? randomUUID(),
        delivered_at: isoSeconds(seed.deliveredAt ?? state.now()),
        redelivery: seed.redelivery ?? false,
        duration: 0.05,
        status_code: seed.statusCode,
        event: seed.event,
        request: { headers: { "x-github-event": seed.event }, payload: seed.payload },
        response: { headers: {}, payload: null },
      });
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
  return sender;
}

/** The list item: everything but the request and the response. */
function listItem({ request: _request, response: _response, ...item }: FakeHookDelivery) {
  return item;
}

/** Newest first: by delivery time, then by id (a later attempt has a higher id). */
function newestFirst(a: FakeHookDelivery, b: FakeHookDelivery): number {
  return Date.parse(b.delivered_at) - Date.parse(a.delivered_at) || b.id - a.id;
}

/** `v1_<ms>_<id>`: the next page starts after this attempt in newest-first order. */
function cursorOf(delivery: FakeHookDelivery): string {
  return `v1_${Date.parse(delivery.delivered_at)}_${delivery.id}`;
}

function afterCursor(cursor: string | undefined): (delivery: FakeHookDelivery) => boolean {
  const match = /^v1_(\d+)_(\d+)$/.exec(cursor ?? "");
  if (!match) return () => true;
  const at = Number(match[1]);
  const id = Number(match[2]);
  return (d) => Date.parse(d.delivered_at) < at || (Date.parse(d.delivered_at) === at && d.id < id);
}

/** The deliveries API takes the App's JWT only (an installation token is not "the App"). */
function requireAppJwt(request: FastifyRequest, reply: FastifyReply): boolean {
  if (classifyToken(request.headers.authorization).kind === "app_jwt") return true;
  void reply.code(401).send({ message: "A JSON web token could not be decoded", documentation_url: DOCS, status: "401" });
  return false;
}

export function registerHookDeliveryRoutes(
  app: FastifyInstance,
  context: { state: FakeGitHubState; api: () => string },
  sender: WebhookSender,
): void {
  app.get("/app/hook/deliveries", async (request, reply) => {
    if (!requireAppJwt(request, reply)) return reply;
    const query = queryOf(request);
    const perPageRaw = Number.parseInt(query.per_page ?? "", 10);
    const perPage = Number.isFinite(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, 100) : 30;
    const rest = [...sender.deliveries].sort(newestFirst).filter(afterCursor(query.cursor));
    const page = rest.slice(0, perPage);
    if (rest.length > perPage) {
      const params = new URLSearchParams({ per_page: String(perPage), cursor: cursorOf(page.at(-1)!) });
      reply.header("link", `<${context.api()}/app/hook/deliveries?${params.toString()}>; rel="next"`);
    }
    return page.map(listItem);
  });

  const deliveryOf = (request: FastifyRequest) => {
    const id = intParam((request.params as { delivery_id: string }).delivery_id);
    return sender.deliveries.find((d) => d.id === id);
  };

  app.get("/app/hook/deliveries/:delivery_id", async (request, reply) => {
    if (!requireAppJwt(request, reply)) return reply;
    const delivery = deliveryOf(request);
    return delivery ?? notFound(reply);
  });

  app.post("/app/hook/deliveries/:delivery_id/attempts", async (request, reply) => {
    if (!requireAppJwt(request, reply)) return reply;
    const delivery = deliveryOf(request);
    if (!delivery) return notFound(reply);
    if (context.state.now().getTime() - Date.parse(delivery.delivered_at) > REDELIVERY_WINDOW_MS) {
      return reply.code(422).send({
        message: "Validation Failed",
        errors: [{ resource: "HookDelivery", code: "custom", message: "Cannot redeliver deliveries older than 3 days" }],
        documentation_url: DOCS,
        status: "422",
      });
    }
    // Sent in the background, as GitHub queues it; `settled()` waits for it.
    void sender.send(delivery.event, delivery.request.payload, { guid: delivery.guid, redelivery: true });
    return reply.code(202).send({});
  });
}
