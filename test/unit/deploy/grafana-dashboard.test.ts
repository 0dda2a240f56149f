/**
 * deploy/grafana/agent-run-bridge.json: a dashboard Grafana can import, whose every query names only metrics and labels
 * the App exports. The exported set is read from a real App over HTTP (`GET /metrics`: names and types) and from the
 * registry that App serves (label names, which a scrape shows only once a series has a sample); each query is parsed
 * by Prometheus's own PromQL grammar (@prometheus-io/lezer-promql), so a typo in a metric, a matcher, a `by` clause or
 * a legend is a failure here, not an empty panel in production.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parser } from "@prometheus-io/lezer-promql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { z } from "zod";
import { appMetrics } from "../../../scripts/docs/metrics.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

/** A node of the parsed query (lezer's tree, through the grammar's own types). */
type SyntaxNode = ReturnType<typeof parser.parse>["topNode"];

const DIR = fileURLToPath(new URL("../../../deploy/grafana/", import.meta.url));
const DASHBOARD_FILE = `${DIR}agent-run-bridge.json`;

// The parts of Grafana's dashboard model that an import needs and that this dashboard relies on.
const DatasourceRef = z.object({ type: z.literal("prometheus"), uid: z.literal("${datasource}") });
const GridPos = z
  .object({ x: z.number().int().min(0), y: z.number().int().min(0), w: z.number().int().min(1).max(24), h: z.number().int().min(1) })
  .refine((pos) => pos.x + pos.w <= 24, "a panel must fit in Grafana's 24 columns");
const Target = z.object({
  refId: z.string().regex(/^[A-Z]$/),
  expr: z.string().min(1),
  datasource: DatasourceRef,
  legendFormat: z.string(),
});
const Row = z.object({
  id: z.number().int().positive(),
  type: z.literal("row"),
  title: z.string().min(1),
  gridPos: GridPos,
  panels: z.array(z.never()),
});
const Panel = z.object({
  id: z.number().int().positive(),
  type: z.enum(["timeseries", "stat"]),
  title: z.string().min(1),
  description: z.string().min(1),
  gridPos: GridPos,
  datasource: DatasourceRef,
  targets: z.array(Target).min(1),
  fieldConfig: z.object({ defaults: z.object({ unit: z.string() }), overrides: z.array(z.unknown()) }),
});
const Variable = z.discriminatedUnion("type", [
  z.object({ type: z.literal("datasource"), name: z.literal("datasource"), query: z.literal("prometheus") }),
  z.object({
    type: z.literal("query"),
    name: z.string(),
    datasource: DatasourceRef,
    query: z.object({ query: z.string(), refId: z.string() }),
    definition: z.string(),
  }),
]);
const Dashboard = z.object({
  title: z.string().min(1),
  uid: z.string().regex(/^[a-zA-Z0-9_-]{1,40}$/),
  schemaVersion: z.number().int().min(36),
  time: z.object({ from: z.string(), to: z.string() }),
  templating: z.object({ list: z.array(Variable) }),
  panels: z.array(z.union([Row, Panel])).min(1),
});
type DashboardModel = z.infer<typeof Dashboard>;
type QueryPanel = z.infer<typeof Panel>;

/** Metric name → the label names its series carry once Prometheus has scraped them. */
type Exported = Map<string, ReadonlySet<string>>;
// Prometheus adds these to every scraped series; `up` is its own series per scrape target.
const TARGET_LABELS = ["job", "instance"];

/** The series names each metric exposes: a histogram's `_bucket` (with `le`), `_sum` and `_count`. */
function exportedSeries(metrics: ReadonlyArray<{ name: string; type: string; labels: readonly string[] }>): Exported {
  const exported: Map<string, ReadonlySet<string>> = new Map([["up", new Set(TARGET_LABELS)]]);
  for (const { name, type, labels } of metrics) {
    const base = [...labels, ...TARGET_LABELS];
    if (type === "histogram") {
      exported.set(`${name}_bucket`, new Set([...base, "le"]));
      exported.set(`${name}_sum`, new Set(base));
      exported.set(`${name}_count`, new Set(base));
    } else exported.set(name, new Set(base));
  }
  return exported;
}

/** Grafana's own variables, replaced as Grafana does before Prometheus sees the query. */
function substituteGrafanaVariables(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)\b/g, "5m");
}

const children = (node: SyntaxNode): SyntaxNode[] => {
  const list: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) list.push(child);
  return list;
};
const descendants = (node: SyntaxNode, name: string): SyntaxNode[] =>
  children(node).flatMap((child) => [...(child.name === name ? [child] : []), ...descendants(child, name)]);

/**
 * The labels a query's result keeps: what an aggregation's `by` names (or its input less `without`), a histogram
 * quantile's input less `le`, and for anything else the labels of its parts (lax for binary operators, strict enough
 * for a legend: `sum by (endpoint) (…)` keeps no `status`).
 */
function resultLabels(
  node: SyntaxNode,
  labelsOf: (selector: SyntaxNode) => ReadonlySet<string> | undefined,
  text: (node: SyntaxNode) => string,
): Set<string> {
  const union = (nodes: SyntaxNode[]) => new Set(nodes.flatMap((child) => [...resultLabels(child, labelsOf, text)]));
  if (node.name === "VectorSelector") return new Set(labelsOf(node) ?? []);
  if (node.name === "AggregateExpr") {
    const modifier = node.getChild("AggregateModifier");
    const grouping = modifier ? descendants(modifier, "LabelName").map(text) : [];
    if (modifier?.getChild("By")) return new Set(grouping);
    const input = union(children(node).filter((child) => child.name === "FunctionCallBody"));
    return modifier ? new Set([...input].filter((label) => !grouping.includes(label))) : new Set();
  }
  if (node.name === "FunctionCall" && text(node).startsWith("histogram_quantile")) {
    const input = union(children(node));
    input.delete("le");
    return input;
  }
  return union(children(node));
}

/** What is wrong with one PromQL expression against the exported set: syntax errors, unknown metrics and labels. */
export function queryProblems(rawExpr: string, exported: Exported, legendFormat = ""): string[] {
  const expr = substituteGrafanaVariables(rawExpr);
  const text = (node: SyntaxNode) => expr.slice(node.from, node.to);
  const tree = parser.parse(expr);
  const problems: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) problems.push(`syntax error at ${node.from}: ${JSON.stringify(expr.slice(node.from, node.from + 20))}`);
    },
  });
  const labelsOf = (scope: SyntaxNode) =>
    new Set(descendants(scope, "VectorSelector").flatMap((selector) => [...(exported.get(text(selector.getChild("Identifier")!)) ?? [])]));
  const top = tree.topNode;
  for (const selector of descendants(top, "VectorSelector")) {
    const identifier = selector.getChild("Identifier");
    if (!identifier) {
      problems.push(`a selector without a metric name: ${text(selector)}`);
      continue;
    }
    const name = text(identifier);
    const labels = exported.get(name);
    if (!labels) {
      problems.push(`unknown metric ${name}`);
      continue;
    }
    for (const label of descendants(selector, "LabelName").map(text))
      if (!labels.has(label)) problems.push(`${name} has no label ${label}`);
  }
  // `by`/`without` name labels of the aggregated series; `on`/`ignoring`/`group_*` labels of either side.
  for (const aggregate of descendants(top, "AggregateExpr")) {
    const modifier = aggregate.getChild("AggregateModifier");
    const available = labelsOf(aggregate);
    for (const label of modifier ? descendants(modifier, "LabelName").map(text) : [])
      if (!available.has(label)) problems.push(`aggregation by ${label}, a label none of its series has`);
  }
  const everyLabel = labelsOf(top);
  for (const clause of descendants(top, "MatchingModifierClause"))
    for (const label of descendants(clause, "LabelName").map(text))
      if (!everyLabel.has(label)) problems.push(`vector matching on ${label}, a label no series has`);
  const result = resultLabels(top, (selector) => exported.get(text(selector.getChild("Identifier") ?? selector)), text);
  for (const [, label] of legendFormat.matchAll(/\{\{\s*(\w+)\s*\}\}/g))
    if (!result.has(label!)) problems.push(`legend names ${label}, a label the query's result does not keep`);
  return problems;
}

/** Every query in the dashboard (panel targets and the variables' `label_values`), with where it is. */
function queriesOf(dashboard: DashboardModel): Array<{ where: string; expr: string; legendFormat?: string; label?: string }> {
  const queries: Array<{ where: string; expr: string; legendFormat?: string; label?: string }> = [];
  for (const variable of dashboard.templating.list) {
    if (variable.type !== "query") continue;
    const call = /^label_values\((.+),\s*(\w+)\)$/.exec(variable.query.query);
    if (!call) throw new Error(`variable ${variable.name}: expected label_values(selector, label), got ${variable.query.query}`);
    queries.push({ where: `variable $${variable.name}`, expr: call[1]!, label: call[2]! });
  }
  for (const panel of dashboard.panels)
    if (panel.type !== "row")
      for (const target of panel.targets)
        queries.push({ where: `panel "${panel.title}" ${target.refId}`, expr: target.expr, legendFormat: target.legendFormat });
  return queries;
}

function dashboardProblems(dashboard: DashboardModel, exported: Exported): string[] {
  return queriesOf(dashboard).flatMap(({ where, expr, legendFormat, label }) => {
    const problems = queryProblems(expr, exported, legendFormat);
    if (label !== undefined) {
      const metric = /^\w+/.exec(expr)?.[0] ?? "";
      if (!exported.get(metric)?.has(label)) problems.push(`label_values of ${label}, which ${metric} does not have`);
    }
    return problems.map((problem) => `${where}: ${problem}`);
  });
}

const dashboard = Dashboard.parse(JSON.parse(readFileSync(DASHBOARD_FILE, "utf8")));
const queryPanels = dashboard.panels.filter((panel): panel is QueryPanel => panel.type !== "row");

describe("deploy/grafana/agent-run-bridge.json", () => {
  let harness: AppHarness;
  let exported: Exported;

  beforeAll(async () => {
    // A real App with metrics on, as an operator runs it (no repository or automation labels: a dashboard cannot rely on them).
    harness = await startAppHarness({ env: { METRICS: "true" } });
    const response = await fetch(`${harness.app.url}/metrics`);
    expect(response.status).toBe(200);
    const scraped = [...(await response.text()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => ({ name: name!, type: type! }));
    // Label names come from the registry the App serves: the scrape must list exactly its metrics, with the same types.
    const registry = appMetrics().map((metric) => ({
      name: metric.name,
      type: String(metric.type),
      labels: (metric as { labelNames?: readonly string[] }).labelNames ?? [],
    }));
    expect(scraped).toEqual(registry.map(({ name, type }) => ({ name, type })));
    exported = exportedSeries(registry);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("names only metrics and labels the App exports, in queries Prometheus's grammar parses", () => {
    expect(dashboardProblems(dashboard, exported)).toEqual([]);
  });

  it("catches a metric, a label, a grouping and a legend that do not exist", () => {
    const broken = structuredClone(dashboard);
    const first = broken.panels.find((panel): panel is QueryPanel => panel.type !== "row")!;
    first.targets[0]!.expr = 'sum by (reason) (rate(agent_run_bridge_webhooks_recieved_total{job=~"$job"}[$__rate_interval]))';
    expect(dashboardProblems(broken, exported)).toContainEqual(
      expect.stringContaining("unknown metric agent_run_bridge_webhooks_recieved_total"),
    );
    const cases: Array<[string, string, string]> = [
      ['agent_run_bridge_tasks{status="done"}', "", "agent_run_bridge_tasks has no label status"],
      ["sum by (repository) (rate(agent_run_bridge_runs_started_total[5m]))", "", "aggregation by repository"],
      ["sum by (le) (rate(agent_run_bridge_first_acknowledgement_seconds_sum[5m]))", "", "aggregation by le"],
      ["sum by (reason) (rate(agent_run_bridge_webhooks_ignored_total[5m]))", "{{reson}}", "legend names reson"],
      ["sum by (endpoint) (rate(agent_run_bridge_service_requests_total[5m]))", "{{status}}", "legend names status"],
      ["histogram_quantile(0.9, sum by (le) (rate(agent_run_bridge_run_duration_seconds_bucket[5m])))", "{{le}}", "legend names le"],
      ["agent_run_bridge_run_duration_seconds", "", "unknown metric agent_run_bridge_run_duration_seconds"],
      ["sum(rate(agent_run_bridge_tasks[5m])", "", "syntax error"],
    ];
    for (const [expr, legend, problem] of cases)
      expect(queryProblems(expr, exported, legend)).toContainEqual(expect.stringContaining(problem));
  });

  it("draws every metric the App exports somewhere", () => {
    const named = new Set(
      queriesOf(dashboard).flatMap(({ expr }) =>
        [...substituteGrafanaVariables(expr).matchAll(/agent_run_bridge_\w+/g)].map(([name]) => name),
      ),
    );
    const series = (name: string, type: string) => (type === "histogram" ? ["_bucket", "_sum", "_count"].map((end) => name + end) : [name]);
    const undrawn = appMetrics()
      .filter((metric) => !series(metric.name, String(metric.type)).some((name) => named.has(name)))
      .map((metric) => metric.name);
    expect(undrawn, "a metric the App exports has no panel: add one to deploy/grafana/agent-run-bridge.json").toEqual([]);
  });

  it("is a dashboard model Grafana imports: unique ids, panels within 24 columns that do not overlap, every query on the datasource variable", () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      "panel ids used twice",
    ).toEqual([]);
    const boxes = dashboard.panels.map(({ title, gridPos }) => ({ title, ...gridPos }));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h, `"${a.title}" overlaps "${b.title}"`).toBe(false);
    for (const panel of queryPanels) expect(new Set(panel.targets.map((target) => target.refId)).size).toBe(panel.targets.length);
    // Every `$variable` a query uses is defined (Grafana's own `$__…` aside).
    const defined = new Set(dashboard.templating.list.map((variable) => variable.name));
    for (const { where, expr } of queriesOf(dashboard))
      for (const [, name] of expr.matchAll(/\$(?!__)(\w+)/g)) expect(defined.has(name!), `${where} uses $${name}`).toBe(true);
    // The job and replica pickers filter every App series.
    for (const panel of queryPanels)
      for (const { expr } of panel.targets) expect(expr, panel.title).toMatch(/job=~"\$job", instance=~"\$instance"/);
  });

  it('is provisioned for the Grafana sidecar by a ConfigMap labelled grafana_dashboard: "1" holding this very file', () => {
    const kustomization = parse(readFileSync(`${DIR}kustomization.yaml`, "utf8")) as {
      generatorOptions: { labels: Record<string, string> };
      configMapGenerator: Array<{ name: string; files: string[] }>;
    };
    expect(kustomization.generatorOptions.labels).toEqual({ grafana_dashboard: "1" });
    expect(kustomization.configMapGenerator[0]!.files).toEqual(["agent-run-bridge.json"]);
    const built = spawnSync("kubectl", ["kustomize", DIR], { encoding: "utf8" });
    if (built.error) {
      console.warn("kubectl is not on the PATH: the ConfigMap's build is not checked (install kubectl to check it)");
      return;
    }
    expect(built.status, built.stderr).toBe(0);
    const [configMap] = parseAllDocuments(built.stdout).map(
      (document) => document.toJSON() as { kind: string; data: Record<string, string> },
    );
    expect(configMap!.kind).toBe("ConfigMap");
    expect(JSON.parse(configMap!.data["agent-run-bridge.json"]!)).toEqual(JSON.parse(readFileSync(DASHBOARD_FILE, "utf8")));
    const provider = parse(readFileSync(`${DIR}provisioning/dashboards.yaml`, "utf8")) as {
      providers: Array<{ type: string; options: { path: string } }>;
    };
    expect(provider.providers[0]).toMatchObject({ type: "file" });
  });
});
