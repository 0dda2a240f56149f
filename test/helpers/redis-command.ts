/**
 * Runs a deployment file's Redis command (`sh -c <script>`, as a container would) on this machine, with the
 * `redis-server` it calls wrapped so that it listens on a free loopback port and keeps its files in a temporary
 * directory instead of 6379 and /data: everything else (the password, the policy, persistence) is the file's own.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort, redisServerAvailable, watchChild } from "./app-process.js";

export interface LocalRedisCommand {
  port: number;
  /** What the process printed, and how it ended if it did. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** A client on its port (no password: the caller authenticates, or sees that it must). */
  client(password?: string): Redis;
  close(): Promise<void>;
}

export async function runRedisCommand(command: readonly string[], env: Record<string, string>): Promise<LocalRedisCommand> {
  const [shell, flag, script] = command;
  if (!redisServerAvailable()) throw new Error("redis-server is not on the PATH");
  if (shell !== "sh" || flag !== "-c" || script === undefined) throw new Error(`expected sh -c <script>, got ${command.join(" ")}`);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "arb-redis-command-"));
  // Ahead of the file's own arguments: where to listen and write, and nothing that the file sets.
  const wrapper = join(dir, "redis-server");
  const real = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
  writeFileSync(wrapper, `#!/bin/sh\nexec "${real}" --port ${port} --bind 127.0.0.1 --dir "${dir}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  const spawned = watchChild(spawn(shell, [flag, script], { env: { PATH: `${dir}:${process.env.PATH ?? ""}`, ...env } }));
  const clients: Redis[] = [];
  return {
    port,
    output: () => spawned.stdout() + spawned.stderr(),
    exited: spawned.exited,
    client(password) {
      const client = new Redis({ host: "127.0.0.1", port, lazyConnect: true, maxRetriesPerRequest: 1, ...(password ? { password } : {}) });
      client.on("error", () => undefined);
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.disconnect();
      if (spawned.child.exitCode === null && spawned.child.signalCode === null) {
        spawned.child.kill("SIGKILL");
        await spawned.exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the command's Redis answers on its port (any answer, NOAUTH included), or it exits. */
export async function untilListening(redis: LocalRedisCommand, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void redis.exited.then(() => (exited = true));
  while (!/Ready to accept connections/.test(redis.output())) {
    if (exited) throw new Error(`the Redis command exited:\n${redis.output()}`);
    if (Date.now() > deadline) throw new Error(`the Redis command did not listen within ${timeoutMs} ms:\n${redis.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
