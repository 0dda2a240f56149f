/**
 * A certificate authority and a server certificate for 127.0.0.1, made with `openssl` in a temporary
 * directory for one test and deleted after it: no key is ever committed. The CA file is what a client
 * is told to trust (REDIS_TLS_CA_PATH); `otherCaFile` is a CA that signed nothing the server has.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ThrowawayTls {
  dir: string;
  caFile: string;
  otherCaFile: string;
  certFile: string;
  keyFile: string;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  const run = spawnSync("openssl", args, { cwd, encoding: "utf8" });
  if (run.error || run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.error?.message ?? run.stderr}`);
}

/** Whether `openssl` can be run from the PATH. */
export function opensslAvailable(): boolean {
  const probe = spawnSync("openssl", ["version"], { stdio: "ignore" });
  return probe.error === undefined && probe.status === 0;
}

export function makeThrowawayTls(): ThrowawayTls {
  const dir = mkdtempSync(join(tmpdir(), "arb-tls-"));
  const days = ["-days", "1"];
  openssl(
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", ...days, "-subj", "/CN=arb test CA"],
    dir,
  );
  openssl(
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "other.key", "-out", "other.crt", ...days, "-subj", "/CN=another CA"],
    dir,
  );
  openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"], dir);
  writeFileSync(join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  openssl(
    [
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "server.crt",
      ...days,
      "-extfile",
      "server.ext",
    ],
    dir,
  );
  return {
    dir,
    caFile: join(dir, "ca.crt"),
    otherCaFile: join(dir, "other.crt"),
    certFile: join(dir, "server.crt"),
    keyFile: join(dir, "server.key"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
