/**
 * Injected faults for tests and benchmarks: server errors, latency, dropped connections and 429
 * storms. Draws come from a seeded random source, so a test sees the same faults every time.
 */
import * as z from "zod";
import type { Random } from "./random.js";
import type { Faults } from "./types.js";

const share = (name: string) =>
  z
    .number()
    .min(0, { error: `${name} must be between 0 and 1` })
    .max(1, { error: `${name} must be between 0 and 1` });

export const FaultsSchema = z.strictObject({
  serverErrorRate: share("serverErrorRate").optional(),
  serverErrorStatus: z
    .union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)], {
      error: "serverErrorStatus must be 500, 502, 503 or 504",
    })
    .optional(),
  latencyMs: z
    .number()
    .min(0, { error: "latencyMs must be 0 or more" })
    .max(120_000, { error: "latencyMs must be at most 120000" })
    .optional(),
  dropConnectionRate: share("dropConnectionRate").optional(),
  rateLimitStorm: z
    .strictObject({
      count: z.number().int().min(0, { error: "rateLimitStorm.count must be 0 or more" }),
      retryAfterSeconds: z.number().min(0, { error: "rateLimitStorm.retryAfterSeconds must be 0 or more" }).nullable().optional(),
    })
    .optional(),
  afterAction: z.boolean().optional(),
});

export interface FaultDecision {
  latencyMs: number;
  /** Destroy the socket instead of answering. */
  drop: boolean;
  /** Answer with this 5xx status instead. */
  serverErrorStatus: number | null;
  /** Answer 429; Retry-After seconds, or null for no header, or "default" for the emulator's setting. */
  storm: { retryAfterSeconds: number | null | "default" } | null;
  /** Drops and server errors happen after the request took effect. */
  afterAction: boolean;
}

export class FaultInjector {
  private faults: Faults = {};
  private stormLeft = 0;

  constructor(private readonly random: Random) {}

  /** Replaces the active faults. Throws a RangeError naming the bad field. */
  set(faults: Faults): void {
    const parsed = FaultsSchema.safeParse(faults);
    if (!parsed.success) {
      throw new RangeError(`invalid faults: ${parsed.error.issues.map((i) => `${i.path.join(".") || "faults"}: ${i.message}`).join("; ")}`);
    }
    this.faults = parsed.data;
    this.stormLeft = parsed.data.rateLimitStorm?.count ?? 0;
  }

  /** The faults for one API request (consumes one storm answer when a storm is on). */
  decide(): FaultDecision {
    const f = this.faults;
    // Both draws happen on every request, so the sequence does not depend on which faults are on.
    const dropDraw = this.random();
    const errorDraw = this.random();
    let storm: FaultDecision["storm"] = null;
    if (this.stormLeft > 0) {
      this.stormLeft -= 1;
      const retryAfter = f.rateLimitStorm?.retryAfterSeconds;
      storm = { retryAfterSeconds: retryAfter === undefined ? "default" : retryAfter };
    }
    return {
      latencyMs: f.latencyMs ?? 0,
      drop: dropDraw < (f.dropConnectionRate ?? 0),
      serverErrorStatus: errorDraw < (f.serverErrorRate ?? 0) ? (f.serverErrorStatus ?? 503) : null,
      storm,
      afterAction: f.afterAction ?? false,
    };
  }
}
