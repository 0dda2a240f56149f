/**
 * deploy/prometheus/alerts.yaml, checked by Prometheus's own `promtool`: the rules load (`check rules`), and every alert
 * fires on series that show its trouble and stays quiet on series that must not fire it (`test rules`, with
 * test/unit/deploy/prometheus/alerts.test.yaml). Then against the App and the docs: every metric and label a rule
 * reads is one the App exports (its registry, as the metrics table in docs/operations.md), every runbook_url is a
 * heading of docs/operations.md, and the Prometheus Operator's PrometheusRule holds exactly these rules.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { appMetrics } from "../../../scripts/docs/metrics.js";
import { ALERTS_FILE, PROMETHEUS_RULE_FILE, prometheusRuleYaml } from "../../../scripts/prometheus-rule.js";
import { prometheusTool, runTool } from "../../helpers/prometheus.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const RULE_TESTS = fileURLToPath(new URL("prometheus/alerts.test.yaml", import.meta.url));

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleTests {
  tests: Array<{ name: string; alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> }>;
}

const alertsText = readFileSync(ALERTS_FILE, "utf8");
const rules = (parse(alertsText) as { groups: Array<{ rules: AlertRule[] }> }).groups.flatMap((group) => group.rules);

let promtool: string;
beforeAll(() => {
  promtool = prometheusTool("promtool");
}, 600_000);

describe("deploy/prometheus/alerts.yaml under promtool", () => {
  it("loads: promtool check rules", () => {
    const check = runTool(promtool, ["check", "rules", ALERTS_FILE]);
    expect(check.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(check.status).toBe(0);
  });

  it("fires each alert on the series that show its trouble, and on none of those that must not: promtool test rules", () => {
    const run = runTool(promtool, ["test", "rules", RULE_TESTS], join(RULE_TESTS, ".."));
    expect(run.output).toContain("SUCCESS");
    expect(run.status, run.output).toBe(0);
  });

  it("has, for every alert, a unit test where it fires and one where it must not", () => {
    const tests = (parse(readFileSync(RULE_TESTS, "utf8")) as RuleTests).tests;
    const checks = tests.flatMap((test) => test.alert_rule_test ?? []);
    for (const { alert } of rules) {
      const own = checks.filter((check) => check.alertname === alert);
      expect(
        own.some((check) => (check.exp_alerts ?? []).length > 0),
        `${alert} fires in some test`,
      ).toBe(true);
      expect(
        own.some((check) => (check.exp_alerts ?? []).length === 0),
        `${alert} stays quiet in some test`,
      ).toBe(true);
    }
    expect(new Set(checks.map((check) => check.alertname))).toEqual(new Set(rules.map((rule) => rule.alert)));
  });
});

describe("the rules against the App and its docs", () => {
  // Labels Prometheus or the Operator puts on every scraped series, and a histogram's bucket bound.
  const TARGET_LABELS = new Set(["job", "instance", "pod"]);
  const exported = new Map<string, { type: string; labels: Set<string> }>();
  for (const metric of appMetrics()) {
    const labels = new Set((metric as { labelNames?: readonly string[] }).labelNames ?? []);
    // prom-client types `type` as an enum whose values are these strings.
    const type = String(metric.type);
    if (type === "histogram") {
      exported.set(`${metric.name}_bucket`, { type: "counter", labels: new Set([...labels, "le"]) });
      exported.set(`${metric.name}_count`, { type: "counter", labels });
      exported.set(`${metric.name}_sum`, { type: "counter", labels });
    } else exported.set(metric.name, { type, labels });
  }

  it.each(rules.map((rule) => [rule.alert, rule] as const))("%s reads only metrics and labels the App exports", (_name, rule) => {
    const names = [...rule.expr.matchAll(/\b(agent_run_bridge_\w+|up)\b/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(0);
    const readable = new Set(TARGET_LABELS);
    for (const name of names) {
      if (name === "up") continue; // Prometheus's own, for the scrape job `agent-run-bridge`.
      expect(exported.has(name), `${name} is exported`).toBe(true);
      for (const label of exported.get(name)!.labels) readable.add(label);
    }
    const matchers = [...rule.expr.matchAll(/[{,]\s*(\w+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]!);
    const grouping = [...rule.expr.matchAll(/\b(?:by|without|ignoring|on)\s*\(([^)]*)\)/g)].flatMap((m) =>
      m[1]!.split(",").map((label) => label.trim()),
    );
    for (const label of [...matchers, ...grouping]) expect(readable.has(label), `${rule.alert} reads label ${label}`).toBe(true);
    // Counters are read as rates, never as raw totals that restart with every replica.
    for (const name of names.filter((n) => exported.get(n)?.type === "counter"))
      expect(rule.expr, `${name} under rate or increase`).toMatch(new RegExp(`(rate|increase)\\(${name}\\b`));
  });

  it("gives every alert a severity, a summary, a description and a runbook heading in docs/operations.md", () => {
    const operations = readFileSync(join(ROOT, "docs/operations.md"), "utf8");
    // GitHub's anchors: the heading in lower case, spaces to hyphens, other punctuation dropped.
    const anchors = new Set(
      [...operations.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
        m[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, "")
          .replace(/ /g, "-"),
      ),
    );
    for (const rule of rules) {
      expect(["critical", "warning"], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      const url = new URL(rule.annotations?.runbook_url ?? "");
      expect(url.pathname, rule.alert).toMatch(/\/docs\/operations\.md$/);
      expect(anchors.has(url.hash.slice(1)), `docs/operations.md has the heading ${url.hash} for ${rule.alert}`).toBe(true);
    }
  });
});

describe("deploy/kubernetes/monitoring (Prometheus Operator)", () => {
  it("holds the same rules as a PrometheusRule (generated: `npm run docs`)", () => {
    const shipped = parse(readFileSync(PROMETHEUS_RULE_FILE, "utf8")) as { kind: string; spec: unknown };
    expect(shipped, "deploy/kubernetes/monitoring/prometheusrule.yaml is stale: run `npm run docs`").toEqual(
      parse(prometheusRuleYaml(alertsText)),
    );
    expect(shipped.kind).toBe("PrometheusRule");
    expect(shipped.spec).toEqual(parse(alertsText));
  });

  const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
  it.skipIf(kubectl.status !== 0)(
    "as a component of an overlay: the ServiceMonitor scrapes the App's Service (not Redis's) on its port, with the Secret's METRICS_TOKEN",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "arb-monitoring-"));
      try {
        const from = (path: string) => relative(dir, join(ROOT, path));
        writeFileSync(
          join(dir, "kustomization.yaml"),
          `resources: [${from("deploy/kubernetes/redis")}]\ncomponents: [${from("deploy/kubernetes/monitoring")}]\n`,
        );
        const built = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
        expect(built.status, built.stderr).toBe(0);
        type Obj = { kind: string; metadata: { name: string; labels?: Record<string, string> }; [k: string]: unknown };
        const objects = parseAllDocuments(built.stdout).map((d) => d.toJSON() as Obj);
        const monitor = objects.find((o) => o.kind === "ServiceMonitor") as Obj & {
          spec: {
            selector: { matchLabels: Record<string, string> };
            endpoints: Array<{ port: string; path: string; authorization: { credentials: { name: string; key: string } } }>;
          };
        };
        const selected = objects.filter(
          (o) =>
            o.kind === "Service" &&
            Object.entries(monitor.spec.selector.matchLabels).every(([key, value]) => o.metadata.labels?.[key] === value),
        ) as Array<Obj & { spec: { ports: Array<{ name: string }> } }>;
        expect(selected.map((s) => s.metadata.name)).toEqual(["agent-run-bridge"]);
        const [endpoint] = monitor.spec.endpoints;
        expect(selected[0]!.spec.ports.map((p) => p.name)).toContain(endpoint!.port);
        expect(endpoint!.path).toBe("/metrics");
        const secret = objects.find((o) => o.kind === "Secret" && o.metadata.name === endpoint!.authorization.credentials.name) as Obj & {
          stringData: Record<string, string>;
        };
        expect(Object.keys(secret.stringData)).toContain(endpoint!.authorization.credentials.key);
        expect(endpoint!.authorization.credentials.key).toBe("METRICS_TOKEN");
        expect(objects.filter((o) => o.kind === "PrometheusRule").map((o) => o.metadata.name)).toEqual(["agent-run-bridge"]);
        // The base alone stays free of the Operator's kinds: a cluster without its CRDs would reject them.
        const plain = spawnSync("kubectl", ["kustomize", join(ROOT, "deploy/kubernetes")], { encoding: "utf8" });
        expect(plain.stdout).not.toMatch(/kind: (PrometheusRule|ServiceMonitor)/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
