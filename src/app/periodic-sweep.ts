/**
 * A background sweep (the delivery recovery, the run recovery): once now and then every interval, never two
 * at once in this process (a sweep asked for while one runs shares it), and a stop that waits for the one in
 * flight. Which replica sweeps is the lease's business, inside `sweepOnce`.
 */
export interface PeriodicSweep<T> {
  /** One sweep now, or the one already running. */
  sweep(): Promise<T>;
  /** Sweeps now and then every interval. */
  start(): void;
  /** No more sweeps; resolves once the one in flight has ended. */
  stop(): Promise<void>;
}

/** `stopping` is the caller's, so that `sweepOnce` can end early when it aborts. */
export function periodicSweep<T>(sweepOnce: () => Promise<T>, intervalMs: number, stopping: AbortController): PeriodicSweep<T> {
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<T> | null = null;
  const sweeps: PeriodicSweep<T> = {
    sweep() {
      inFlight ??= sweepOnce().finally(() => (inFlight = null));
      return inFlight;
    },
    start() {
      if (stopping.signal.aborted) return;
      void sweeps.sweep();
      timer = setInterval(() => void sweeps.sweep(), intervalMs).unref();
    },
    async stop() {
      stopping.abort();
      clearInterval(timer);
      await inFlight;
    },
  };
  return sweeps;
}
