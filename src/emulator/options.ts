/** Emulator options: validated once, with their defaults filled in. */
import { z } from "zod";
import { completeScript, DEFAULT_RUN_SCRIPT } from "./scripts.js";
import type { ResolvedScript } from "./scripts.js";
import type { EmulatorOptions, StatusVocabulary } from "./types.js";

export const DEFAULT_TOKEN = "emulator-token";
export const DEFAULT_ORG_ID = 1;
export const DEFAULT_SEED = 0x5eed;

const EmulatorOptionsSchema = z.strictObject({
  host: z.string().min(1, { error: "host must not be empty" }).optional(),
  port: z.number().int().min(0).max(65_535, { error: "port must be between 0 and 65535" }).optional(),
  publicUrl: z.url({ protocol: /^https?$/, error: "publicUrl must be an http(s) URL such as http://127.0.0.1:4010" }).optional(),
  tokens: z
    .array(
      z.strictObject({
        token: z.string().min(1, { error: "a token must not be empty" }),
        orgIds: z.array(z.number().int({ error: "orgIds must be integers" })),
      }),
    )
    .min(1, { error: "tokens must list at least one token" })
    .optional(),
  timeScale: z.number().positive({ error: "timeScale must be a positive number (1 = real time, 0.01 = 100× faster)" }).optional(),
  statusVocabulary: z.enum(["spec", "deployment"], { error: "statusVocabulary must be spec or deployment" }).optional(),
  defaultScript: z.record(z.string(), z.unknown()).optional(),
  rateLimits: z.boolean().optional(),
  retryAfterHeader: z.boolean().optional(),
  logger: z.boolean().optional(),
  seed: z.number().int({ error: "seed must be an integer" }).optional(),
});

export interface ResolvedOptions {
  host: string;
  port: number;
  publicUrl?: string;
  tokens: Array<{ token: string; orgIds: number[] }>;
  timeScale: number;
  statusVocabulary: StatusVocabulary;
  defaultScript: ResolvedScript;
  rateLimits: boolean;
  retryAfterHeader: boolean;
  logger: boolean;
  seed: number;
}

/** Throws a RangeError that names every bad option. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const parsed = EmulatorOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new RangeError(
      `invalid emulator options: ${parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; ")}`,
    );
  }
  const { match: _match, times: _times, ...defaultScript } = options.defaultScript ?? {};
  return {
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    publicUrl: options.publicUrl?.replace(/\/+$/, ""),
    tokens: options.tokens ?? [{ token: DEFAULT_TOKEN, orgIds: [DEFAULT_ORG_ID] }],
    timeScale: options.timeScale ?? 1,
    statusVocabulary: options.statusVocabulary ?? "spec",
    defaultScript: completeScript(defaultScript, DEFAULT_RUN_SCRIPT),
    rateLimits: options.rateLimits ?? true,
    retryAfterHeader: options.retryAfterHeader ?? false,
    logger: options.logger ?? false,
    seed: options.seed ?? DEFAULT_SEED,
  };
}
