/**
 * The container image built and run with buildah, where no registry and no container runtime is reachable (a CI
 * machine, this one): `buildah bud` builds the Dockerfile on a local copy of the Node base image, `buildah from`
 * makes a container of it, and `buildah run` runs a command in it as the image's user, on the host's network, so
 * the App inside reaches the emulator and the fake GitHub on loopback and answers there.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { watchChild } from "./app-process.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUILDAH = ["--storage-driver", "vfs"];
/** Builds (once, then cached under its tag) a stand-in for node:24-bookworm-slim; it lives beside the project. */
const NODE_BASE_SCRIPT = join(ROOT, "..", "shared", "tools", "node-base.sh");

/** What `docker run` would take from the image: the parts of its configuration the tests check and use. */
export interface ImageConfig {
  user: string;
  entrypoint: string[];
  cmd: string[];
  env: Record<string, string>;
  volumes: string[];
  exposedPorts: string[];
  /** The HEALTHCHECK's command (after its CMD marker). */
  healthcheck: string[];
  workingDir: string;
}

/** Runs buildah, throwing with its output when it fails. */
function buildah(args: readonly string[], options: { timeoutMs?: number } = {}): string {
  const result = spawnSync("buildah", [...BUILDAH, ...args], {
    encoding: "utf8",
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 << 20,
  });
  if (result.error) throw new Error(`buildah ${args[0]} failed: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`buildah ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}

/**
 * The image under test: IMAGE_TEST_IMAGE when set (one already in buildah's storage, such as a released image pulled
 * there), else the Dockerfile built now as `tag` from a clean clone's files on the local Node base.
 */
export function imageUnderTest(tag: string): { image: string; remove(): void } {
  const given = process.env.IMAGE_TEST_IMAGE;
  if (given) return { image: given, remove: () => undefined };
  buildImage(tag, nodeBaseImage());
  // Removed after the test, so that every run does not leave a few hundred megabytes behind; the base stays cached.
  return { image: tag, remove: () => void spawnSync("buildah", [...BUILDAH, "rmi", tag], { stdio: "ignore" }) };
}

/** IMAGE_TEST_NODE_IMAGE when set (an image already in buildah's storage), else the local base that node-base.sh builds or finds cached. */
function nodeBaseImage(): string {
  const given = process.env.IMAGE_TEST_NODE_IMAGE;
  if (given) return given;
  if (!existsSync(NODE_BASE_SCRIPT))
    throw new Error(`No base image: set IMAGE_TEST_NODE_IMAGE to a Node 24 image in buildah's storage, or provide ${NODE_BASE_SCRIPT}.`);
  const result = spawnSync("bash", [NODE_BASE_SCRIPT], { encoding: "utf8", timeout: 600_000 });
  if (result.status !== 0) throw new Error(`${NODE_BASE_SCRIPT} failed (${result.status}):\n${result.stderr}`);
  return result.stdout.trim().split("\n").at(-1)!;
}

/**
 * The build context a clean clone gives: the files git tracks, plus new ones it does not ignore (so that work not
 * yet committed is built too), copied to a temporary directory; never node_modules, lib/ or .data/ of this checkout.
 */
function cleanCloneContext(): { dir: string; remove(): void } {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), "arb-image-context-"));
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    // Deleted but not yet committed files are still listed by --cached.
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Builds the Dockerfile at the project's root as `tag` from a clean clone's context, on `nodeImage`. */
function buildImage(tag: string, nodeImage: string): void {
  const context = cleanCloneContext();
  try {
    // --jobs 2: the dependency stage (apt, compiling SQLite) and the library stage (tsc) build side by side.
    buildah(
      [
        "bud",
        "--isolation",
        "chroot",
        "--format",
        "docker",
        "--jobs",
        "2",
        "--build-arg",
        `NODE_IMAGE=${nodeImage}`,
        "-t",
        tag,
        context.dir,
      ],
      {
        timeoutMs: 900_000,
      },
    );
  } finally {
    context.remove();
  }
}

/** The Docker-format configuration as `buildah inspect` shows it. */
interface DockerConfig {
  User?: string;
  Entrypoint?: string[] | null;
  Cmd?: string[] | null;
  Env?: string[];
  Volumes?: Record<string, object> | null;
  ExposedPorts?: Record<string, object> | null;
  Healthcheck?: { Test?: string[] } | null;
  WorkingDir?: string;
}

export function imageConfig(tag: string): ImageConfig {
  const config = (JSON.parse(buildah(["inspect", "--type", "image", tag])) as { Docker: { config: DockerConfig } }).Docker.config;
  return {
    user: config.User ?? "",
    entrypoint: config.Entrypoint ?? [],
    cmd: config.Cmd ?? [],
    env: Object.fromEntries((config.Env ?? []).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)])),
    volumes: Object.keys(config.Volumes ?? {}),
    exposedPorts: Object.keys(config.ExposedPorts ?? {}),
    healthcheck: (config.Healthcheck?.Test ?? []).slice(1),
    workingDir: config.WorkingDir ?? "",
  };
}

/** The image's size as `buildah images` shows it (its layers, uncompressed), such as "365 MB". */
export function imageSize(tag: string): string {
  const [image] = JSON.parse(buildah(["images", "--json", tag])) as Array<{ size: string }>;
  return image!.size;
}

export interface Container {
  name: string;
  /** The container's root filesystem on the host (to look at what the image holds). */
  root: string;
  remove(): void;
}

/** A working container of the image (a copy of its root filesystem). */
export function createContainer(tag: string): Container {
  const name = buildah(["from", tag]);
  const root = buildah(["mount", name]);
  return {
    name,
    root,
    remove: () => {
      spawnSync("buildah", [...BUILDAH, "rm", name], { stdio: "ignore" });
    },
  };
}

export interface ContainerProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Sends `signal` to the command itself, inside the container: `buildah run` kills its child on SIGTERM
   * instead of passing the signal on, whereas `docker stop` signals the container's main process.
   */
  signal(signal: NodeJS.Signals): void;
}

/** Runs `command` in the container as the image's user, with `env` on top of the image's and `volumes` (host:container) mounted. */
export function runInContainer(
  container: Container,
  command: readonly string[],
  options: { env?: Record<string, string>; volumes?: string[] } = {},
): ContainerProcess {
  const envArgs = Object.entries(options.env ?? {}).flatMap(([name, value]) => ["--env", `${name}=${value}`]);
  const volumeArgs = (options.volumes ?? []).flatMap((volume) => ["--volume", volume]);
  const child = spawn("buildah", [...BUILDAH, "run", "--isolation", "chroot", ...envArgs, ...volumeArgs, container.name, "--", ...command]);
  return {
    ...watchChild(child),
    signal: (signal) => {
      const pid = descendantRunning(child.pid!, command[0]!);
      if (pid === undefined) throw new Error(`no ${command[0]} process under buildah run (pid ${child.pid})`);
      process.kill(pid, signal);
    },
  };
}

/** The first descendant of `ancestor` whose command is `executable` (by /proc: the command buildah started in the container). */
function descendantRunning(ancestor: number, executable: string): number | undefined {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      parentOf.set(Number(entry), Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]));
    } catch {
      // Gone since the listing.
    }
  }
  const descends = (pid: number): boolean => {
    for (let at = parentOf.get(pid); at !== undefined && at > 1; at = parentOf.get(at)) if (at === ancestor) return true;
    return false;
  };
  for (const pid of parentOf.keys()) {
    if (!descends(pid)) continue;
    try {
      const argv0 = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "";
      if (argv0 === executable || argv0.endsWith(`/${executable}`)) return pid;
    } catch {
      // Gone since the listing.
    }
  }
  return undefined;
}
