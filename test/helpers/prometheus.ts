/**
 * Prometheus's own binaries for the tests of the alert rules: `promtool` (check and unit-test the rules) and
 * `prometheus` (scrape a running App). Found on the PATH, else under .cache/ (a release archive unpacked there), else
 * installed from Debian's `prometheus` package when the tests run as root with apt-get (as CI does, .ci/run); otherwise
 * the test fails with one line saying how to install them.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

type Tool = "promtool" | "prometheus";

const CACHE = fileURLToPath(new URL("../../.cache/", import.meta.url));
const HOW_TO_INSTALL =
  "install Debian's prometheus package (`apt-get install prometheus`, which brings promtool), or put a Prometheus release's promtool and prometheus on the PATH or under .cache/prometheus/";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The tool on the PATH, or in .cache/ (directly, or in a release archive's folder such as .cache/prometheus-2.53.0.linux-amd64/). */
function locate(tool: Tool): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (dir && executable(join(dir, tool))) return join(dir, tool);
  if (!existsSync(CACHE)) return null;
  const candidates = [
    join(CACHE, "prometheus", tool),
    ...readdirSync(CACHE)
      .filter((d) => d.startsWith("prometheus"))
      .map((d) => join(CACHE, d, tool)),
  ];
  return candidates.find(executable) ?? null;
}

/**
 * Debian's package, without starting its service: a policy-rc.d that denies every start is put in place for the
 * install when none is there, and on a machine run by systemd the unit is stopped and disabled afterwards.
 */
function installFromDebian(): boolean {
  if (process.getuid?.() !== 0 || !executable("/usr/bin/apt-get")) return false;
  const policy = "/usr/sbin/policy-rc.d";
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) writeFileSync(policy, "#!/bin/sh\nexit 101\n", { mode: 0o755 });
  try {
    const install = spawnSync(
      "sh",
      ["-c", "apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends prometheus"],
      { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, encoding: "utf8", timeout: 600_000 },
    );
    if (existsSync("/run/systemd/system")) spawnSync("systemctl", ["disable", "--now", "prometheus"], { encoding: "utf8" });
    return install.status === 0;
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
}

/** The path of `tool`, installing Debian's package if needed and possible; throws one line saying how otherwise. */
export function prometheusTool(tool: Tool): string {
  const found = locate(tool) ?? (installFromDebian() ? locate(tool) : null);
  if (!found) throw new Error(`${tool} was not found on the PATH or under .cache/, and could not be installed: ${HOW_TO_INSTALL}`);
  return found;
}

/** Runs a tool to its end: its exit code and everything it printed. */
export function runTool(path: string, args: readonly string[], cwd?: string): { status: number | null; output: string } {
  const run = spawnSync(path, args, { cwd, encoding: "utf8", timeout: 120_000 });
  return { status: run.status, output: `${run.stdout ?? ""}${run.stderr ?? ""}` };
}
