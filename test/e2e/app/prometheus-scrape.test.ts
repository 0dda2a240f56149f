/**
 * A real Prometheus scrapes a real App: `agent-run app` as a child process (emulator and fake GitHub on loopback) with
 * METRICS_TOKEN, and Debian's `prometheus` on a free loopback port with its own storage, a 1 s scrape and evaluation
 * interval, the bearer token, and deploy/prometheus/alerts.yaml loaded. The rules' expressions are the shipped ones;
 * only their `for:` is cut to 1 s, so that an alert shows within the test's time. The emulator then answers every
 * request 429, and Prometheus's own HTTP API shows AgentRunBridgeServiceRateLimited pending or firing.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ALERTS_FILE } from "../../../scripts/prometheus-rule.js";
import { postWebhook, seedHumanComment, baseSeed, until } from "../../helpers/app-harness.js";
import { startAppChildWorld } from "../../helpers/app-child-world.js";
import { freePort, watchChild } from "../../helpers/app-process.js";
import { prometheusTool } from "../../helpers/prometheus.js";

const METRICS_TOKEN = "scrape-me-0123456789abcdef0123456789";
const ALERT = "AgentRunBridgeServiceRateLimited";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface ActiveAlert {
  labels: Record<string, string>;
  state: "pending" | "firing";
}

/** The shipped rules with every `for:` cut to 1 s; the expressions, labels and annotations are left as they are. */
function rulesWithShortFor(): string {
  const rules = parse(readFileSync(ALERTS_FILE, "utf8")) as { groups: Array<{ rules: Array<{ for?: string }> }> };
  for (const rule of rules.groups.flatMap((group) => group.rules)) if (rule.for !== undefined) rule.for = "1s";
  return stringify(rules);
}

/** Starts `prometheus` scraping `target` with the token; stopped (SIGTERM, then SIGKILL) by the cleanups, whatever happens. */
async function startPrometheus(target: string): Promise<{ url: string; output: () => string }> {
  const binary = prometheusTool("prometheus");
  const dir = mkdtempSync(join(tmpdir(), "arb-prometheus-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "alerts.yaml"), rulesWithShortFor());
  writeFileSync(join(dir, "metrics-token"), METRICS_TOKEN, { mode: 0o600 });
  writeFileSync(
    join(dir, "prometheus.yml"),
    stringify({
      global: { scrape_interval: "1s", evaluation_interval: "1s", scrape_timeout: "1s" },
      rule_files: [join(dir, "alerts.yaml")],
      scrape_configs: [
        {
          job_name: "agent-run-bridge",
          authorization: { credentials_file: join(dir, "metrics-token") },
          static_configs: [{ targets: [target] }],
        },
      ],
    }),
  );
  const port = await freePort();
  const spawned = watchChild(
    spawn(binary, [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]),
  );
  cleanups.push(async () => {
    if (spawned.child.exitCode !== null || spawned.child.signalCode !== null) return;
    spawned.child.kill("SIGTERM");
    const timer = setTimeout(() => spawned.child.kill("SIGKILL"), 5_000);
    await spawned.exited;
    clearTimeout(timer);
  });
  const url = `http://127.0.0.1:${port}`;
  const output = () => spawned.stdout() + spawned.stderr();
  await until(
    async () => {
      if (spawned.child.exitCode !== null) throw new Error(`prometheus exited:\n${output()}`);
      return (await fetch(`${url}/-/ready`).catch(() => null))?.status === 200;
    },
    "prometheus to be ready",
    30_000,
  );
  return { url, output };
}

async function api<T>(prometheus: string, path: string): Promise<T> {
  const answer = (await (await fetch(`${prometheus}${path}`)).json()) as { status: string; data: T };
  expect(answer.status).toBe("success");
  return answer.data;
}

describe("Prometheus scraping the App with the shipped alert rules", () => {
  it("scrapes /metrics with the bearer token and sees ServiceRateLimited while the service answers 429", { timeout: 150_000 }, async () => {
    const seed = baseSeed();
    const { github, emulator, app } = await startAppChildWorld({ seed, env: { METRICS_TOKEN, LOG_LEVEL: "warn" }, cleanups });
    const prometheus = await startPrometheus(new URL(app.url).host);

    // Scraped with the token (the target is up) and the rules evaluated, with nothing wrong yet: no alert.
    await until(
      async () => {
        const { activeTargets } = await api<{ activeTargets: Array<{ health: string }> }>(prometheus.url, "/api/v1/targets");
        return activeTargets[0]?.health === "up";
      },
      "the App's /metrics to be scraped",
      30_000,
    );
    await until(
      async () => {
        const { result } = await api<{ result: unknown[] }>(
          prometheus.url,
          "/api/v1/query?query=count_over_time(agent_run_bridge_service_rate_limited_total%7Bendpoint%3D%22create%22%7D%5B1m%5D)%3E%3D2",
        );
        return result.length === 1;
      },
      "two scrapes of the 429 counter at 0",
      30_000,
    );
    const before = await api<{ alerts: ActiveAlert[] }>(prometheus.url, "/api/v1/alerts");
    expect(before.alerts).toEqual([]);

    // The service answers 429 to everything; a trigger makes the App call it (and retry).
    emulator.control.setFaults({ rateLimitStorm: { count: 1_000_000 } });
    const trigger = seedHumanComment(github, { number: 1, title: "Flaky date test" }, "/agent fix the flaky test").payload;
    expect(await postWebhook(app.webhookUrl, "issue_comment", trigger, "delivery-429")).toBe(200);

    let seen: ActiveAlert | undefined;
    await until(
      async () => {
        const { alerts } = await api<{ alerts: ActiveAlert[] }>(prometheus.url, "/api/v1/alerts");
        seen = alerts.find((alert) => alert.labels.alertname === ALERT);
        return seen !== undefined;
      },
      `${ALERT} in Prometheus's /api/v1/alerts`,
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nprometheus said:\n${prometheus.output().slice(-3000)}`);
    });
    expect(["pending", "firing"]).toContain(seen!.state);
    expect(seen!.labels).toMatchObject({ alertname: ALERT, severity: "warning", job: "agent-run-bridge" });
    expect(emulator.control.stats().rateLimited).toBeGreaterThan(0);
  });
});
