/**
 * A cancelled job (or one past its `timeout-minutes`): the runner sends the step SIGINT, SIGTERM
 * 7.5 s later and kills the process tree 2.5 s after that. The first signal starts the step's last
 * word (steps/cancel.ts); whatever happens, the process leaves before the kill.
 */
const CANCEL_SIGNALS = ["SIGINT", "SIGTERM"] as const;
export type CancelSignal = (typeof CANCEL_SIGNALS)[number];

/** The runner kills the process tree 10 s after SIGINT: leave half a second before that. */
const CANCEL_EXIT_MS = 9_500;

/** Resolves with the first cancel signal; from then on the process exits by CANCEL_EXIT_MS at the latest. */
export function listenForCancel(): Promise<CancelSignal> {
  return new Promise((resolve) => {
    let exitTimer: NodeJS.Timeout | null = null;
    const onSignal = (signal: CancelSignal) => {
      resolve(signal);
      // Later signals (the SIGTERM after SIGINT) must not end the last word early: the listeners stay.
      exitTimer ??= setTimeout(() => process.exit(1), CANCEL_EXIT_MS).unref();
    };
    for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal);
  });
}
