/**
 * The GitHub App as its own process, the way `agent-run app` runs it: `startApp(process.env)`,
 * configured through the environment only (AGENT_RUN_TIME_SCALE compresses the App's GitHub write
 * pacing with every other rate window). The parent talks to it over the IPC channel: it is told where the App listens, and asks for memory
 * readings taken inside the process.
 */
import { readFileSync } from "node:fs";
import { getHeapSpaceStatistics } from "node:v8";
import { startApp } from "../../src/app/main.js";

export type AppProcessMessage =
  { type: "ready"; url: string; webhookUrl: string } | { type: "memory"; reading: MemoryReading } | { type: "failed"; message: string };

export type ParentMessage = { type: "memory"; afterGc: boolean } | { type: "stop" };

export interface MemoryReading {
  now: MemorySample;
  /** After a full collection (the process runs with --expose-gc): what is actually live; null when not asked. */
  afterGc: MemorySample | null;
}

export interface MemorySample {
  rss: number;
  /** The most resident memory the process ever had (VmHWM), when the OS says; else null. */
  peakRss: number | null;
  /** RSS split by the OS (RssAnon: heap, malloc, stacks; RssFile: the node binary, mapped files), when it says; else null. */
  anonRss: number | null;
  fileRss: number | null;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** V8's young and old generations as allocated (committed), in bytes. */
  newSpace: number;
  oldSpace: number;
}

/** Fields of /proc/self/status in bytes (Linux only; null elsewhere). */
function procStatus(): (field: string) => number | null {
  let status = "";
  try {
    status = readFileSync("/proc/self/status", "utf8");
  } catch {
    // Not Linux: the OS-level fields stay null.
  }
  return (field) => {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, "m").exec(status);
    return match ? Number(match[1]) * 1024 : null;
  };
}

const spaceSize = (name: string) => getHeapSpaceStatistics().find((space) => space.space_name === name)?.space_size ?? 0;

function memorySample(): MemorySample {
  const usage = process.memoryUsage();
  const status = procStatus();
  return {
    rss: usage.rss,
    peakRss: status("VmHWM"),
    anonRss: status("RssAnon"),
    fileRss: status("RssFile"),
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    newSpace: spaceSize("new_space"),
    oldSpace: spaceSize("old_space"),
  };
}

function send(message: AppProcessMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  if (!process.send) throw new Error("the App process is started by a benchmark over an IPC channel (child_process.fork)");
  const app = await startApp(process.env);
  process.on("message", (message: ParentMessage) => {
    if (message.type === "memory") {
      const now = memorySample();
      const gc = (globalThis as { gc?: () => void }).gc;
      let afterGc: MemorySample | null = null;
      if (message.afterGc && gc) {
        gc();
        afterGc = memorySample();
      }
      send({ type: "memory", reading: { now, afterGc } });
    }
    if (message.type === "stop") {
      void app.close().finally(() => process.exit(0));
    }
  });
  // The parent going away must not leave the App running.
  process.on("disconnect", () => {
    void app.close().finally(() => process.exit(0));
  });
  send({ type: "ready", url: app.url, webhookUrl: app.webhookUrl });
}

main().catch((error: unknown) => {
  send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
  process.disconnect?.();
});
