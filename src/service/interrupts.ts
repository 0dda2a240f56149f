/**
 * Whether this deployment takes a resume while the run is still working (an interruption: spec §2.6
 * logs it as `USER_MESSAGE`). Detected, never assumed: a 4xx that names the run's state is the
 * service saying no, remembered for a while so that later follow-ups are queued without trying.
 */
import type { ServiceLogger } from "./client-options.js";
import { AgentRunError, InterruptRefusedError } from "./errors.js";

/** How long a refusal is remembered before the next follow-up tries again (a deployment may be upgraded). */
const INTERRUPT_REFUSAL_MEMORY_MS = 60 * 60_000;

/**
 * A failed resume that is the service saying the run is still working (the emulator's 409 "agent run
 * 7 is still running; resume it once it has finished"), as opposed to a failure that says nothing
 * about interruptions (not found, rate limited, a 5xx, the network).
 */
function isRefusedWhileWorking(error: unknown): boolean {
  if (!(error instanceof AgentRunError) || error.status === undefined) return false;
  const { status } = error;
  if (status < 400 || status >= 500 || status === 401 || status === 402 || status === 404 || status === 429) return false;
  const said = `${error.serverMessage ?? ""}`;
  return /\b(running|working|in[ _-]?progress|active|pending|queued|not (yet )?(finished|completed?)|state|status)\b/i.test(said);
}

export class InterruptSupport {
  private refusedUntil = 0;

  constructor(
    private readonly logger: ServiceLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** False while a refusal is remembered: follow-ups are held until the run finishes instead. */
  get accepted(): boolean {
    return this.now() >= this.refusedUntil;
  }

  /** Turns a refusal into InterruptRefusedError (remembered); any other failure passes through. */
  judge(error: unknown, runId: number): unknown {
    if (!isRefusedWhileWorking(error)) return error;
    if (this.accepted) {
      this.logger.warn(
        `The service does not take a follow-up while run ${runId} is working (${(error as AgentRunError).status}): follow-ups wait for their run to finish for the next ${INTERRUPT_REFUSAL_MEMORY_MS / 60_000} minutes.`,
      );
    }
    this.refusedUntil = this.now() + INTERRUPT_REFUSAL_MEMORY_MS;
    return new InterruptRefusedError(
      `The service does not take a follow-up while run ${runId} is working; it waits for the run to finish.`,
      {
        status: (error as AgentRunError).status,
        serverMessage: (error as AgentRunError).serverMessage,
        cause: error,
      },
    );
  }
}
