/** Small, exact statistics: nearest-rank percentiles over the samples actually measured. */

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be between 0 and 100, got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** The median wall time, in ms, of `samples` synchronous calls of `read(text)`. */
export function medianMs(read: (text: string) => unknown, text: string, samples: number): number {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    read(text);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** A deterministic generator (the emulator's mulberry32), so every run of a benchmark scripts the same workload. */
export { seededRandom } from "../../src/emulator/random.js";

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
