/** Emulator options: validated once, with their defaults filled in. */
import * as z from "zod";
import { NO_OTHER_RUNS, OtherRunsSchema, resolveOtherRuns, type OtherRunsSetting } from "./other-runs.js";
import { completeScript, DEFAULT_RUN_SCRIPT } from "./scripts.js";
import type { ResolvedScript } from "./scripts.js";
import type { EmulatedRepository, EmulatorOptions, ErrorStyle, OptionalEndpoints, StatusVocabulary } from "./types.js";

export const DEFAULT_TOKEN = "emulator-token";
export const DEFAULT_ORG_ID = 1;
const DEFAULT_SEED = 0x5eed;

export const EndpointsSchema = z.strictObject({
  logs: z.array(z.enum(["spec", "alpha"], { error: "endpoints.logs lists spec and/or alpha" })).optional(),
  listRuns: z.boolean().optional(),
  listRepositories: z.boolean().optional(),
});

export const RepositoriesSchema = z.array(
  z.strictObject({
    id: z.number().int().positive({ error: "a repository id must be a positive integer" }),
    full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/, { error: "full_name must look like owner/name" }),
    name: z.string().min(1).optional(),
    github_id: z.number().int().positive().nullable().optional(),
    orgId: z.number().int().optional(),
  }),
);

export const ResumeWhileRunningSchema = z.enum(["interrupt", "reject"], { error: "resumeWhileRunning must be interrupt or reject" });

const EmulatorOptionsSchema = z.strictObject({
  host: z.string().min(1, { error: "host must not be empty" }).optional(),
  port: z.number().int().min(0).max(65_535, { error: "port must be between 0 and 65535" }).optional(),
  publicUrl: z.url({ protocol: /^https?$/, error: "publicUrl must be an http(s) URL such as http://127.0.0.1:4010" }).optional(),
  tokens: z
    .array(
      z.strictObject({
        token: z.string().min(1, { error: "a token must not be empty" }),
        orgIds: z.array(z.number().int({ error: "orgIds must be integers" })),
        userId: z.number().int().positive({ error: "userId must be a positive integer" }).optional(),
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
  errorStyle: z.enum(["spec", "fastapi"], { error: "errorStyle must be spec or fastapi" }).optional(),
  endpoints: EndpointsSchema.optional(),
  repositories: RepositoriesSchema.optional(),
  otherRuns: OtherRunsSchema.optional(),
  resumeWhileRunning: ResumeWhileRunningSchema.optional(),
});

export interface ResolvedOptions {
  host: string;
  port: number;
  publicUrl?: string;
  tokens: Array<{ token: string; orgIds: number[]; userId?: number }>;
  timeScale: number;
  statusVocabulary: StatusVocabulary;
  defaultScript: ResolvedScript;
  rateLimits: boolean;
  retryAfterHeader: boolean;
  logger: boolean;
  seed: number;
  errorStyle: ErrorStyle;
  endpoints: OptionalEndpoints;
  repositories: ResolvedRepository[];
  otherRuns: OtherRunsSetting;
  resumeWhileRunning: "interrupt" | "reject";
}

export type ResolvedRepository = Required<Omit<EmulatedRepository, "github_id">> & { github_id: number | null };

const DEFAULT_ENDPOINTS: OptionalEndpoints = { logs: ["spec", "alpha"], listRuns: true, listRepositories: true };

/** Fills in a repository's defaults (its name, its organization). */
export function completeRepository(repository: EmulatedRepository, defaultOrgId: number): ResolvedRepository {
  return {
    id: repository.id,
    full_name: repository.full_name,
    name: repository.name ?? repository.full_name.split("/")[1]!,
    github_id: repository.github_id ?? null,
    orgId: repository.orgId ?? defaultOrgId,
  };
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
  const tokens = options.tokens ?? [{ token: DEFAULT_TOKEN, orgIds: [DEFAULT_ORG_ID] }];
  const defaultOrgId = tokens[0]?.orgIds[0] ?? DEFAULT_ORG_ID;
  return {
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    publicUrl: options.publicUrl?.replace(/\/+$/, ""),
    tokens,
    timeScale: options.timeScale ?? 1,
    statusVocabulary: options.statusVocabulary ?? "spec",
    defaultScript: completeScript(defaultScript, DEFAULT_RUN_SCRIPT),
    rateLimits: options.rateLimits ?? true,
    retryAfterHeader: options.retryAfterHeader ?? false,
    logger: options.logger ?? false,
    seed: options.seed ?? DEFAULT_SEED,
    errorStyle: options.errorStyle ?? "spec",
    endpoints: { ...DEFAULT_ENDPOINTS, ...definedFields(options.endpoints ?? {}) },
    repositories: (options.repositories ?? []).map((repository) => completeRepository(repository, defaultOrgId)),
    otherRuns: options.otherRuns ? resolveOtherRuns(options.otherRuns) : NO_OTHER_RUNS,
    resumeWhileRunning: options.resumeWhileRunning ?? "reject",
  };
}

function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
