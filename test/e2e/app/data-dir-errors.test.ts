/**
 * `agent-run app` as a child process with a DATA_DIR it cannot use: it stops at once (exit 2) with
 * a message that names DATA_DIR and the file and says what to do, and a file that is not a
 * database is left byte for byte as it was, with nothing written beside it. The tests run as root,
 * whom file modes do not stop: a DATA_DIR under a regular file cannot be created by anyone.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../../src/emulator/index.js";
import { baseSeed } from "../../helpers/app-harness.js";
import { childAppEnv } from "../../helpers/app-child-world.js";
import { spawnAppProcess } from "../../helpers/app-process.js";
import { startFakeGitHub } from "../../helpers/fake-github/index.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs the App with `dataDir` until it exits (it must, within 30 s). */
async function appWithDataDir(dataDir: string): Promise<{ code: number | null; output: string }> {
  const github = await startFakeGitHub({ seed: baseSeed() });
  const emulator = await startEmulator();
  cleanups.push(
    () => github.close(),
    () => emulator.close(),
  );
  const spawned = spawnAppProcess(childAppEnv(emulator, dataDir, github.url, { LOG_LEVEL: "info" }));
  const timer = setTimeout(() => spawned.child.kill("SIGKILL"), 30_000);
  const { code } = await spawned.exited;
  clearTimeout(timer);
  return { code, output: `${spawned.stdout()}${spawned.stderr()}` };
}

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "arb-data-dir-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("the App's start with a DATA_DIR it cannot use", () => {
  it("a DATA_DIR that cannot be created (under a regular file, which stops root too): exit 2, DATA_DIR named, what to do", async () => {
    const dir = scratch();
    writeFileSync(join(dir, "not-a-directory"), "a file\n");
    const dataDir = join(dir, "not-a-directory", "data");
    const { code, output } = await appWithDataDir(dataDir);
    expect(code).toBe(2);
    expect(output).toContain(`DATA_DIR is ${dataDir}, and the App cannot create or write that directory (ENOTDIR`);
    expect(output).toContain("Point DATA_DIR at a directory the App's user can write");
    expect(output).not.toContain("unable to open database file");
    expect(readFileSync(join(dir, "not-a-directory"), "utf8")).toBe("a file\n");
  }, 60_000);

  it("a bridge.sqlite that is not a database: exit 2, the file named, how to move it aside, and the file untouched", async () => {
    const dataDir = scratch();
    const file = join(dataDir, "bridge.sqlite");
    const garbage = Buffer.concat([Buffer.from("this was never a database\n"), randomBytes(8_192)]);
    writeFileSync(file, garbage);
    const { code, output } = await appWithDataDir(dataDir);
    expect(code).toBe(2);
    expect(output).toContain(
      `${file} is not an SQLite database, or is damaged (SQLITE_NOTADB: file is not a database); DATA_DIR is ${dataDir}.`,
    );
    expect(output).toContain("The App left the file as it is.");
    expect(output).toContain(`mv ${file} ${file}.broken`);
    expect(readFileSync(file).equals(garbage)).toBe(true);
    expect(readdirSync(dataDir)).toEqual(["bridge.sqlite"]);
  }, 60_000);

  it("a bridge.sqlite that is a directory: exit 2, the file and DATA_DIR named", async () => {
    const dataDir = scratch();
    mkdirSync(join(dataDir, "bridge.sqlite"));
    const { code, output } = await appWithDataDir(dataDir);
    expect(code).toBe(2);
    expect(output).toContain(`the App cannot open or write ${join(dataDir, "bridge.sqlite")} (SQLITE_CANTOPEN`);
    expect(output).toContain(`DATA_DIR is ${dataDir}`);
  }, 60_000);
});
