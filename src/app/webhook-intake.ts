/**
 * What the webhook endpoint accepts before Probot sees a delivery: a body of at most 25 MiB (GitHub
 * never sends more), refused by its `content-length` before a byte is read and by counting while it
 * streams (chunked bodies have no length), and a valid `x-hub-signature-256`. A refused or forged
 * delivery is answered here and logged in one line without its payload. A signed body the App
 * cannot use (nested too deep, too many entries, not a JSON object, or without the fields and the
 * installation the App reads: core/events/delivery-payload.ts) gets 422 the same way, before anything
 * parses it into objects that Probot would copy or log. Only a signed, usable body is handed on (as
 * `req.body`, which Probot's middleware reads instead of the stream). Bodies not yet
 * verified share one allowance of memory (`UnverifiedBytes`): anyone can send them, and a few dozen
 * senders each streaming 25 MiB at once would otherwise hold gigabytes.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
// A signed delivery the App cannot use gets 422, not 400 (what an unsigned or forged one gets, which a rotated secret
// can explain and a redelivery then fix): the same body would be refused again, so delivery recovery never asks
// GitHub to send a delivery answered 422 again.
import { UNUSABLE_DELIVERY_STATUS } from "../core/delivery-recovery.js";
import { judgeDeliveryPayload, type UnusablePayloadCode } from "../core/events/delivery-payload.js";

/** GitHub caps webhook payloads at 25 MB; anything bigger did not come from GitHub. */
export const WEBHOOK_BODY_LIMIT_BYTES = 25 * 1024 * 1024;

/**
 * The body bytes of every delivery not yet verified, together: room for two at GitHub's cap, or for
 * thousands of ordinary deliveries (tens of KB). Past it a sender is answered 503: GitHub records the
 * delivery as failed, and the App's recovery sweep has it sent again.
 */
export const UNVERIFIED_BYTES_LIMIT = 2 * WEBHOOK_BODY_LIMIT_BYTES + 1024 * 1024;

/** How long a refused sender's bytes still in flight are read and dropped before its connection closes. */
const LINGER_MS = 2_000;

/** Why a delivery was refused, as logged. */
type RefusalReason =
  "body_too_large" | "signature_missing" | "signature_mismatch" | "body_unreadable" | "intake_busy" | UnusablePayloadCode;

export interface RefusedDelivery {
  reason: RefusalReason;
  status: number;
  /** `x-github-delivery` and `x-github-event`, as sent (they are not proof of anything). */
  delivery: string | null;
  event: string | null;
  /** Bytes announced by `content-length`, or read before the refusal. */
  bytes: number;
  remoteAddress: string | null;
  /** For a payload the App cannot use: which fields, and what kind of value each had (never the value). */
  problems?: string[];
}

/** One App server's allowance for unverified body bytes, shared by all its requests. */
export interface UnverifiedBytes {
  /** Whether `bytes` more fit; if so they are counted until given back. */
  take(bytes: number): boolean;
  giveBack(bytes: number): void;
}

export function unverifiedBytesAllowance(limitBytes: number = UNVERIFIED_BYTES_LIMIT): UnverifiedBytes {
  let held = 0;
  return {
    take(bytes) {
      if (held + bytes > limitBytes) return false;
      held += bytes;
      return true;
    },
    giveBack(bytes) {
      held = Math.max(0, held - bytes);
    },
  };
}

export interface WebhookIntakeOptions {
  secret: string;
  /**
   * The secret before a rotation (WEBHOOK_SECRET_PREVIOUS), also accepted. Probot checks the
   * signature again with `secret` only, so a body signed with this one is handed on re-signed
   * with `secret`: it was verified here, which is what the header then says.
   */
  previousSecret?: string | undefined;
  limitBytes?: number;
  unverified: UnverifiedBytes;
  /** The events the App acts on: a signed payload of one of them must carry the fields the App reads. */
  actsOn: ReadonlySet<string>;
  /** Called once per refused delivery; the payload is never passed on. */
  onRefused: (refusal: RefusedDelivery) => void;
}

const MESSAGES: Record<Exclude<RefusalReason, UnusablePayloadCode>, string> = {
  body_too_large: `A webhook body is at most ${WEBHOOK_BODY_LIMIT_BYTES} bytes (GitHub's cap).`,
  signature_missing: "The x-hub-signature-256 header is missing.",
  signature_mismatch: "The signature does not match the body and the App's webhook secret.",
  body_unreadable: "The request body could not be read.",
  intake_busy: "Too many webhook bodies are being received at once: try again shortly.",
};

const REFUSAL_STATUS = { body_too_large: 413, intake_busy: 503, body_unreadable: 400 } as const;

/** What @octokit/webhooks takes as JSON; it answers 415 to any other content type. */
const JSON_CONTENT_TYPE = /^\s*application\/json\s*(?:;|$)/u;

/** Trailing slashes off, as Probot's middleware reads its path (`/api/github/webhooks/` is the webhook path too). */
function withoutTrailingSlashes(path: string): string {
  return path.replace(/\/+$/, "") || "/";
}

/** Whether Probot's middleware would take this request URL as the webhook path. */
export function isWebhookPath(url: string | undefined, webhookPath: string): boolean {
  try {
    return new URL(withoutTrailingSlashes(url ?? "/"), "http://localhost").pathname === withoutTrailingSlashes(webhookPath);
  } catch {
    return false;
  }
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === "string" ? value.slice(0, 200) : null;
}

const signatureOf = (secret: string, body: Buffer) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** `sha256=<hex>` over the exact body, compared in constant time. */
function signatureMatches(secret: string, body: Buffer, signature: string): boolean {
  const expected = Buffer.from(signatureOf(secret, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type BodyRead = { body: Buffer } | { refusal: "body_too_large" | "intake_busy" | "body_unreadable" };

/**
 * The body, read while counting it against its own limit and the shared allowance; a refusal once
 * either is passed (the request is then answered and its connection closed, without reading the
 * rest). The caller gives back `bytes` of the allowance when it is done with the body.
 */
function readBounded(req: IncomingMessage, limit: number, unverified: UnverifiedBytes): Promise<BodyRead & { bytes: number }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (result: BodyRead) => {
      req.off("data", onData).off("end", onEnd).off("error", onError);
      if (!("body" in result)) {
        chunks.length = 0;
        req.pause();
      }
      resolve({ ...result, bytes });
    };
    const onData = (chunk: Buffer) => {
      if (bytes + chunk.length > limit) return finish({ refusal: "body_too_large" });
      if (!unverified.take(chunk.length)) return finish({ refusal: "intake_busy" });
      bytes += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => finish({ body: Buffer.concat(chunks, bytes) });
    const onError = () => finish({ refusal: "body_unreadable" });
    req.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/**
 * Checks a POST to the webhook path. Resolves true when the request was answered here (refused),
 * false when a signed body of acceptable size is on `req.body` for Probot's middleware.
 */
export async function refuseUnfitDelivery(req: IncomingMessage, res: ServerResponse, options: WebhookIntakeOptions): Promise<boolean> {
  const limit = options.limitBytes ?? WEBHOOK_BODY_LIMIT_BYTES;
  const refuse = (
    reason: RefusalReason,
    status: number,
    bytes: number,
    closeConnection: boolean,
    said: { error: string; problems?: string[] } = { error: MESSAGES[reason as keyof typeof MESSAGES] },
  ): true => {
    options.onRefused({
      reason,
      status,
      delivery: headerOf(req, "x-github-delivery"),
      event: headerOf(req, "x-github-event"),
      bytes,
      remoteAddress: req.socket.remoteAddress ?? null,
      ...(said.problems ? { problems: said.problems } : {}),
    });
    if (res.headersSent) return true;
    res.writeHead(status, { "content-type": "application/json" });
    if (!closeConnection) {
      res.end(JSON.stringify(said));
      return true;
    }
    // The rest of an oversized body is not worth receiving. Closing at once would reset the
    // connection under the answer (the sender still writes): say "done" (FIN), discard what is
    // still in flight for a moment, then close.
    req.resume();
    res.end(JSON.stringify(said), () => {
      req.socket.end();
      setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    });
    return true;
  };

  const announced = Number(req.headers["content-length"] ?? Number.NaN);
  if (announced > limit) return refuse("body_too_large", 413, announced, true);

  const read = await readBounded(req, limit, options.unverified);
  // Verified or refused, the body is no longer held against the allowance.
  options.unverified.giveBack(read.bytes);
  if ("refusal" in read) return refuse(read.refusal, REFUSAL_STATUS[read.refusal], read.bytes, true);

  const signature = headerOf(req, "x-hub-signature-256");
  if (signature === null) return refuse("signature_missing", 400, read.bytes, false);
  if (!signatureMatches(options.secret, read.body, signature)) {
    const previous = options.previousSecret;
    if (previous === undefined || !signatureMatches(previous, read.body, signature))
      return refuse("signature_mismatch", 400, read.bytes, false);
    req.headers["x-hub-signature-256"] = signatureOf(options.secret, read.body);
  }
  const text = read.body.toString("utf8");
  // Another content type is Probot's to refuse (415), before it parses anything.
  if (JSON_CONTENT_TYPE.test(headerOf(req, "content-type") ?? "")) {
    const verdict = judgeDeliveryPayload(headerOf(req, "x-github-event"), read.body, text, options.actsOn);
    if (!verdict.usable) {
      const error = `${verdict.reason} GitHub does not send such a delivery; it is not redelivered.`;
      const said = verdict.problems.length > 0 ? { error, problems: verdict.problems } : { error };
      return refuse(verdict.code, UNUSABLE_DELIVERY_STATUS, read.bytes, false, said);
    }
  }
  (req as IncomingMessage & { body?: string }).body = text;
  return false;
}
