/**
 * docs/images/grafana-dashboard.png: a preview of deploy/grafana/agent-run-bridge.json, since Grafana is neither in
 * npm nor in Debian here. A real App (the test harness: fake GitHub, emulator) takes a demo-like load while a real
 * Prometheus (Debian's `prometheus`) scrapes its /metrics every second; each panel's own queries are then evaluated by
 * that Prometheus's HTTP API and drawn, at the dashboard's own grid positions, into a plain HTML page that headless
 * Chromium screenshots. The picture says so itself: it is the dashboard's layout and queries on real data, not Grafana.
 *
 *   npx tsx scripts/dashboard-preview.ts [out.png]      (needs `prometheus` on the PATH: apt-get install prometheus)
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../test/helpers/browser.js";
import { baseSeed, startAppHarness, until } from "../test/helpers/app-harness.js";

interface Target {
  refId: string;
  expr: string;
  legendFormat: string;
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Target[];
  fieldConfig?: { defaults: { unit?: string } };
}
interface Series {
  name: string;
  points: Array<[number, number]>;
}

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUT = process.argv[2] ?? join(ROOT, "docs/images/grafana-dashboard.png");
const dashboard = JSON.parse(readFileSync(join(ROOT, "deploy/grafana/agent-run-bridge.json"), "utf8")) as {
  title: string;
  panels: Panel[];
};
const LOAD_SECONDS = 45;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Grafana's variables as Grafana would fill them in: every job and replica, a short rate window, the whole range. */
function grafanaExpr(expr: string, rangeSeconds: number): string {
  return expr
    .replaceAll("$__rate_interval", "15s")
    .replaceAll("$__range", `${rangeSeconds}s`)
    .replaceAll("$job", ".+")
    .replaceAll("$instance", ".+");
}

async function queryRange(
  base: string,
  expr: string,
  start: number,
  end: number,
): Promise<Array<{ metric: Record<string, string>; values: Array<[number, string]> }>> {
  const url = new URL("/api/v1/query_range", base);
  url.search = new URLSearchParams({ query: expr, start: String(start), end: String(end), step: "1" }).toString();
  const body = (await (await fetch(url)).json()) as {
    status: string;
    error?: string;
    data: { result: Array<{ metric: Record<string, string>; values: Array<[number, string]> }> };
  };
  if (body.status !== "success") throw new Error(`Prometheus refused ${expr}: ${body.error}`);
  return body.data.result;
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const COLORS = ["#73bf69", "#f2cc0c", "#5794f2", "#ff9830", "#f2495c", "#b877d9", "#8ab8ff", "#96d98d", "#fade2a", "#ffb357"];

function formatValue(value: number, unit: string | undefined): string {
  if (!Number.isFinite(value)) return "–";
  if (unit === "s") return value < 1 ? `${(value * 1000).toFixed(0)} ms` : `${value.toFixed(2)} s`;
  if (unit === "percentunit") return `${(value * 100).toFixed(0)}%`;
  if (unit === "reqps" || unit === "ops") return `${value.toFixed(2)}/s`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function chart(series: Series[], unit: string | undefined, width: number, height: number): string {
  const points = series.flatMap((s) => s.points);
  if (points.length === 0) return `<div class="empty">No data</div>`;
  const [t0, t1] = [Math.min(...points.map(([t]) => t)), Math.max(...points.map(([t]) => t))];
  const top = Math.max(...points.map(([, v]) => v), 1e-9);
  const lines = series.map((s, i) => {
    const path = s.points.map(
      ([t, v]) => `${(((t - t0) / Math.max(t1 - t0, 1)) * width).toFixed(1)},${(height - (v / top) * height).toFixed(1)}`,
    );
    return `<polyline fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.5" points="${path.join(" ")}"/>`;
  });
  const legend = series
    .slice(0, 6)
    .map((s, i) => `<span><i style="background:${COLORS[i % COLORS.length]}"></i>${escape(s.name)}</span>`)
    .join("");
  return `<div class="axis">${formatValue(top, unit)}</div><svg width="${width}" height="${height}">${lines.join("")}</svg><div class="legend">${legend}${series.length > 6 ? `<span>+${series.length - 6} more</span>` : ""}</div>`;
}

async function main(): Promise<void> {
  if (spawnSync("prometheus", ["--version"]).error)
    throw new Error("prometheus is not on the PATH: install it (apt-get install prometheus) and run this again");
  // Six issues to talk in (the base seed has issue 1 and pull request 2).
  const issues = [1, 3, 4, 5, 6, 7];
  const seed = baseSeed();
  for (const number of issues.slice(1))
    seed.issues!.push({ number, title: `Issue ${number}`, body: "Something is off.", user: "maintainer" });
  const harness = await startAppHarness({ seed, env: { METRICS: "true" } });
  const dataDir = mkdtempSync(join(tmpdir(), "arb-prometheus-"));
  const port = await freePort();
  const target = new URL(harness.app.url).host;
  writeFileSync(
    join(dataDir, "prometheus.yml"),
    `global: { scrape_interval: 1s, evaluation_interval: 1s }\nscrape_configs:\n  - job_name: agent-run-bridge\n    static_configs: [{ targets: ["${target}"] }]\n`,
  );
  const prometheus = spawn(
    "prometheus",
    [
      `--config.file=${join(dataDir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dataDir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: "ignore" },
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await until(async () => (await fetch(`${base}/-/ready`).catch(() => null))?.ok === true, "Prometheus to be ready");
    const start = Math.floor(Date.now() / 1000);
    // A demo-like load: people asking for runs (some failing), chat, a delivery sent twice, a burst of 429s midway.
    harness.emulator.control.script({ match: "breaks", outcome: "failed", durationMs: 20_000 });
    for (let i = 0; Date.now() / 1000 < start + LOAD_SECONDS; i++) {
      const number = issues[i % issues.length]!;
      const thread = { number, title: `Issue ${number}`, body: "Something is off." };
      const text = i % 4 === 3 ? "just chatting" : i % 5 === 0 ? "/agent this one breaks" : `/agent fix part ${i}`;
      const { payload } = harness.humanComment(thread, text);
      await harness.deliver("issue_comment", payload, `preview-${i}`);
      if (i % 7 === 0) await harness.deliver("issue_comment", payload, `preview-${i}`);
      if (i === 20) harness.emulator.control.setFaults({ rateLimitStorm: { count: 6, retryAfterSeconds: 2 } });
      await sleep(700);
    }
    await harness.idle();
    await sleep(3_000);
    const end = Math.floor(Date.now() / 1000);

    const SCALE = 50; // pixels per grid unit across; Grafana's rows are 30 px
    const cells: string[] = [];
    for (const panel of dashboard.panels) {
      const { x, y, w, h } = panel.gridPos;
      const style = `left:${x * SCALE}px;top:${y * 30 + 60}px;width:${w * SCALE - 6}px;height:${h * 30 - 6}px`;
      if (panel.type === "row") {
        cells.push(`<div class="row" style="${style}">${escape(panel.title)}</div>`);
        continue;
      }
      const unit = panel.fieldConfig?.defaults.unit;
      const series: Series[] = [];
      for (const t of panel.targets ?? [])
        for (const result of await queryRange(base, grafanaExpr(t.expr, end - start), start, end))
          series.push({
            name: t.legendFormat.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, label: string) => result.metric[label] ?? "") || t.refId,
            points: result.values.map(([time, value]) => [time, Number(value)]).filter(([, v]) => Number.isFinite(v)) as Array<
              [number, number]
            >,
          });
      const body =
        panel.type === "stat"
          ? `<div class="stat">${series.length === 0 ? "No data" : series.map((s) => `<b>${formatValue(s.points.at(-1)?.[1] ?? NaN, unit)}</b><small>${escape(s.name)}</small>`).join("")}</div>`
          : chart(series, unit, w * SCALE - 24, h * 30 - 80);
      cells.push(`<div class="panel" style="${style}"><h3>${escape(panel.title)}</h3>${body}</div>`);
    }
    const height = Math.max(...dashboard.panels.map((p) => (p.gridPos.y + p.gridPos.h) * 30)) + 70;
    const html = `<!doctype html><meta charset="utf-8"><style>
      body{margin:0;background:#111217;color:#ccccdc;font:12px system-ui,sans-serif;position:relative;width:${24 * SCALE}px;height:${height}px}
      header{position:absolute;left:0;top:0;right:0;height:52px;padding:8px 10px;box-sizing:border-box}
      header b{font-size:16px;color:#fff} header span{display:block;color:#9fa7b3;margin-top:3px}
      .row{position:absolute;font-size:14px;font-weight:600;color:#fff;padding-top:6px}
      .panel{position:absolute;background:#181b1f;border:1px solid #2c3235;border-radius:2px;padding:6px 8px;box-sizing:border-box;overflow:hidden}
      h3{margin:0 0 4px;font-size:12px;color:#d8d9da;font-weight:500}
      .axis{color:#8e8e8e;font-size:10px} svg{display:block;border-bottom:1px solid #2c3235}
      .legend span{display:inline-block;margin:3px 8px 0 0;font-size:10px;white-space:nowrap}
      .legend i{display:inline-block;width:10px;height:3px;margin-right:3px;vertical-align:middle}
      .stat b{display:block;font-size:26px;color:#73bf69;margin-top:6px} .stat small{color:#9fa7b3}
      .empty,.stat:not(:has(b)){color:#6e7079;margin-top:20px;text-align:center}
    </style><header><b>${escape(dashboard.title)}</b> <span>Layout preview, not Grafana: deploy/grafana/agent-run-bridge.json drawn by scripts/dashboard-preview.ts,
      each panel's own queries evaluated by a real Prometheus scraping a real App under ${LOAD_SECONDS} s of demo-like load (1 s scrapes).</span></header>${cells.join("")}`;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 24 * SCALE, height }, deviceScaleFactor: 1 });
      await page.setContent(html);
      await page.screenshot({ path: OUT, fullPage: true });
    } finally {
      await browser.close();
    }
    console.log(`wrote ${OUT}`);
  } finally {
    const exited = prometheus.exitCode === null ? once(prometheus, "exit") : Promise.resolve();
    prometheus.kill("SIGTERM");
    await exited;
    await harness.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
