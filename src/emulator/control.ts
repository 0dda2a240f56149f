/**
 * The emulator's state in one place, the `EmulatorControl` over it, and the same control over
 * HTTP under `/_emulator/` (no auth, loopback only).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import * as z from "zod";
import { EmulatedClock } from "./clock.js";
import { FaultInjector, FaultsSchema } from "./faults.js";
import {
  completeRepository,
  EndpointsSchema,
  RepositoriesSchema,
  ResumeWhileRunningSchema,
  type ResolvedOptions,
  type ResolvedRepository,
} from "./options.js";
import { OtherRunsMixer, OtherRunsSchema, resolveOtherRuns } from "./other-runs.js";
import { seededRandom } from "./random.js";
import { SlidingRateLimiter } from "./rate-limiter.js";
import { RunScriptInputSchema, ScriptBook } from "./scripts.js";
import { RunStore } from "./store.js";
import type { EmulatedRepository, EmulatorControl, EmulatorStats, OptionalEndpoints } from "./types.js";

export const ADMIN_PREFIX = "/_emulator";

export interface EmulatorState {
  options: ResolvedOptions;
  clock: EmulatedClock;
  scripts: ScriptBook;
  store: RunStore;
  faults: FaultInjector;
  limiter: SlidingRateLimiter;
  stats: EmulatorStats;
  /** Set once the server listens (or from `publicUrl`); links are made from it. */
  base: { url: string };
  /** Which optional endpoints answer now (scriptable). */
  endpoints: OptionalEndpoints;
  /** Every organization's repositories (scriptable). */
  repositories: ResolvedRepository[];
  /** Runs of other users and sources mixed in with each create (scriptable). */
  otherRuns: OtherRunsMixer;
  /** What a resume of a working run does (scriptable). */
  resumeWhileRunning: "interrupt" | "reject";
}

function emptyStats(): EmulatorStats {
  return { requests: 0, byRoute: {}, rateLimited: 0, serverErrors: 0, droppedConnections: 0, runsCreated: 0, runsResumed: 0 };
}

export function createState(options: ResolvedOptions): EmulatorState {
  const clock = new EmulatedClock(options.timeScale);
  const scripts = new ScriptBook(options.defaultScript);
  const base = { url: options.publicUrl ?? `http://${options.host}` };
  // The store reads the base URL lazily: it is known only once the server listens.
  const store = new RunStore({ clock, scripts, vocabulary: options.statusVocabulary, baseUrl: () => base.url });
  return {
    options,
    clock,
    scripts,
    store,
    faults: new FaultInjector(seededRandom(options.seed)),
    limiter: new SlidingRateLimiter(),
    stats: emptyStats(),
    base,
    endpoints: { ...options.endpoints, logs: [...options.endpoints.logs] },
    repositories: [...options.repositories],
    otherRuns: new OtherRunsMixer(options.otherRuns),
    resumeWhileRunning: options.resumeWhileRunning,
  };
}

/** The organization a repository without `orgId` belongs to: the first token's first. */
function defaultOrgIdOf(state: EmulatorState): number {
  return state.options.tokens[0]?.orgIds[0] ?? 1;
}

function invalidInput(what: string, error: z.ZodError): RangeError {
  return new RangeError(`invalid ${what}: ${error.issues.map((i) => `${i.path.join(".") || what}: ${i.message}`).join("; ")}`);
}

export function createControl(state: EmulatorState): EmulatorControl {
  return {
    script: (s) => state.scripts.add(s),
    setFaults: (f) => state.faults.set(f),
    stats: () => structuredClone(state.stats),
    resetStats: () => {
      state.stats = emptyStats();
    },
    setTimeScale: (scale) => state.clock.setScale(scale),
    advanceTime: (emulatedMs) => state.clock.advance(emulatedMs),
    runs: () => state.store.all().map((r) => state.store.toWire(r)),
    logs: (runId) => {
      const record = state.store.find(runId);
      return record ? state.store.logs(record).map((entry) => ({ ...entry })) : [];
    },
    setEndpoints: (endpoints) => {
      const parsed = EndpointsSchema.safeParse(endpoints);
      if (!parsed.success) throw invalidInput("endpoints", parsed.error);
      const { logs, listRuns, listRepositories } = parsed.data;
      if (logs !== undefined) state.endpoints.logs = [...logs];
      if (listRuns !== undefined) state.endpoints.listRuns = listRuns;
      if (listRepositories !== undefined) state.endpoints.listRepositories = listRepositories;
    },
    setOtherRuns: (otherRuns) => state.otherRuns.set(resolveOtherRuns(otherRuns)),
    setRepositories: (repositories: EmulatedRepository[]) => {
      const parsed = RepositoriesSchema.safeParse(repositories);
      if (!parsed.success) throw invalidInput("repositories", parsed.error);
      state.repositories = parsed.data.map((repository) => completeRepository(repository, defaultOrgIdOf(state)));
    },
    setResumeWhileRunning: (mode) => {
      const parsed = ResumeWhileRunningSchema.safeParse(mode);
      if (!parsed.success) throw invalidInput("resumeWhileRunning", parsed.error);
      state.resumeWhileRunning = parsed.data;
    },
  };
}

const TimeScaleBodySchema = z.strictObject({
  timeScale: z.number({ error: "timeScale is required: a positive number (1 = real time, 0.01 = 100× faster)" }).positive({
    error: "timeScale must be a positive number (1 = real time, 0.01 = 100× faster)",
  }),
});

const AdvanceBodySchema = z.strictObject({
  ms: z.number({ error: "ms is required: the emulated milliseconds to jump forward" }).min(0, { error: "ms must be 0 or more" }),
});

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

function badRequest(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const detail = error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
  return reply.code(400).send({ detail });
}

/** A POST whose body (`{}` when absent) `schema` checks first: 400 naming every issue, else what `apply` answers. */
function postChecked<S extends z.ZodType>(admin: FastifyInstance, url: string, schema: S, apply: (body: z.output<S>) => unknown): void {
  admin.post(url, async (request, reply) => {
    const parsed = schema.safeParse(request.body ?? {});
    if (!parsed.success) return badRequest(reply, parsed.error);
    return apply(parsed.data);
  });
}

/** `/_emulator/*`: the control over HTTP, for the CLI and for tests in other processes. */
export function registerAdminRoutes(app: FastifyInstance, control: EmulatorControl): void {
  void app.register(
    async (admin) => {
      admin.addHook("onRequest", async (request, reply) => {
        if (!isLoopback(request.socket.remoteAddress)) {
          return reply.code(403).send({ detail: "the emulator's control endpoints answer only on loopback" });
        }
      });
      postChecked(admin, "/script", RunScriptInputSchema, (script) => {
        control.script(script);
        return { ok: true, script };
      });
      postChecked(admin, "/faults", FaultsSchema, (faults) => {
        control.setFaults(faults);
        return { ok: true, faults };
      });
      postChecked(admin, "/time-scale", TimeScaleBodySchema, ({ timeScale }) => {
        control.setTimeScale(timeScale);
        return { ok: true, timeScale };
      });
      postChecked(admin, "/advance", AdvanceBodySchema, ({ ms }) => {
        control.advanceTime(ms);
        return { ok: true, advancedMs: ms };
      });
      postChecked(admin, "/endpoints", EndpointsSchema, (endpoints) => {
        control.setEndpoints(endpoints);
        return { ok: true, endpoints };
      });
      postChecked(admin, "/repositories", z.strictObject({ repositories: RepositoriesSchema }), ({ repositories }) => {
        control.setRepositories(repositories);
        return { ok: true, repositories: repositories.length };
      });
      postChecked(admin, "/other-runs", OtherRunsSchema, (otherRuns) => {
        control.setOtherRuns(otherRuns);
        return { ok: true, otherRuns };
      });
      postChecked(admin, "/resume-while-running", z.strictObject({ mode: ResumeWhileRunningSchema }), ({ mode }) => {
        control.setResumeWhileRunning(mode);
        return { ok: true, mode };
      });
      admin.get("/stats", async () => control.stats());
      admin.post("/reset-stats", async () => {
        control.resetStats();
        return control.stats();
      });
      admin.get("/runs", async () => control.runs());
    },
    { prefix: ADMIN_PREFIX },
  );
}
