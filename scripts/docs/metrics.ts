/**
 * The metrics table (docs/operations.md) is read from the App's own registry: every instrument
 * `createAppMetrics` registers, with its type, labels and help text, so a metric added in
 * src/app/ops/metrics.ts is documented by `npm run docs`.
 */
import type { MetricObject } from "prom-client";
import { createAppMetrics, type MetricsOptions } from "../../src/app/ops/metrics.js";

/** The gauges read the store and queue only when scraped; listing the metrics scrapes nothing. */
const notScraped = new Proxy(
  {},
  {
    get() {
      throw new Error("listing the metrics must not read the store or the queue");
    },
  },
);

const cell = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

/** Every metric `GET /metrics` serves, in the order it lists them (with repository labels when asked). */
export function appMetrics(repoLabels = false): MetricObject[] {
  const options = { store: notScraped, queue: notScraped, repoLabels } as MetricsOptions;
  return createAppMetrics(options).registry.getMetricsAsArray();
}

export function metricsTable(): string {
  return [
    "| Metric | Type | Labels | Meaning |",
    "|---|---|---|---|",
    ...appMetrics().map((metric) => {
      const { labelNames } = metric as MetricObject & { labelNames?: readonly string[] };
      const labels = (labelNames ?? []).map((label) => `\`${label}\``).join(", ");
      return `| \`${metric.name}\` | ${metric.type} | ${labels} | ${cell(metric.help)} |`;
    }),
  ].join("\n");
}
