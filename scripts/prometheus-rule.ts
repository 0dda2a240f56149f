/**
 * The Prometheus Operator's PrometheusRule (deploy/kubernetes/monitoring/prometheusrule.yaml) is generated from the
 * plain rule file deploy/prometheus/alerts.yaml, so the two never hold different rules. `npm run docs` rewrites it;
 * test/unit/deploy/prometheus-rules.test.ts fails when it is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const ALERTS_FILE = `${ROOT}deploy/prometheus/alerts.yaml`;
export const PROMETHEUS_RULE_FILE = `${ROOT}deploy/kubernetes/monitoring/prometheusrule.yaml`;

/** The PrometheusRule's text for the rule groups of `alertsYaml`. */
export function prometheusRuleYaml(alertsYaml: string): string {
  const { groups } = parse(alertsYaml) as { groups: unknown[] };
  const rule = {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: { name: "agent-run-bridge", labels: { "app.kubernetes.io/name": "agent-run-bridge" } },
    spec: { groups },
  };
  return [
    "# Generated from deploy/prometheus/alerts.yaml by `npm run docs` (scripts/prometheus-rule.ts): edit that file, not this one.",
    stringify(rule, { lineWidth: 0 }),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(PROMETHEUS_RULE_FILE, prometheusRuleYaml(readFileSync(ALERTS_FILE, "utf8")));
  console.log("deploy/kubernetes/monitoring/prometheusrule.yaml: written");
}
