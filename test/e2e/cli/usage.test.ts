/**
 * Usage and configuration errors (exit 2, nothing sent), service errors (exit 3), and the exact
 * request the CLI sends, checked on a scripted server that records it.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { startScriptedServer } from "../../helpers/scripted-server.js";
import { cli, envFor, parseJson, startTestEmulator } from "./helpers.js";

let emulator: RunningEmulator;
let env: Record<string, string | undefined>;
let dir: string;

/** A real 1×1 PNG. */
const PNG_BYTES = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

beforeAll(async () => {
  emulator = await startTestEmulator();
  env = envFor(emulator);
  dir = await mkdtemp(join(tmpdir(), "agent-run-cli-"));
});
afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI and asserts that the emulator received no request at all. */
async function cliSendingNothing(argv: string[], options: Parameters<typeof cli>[1] = { env }) {
  const before = emulator.control.stats().requests;
  const result = await cli(argv, options);
  expect(emulator.control.stats().requests).toBe(before);
  return result;
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("usage errors exit 2 and send nothing", () => {
  it("metadata that is not JSON", async () => {
    const result = await cliSendingNothing(["create", "--prompt", "x", "--metadata", "{oops"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^agent-run: --metadata is not valid JSON/);
    expect(result.stdout).toBe("");
  });

  it("metadata that is JSON but not an object", async () => {
    const result = await cliSendingNothing(["create", "--prompt", "x", "--metadata", "[1,2]"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--metadata must be a JSON object");
    expect(result.stderr).toContain("an array");
  });

  it("metadata with a source_type the service does not know", async () => {
    const result = await cliSendingNothing(["create", "--prompt", "x", "--metadata", '{"source_type":"FAX"}']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("source_type must be one of LOCAL, MESSAGING");
    expect(result.stderr).toContain('"FAX"');
  });

  it("an image file that is not an image, and one that does not exist, are named", async () => {
    const notes = join(dir, "notes.txt");
    await writeFile(notes, "just text");
    const bad = await cliSendingNothing(["create", "--prompt", "x", "--image", notes]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--image ${notes}: not a PNG, JPEG, GIF or WebP image`);

    const missing = await cliSendingNothing(["create", "--prompt", "x", "--image", "nowhere.png"], { env, cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--image nowhere.png: cannot read it (no such file)");
  });

  it("a data: URI that is not base64", async () => {
    const result = await cliSendingNothing(["create", "--prompt", "x", "--image", "data:image/png,not-base64"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not a base64 data URI");
  });

  it("an empty prompt is refused by the client's validation (RequestValidationError)", async () => {
    const result = await cliSendingNothing(["create", "--prompt", "   "]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("prompt must not be empty");
    expect(result.stderr).toContain("Nothing was sent");
  });

  it("an empty stdin for --prompt -", async () => {
    const result = await cliSendingNothing(["create", "--prompt", "-"], { env, stdin: "\n" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("stdin was empty");
  });

  it("missing configuration names every variable at once", async () => {
    const result = await cli(["get", "1"], { env: {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("AGENT_RUN_API_URL");
    expect(result.stderr).toContain("AGENT_RUN_API_TOKEN");
    expect(result.stderr).toContain("AGENT_RUN_ORG_ID");
  });

  it("an organization id or URL that is malformed, naming where it came from", async () => {
    const org = await cliSendingNothing(["get", "1"], { env: { ...env, AGENT_RUN_ORG_ID: "acme" } });
    expect(org.code).toBe(2);
    expect(org.stderr).toContain("AGENT_RUN_ORG_ID must be a positive integer, got 'acme'");

    const url = await cliSendingNothing(["get", "1", "--api-url", "ftp://example"]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain("--api-url must be an https:// URL");

    // Plain http:// sends the token in clear text: only loopback (the emulator, the demo) may have it.
    const plain = await cliSendingNothing(["get", "1"], { env: { ...env, AGENT_RUN_API_URL: "http://agents.example.com/" } });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain(
      "AGENT_RUN_API_URL must be an https:// URL such as https://agents.example.com (plain http:// only on loopback: 127.0.0.1, ::1 or localhost), without credentials in it, got 'http://agents.example.com/'",
    );
    const withPassword = await cliSendingNothing(["get", "1", "--api-url", "https://me:hunter2@agents.example.com"]);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain("got 'https://[redacted credentials]@agents.example.com/'");
  });

  it.each([
    [["create"], "required option '--prompt <text>' not specified"],
    [["create", "--prompt", "x", "--agent-type", "robot"], "Allowed choices are native, partner_code"],
    [["create", "--prompt", "x", "--repo-id", "-3"], "--repo-id"],
    [["create", "--prompt", "x", "--timeout", "5"], "--timeout only applies with --wait"],
    [["wait", "1", "--timeout", "soon"], "it must be a positive number"],
    [["get", "abc"], "it must be a positive integer"],
    [["get"], "missing required argument 'run-id'"],
    [["launch"], "unknown command 'launch'"],
    [["wait", "1", "--poll-interval", "0"], "--poll-interval must be a positive number of seconds"],
  ])("%j", async (argv, message) => {
    const result = await cliSendingNothing(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toMatch(/^agent-run: /);
  });

  it("no command at all shows the help on stderr", async () => {
    const result = await cli([], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: agent-run");
  });
});

describe("help and version", () => {
  it("--help exits 0 on stdout, lists commands, variables and exit codes, and never the token", async () => {
    const result = await cli(["--help"], { env: { ...env, AGENT_RUN_API_TOKEN: "super-secret-value" } });
    expect(result.code).toBe(0);
    for (const name of ["create", "get", "resume", "wait", "logs", "emulator", "AGENT_RUN_API_TOKEN", "Exit codes"]) {
      expect(result.stdout).toContain(name);
    }
    const createHelp = await cli(["create", "--help"], { env: { ...env, AGENT_RUN_API_TOKEN: "super-secret-value" } });
    expect(createHelp.code).toBe(0);
    expect(createHelp.stdout).toContain("--token <token>");
    expect(result.stdout + createHelp.stdout).not.toContain("super-secret-value");
  });

  it("--version prints the package version", async () => {
    const result = await cli(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("service errors exit 3", () => {
  it("an unknown token: the hint names AGENT_RUN_API_TOKEN, never the token", async () => {
    const token = "tok-nobody-knows-4711";
    const result = await cli(["get", "1"], { env: { ...env, AGENT_RUN_API_TOKEN: token } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("401");
    expect(result.stderr).toContain("AGENT_RUN_API_TOKEN");
    expect(result.stderr).not.toContain(token);
    expect(result.stdout).toBe("");
  });

  it("a token without access to the organization (403)", async () => {
    const result = await cli(["get", "1", "--org-id", "77"], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("403");
    expect(result.stderr).toContain("AGENT_RUN_ORG_ID");
  });

  it("an unreachable service names AGENT_RUN_API_URL", async () => {
    const result = await cli(["create", "--prompt", "x"], { env: { ...env, AGENT_RUN_API_URL: await closedPortUrl() } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("ECONNREFUSED");
    expect(result.stderr).toContain("AGENT_RUN_API_URL");
  });
});

describe("flags win over the environment", () => {
  it("--api-url, --token and --org-id replace wrong values from the environment", async () => {
    const wrongEnv = { AGENT_RUN_API_URL: await closedPortUrl(), AGENT_RUN_API_TOKEN: "wrong", AGENT_RUN_ORG_ID: "9" };
    const result = await cli(
      [
        "create",
        "--prompt",
        "flags first",
        "--json",
        "--api-url",
        emulator.url,
        "--token",
        emulator.token,
        "--org-id",
        String(emulator.orgId),
      ],
      { env: wrongEnv },
    );
    expect(result.code).toBe(0);
    expect(parseJson(result.stdout).organization_id).toBe(emulator.orgId);
  });
});

describe("the request the CLI sends", () => {
  it("carries every option, the images as data URIs and the CLI's source_type", async () => {
    const png = join(dir, "screenshot.bin");
    await writeFile(png, PNG_BYTES); // sniffed from its bytes, not its extension
    const inline = `data:image/gif;base64,${Buffer.from("GIF89a").toString("base64")}`;
    const server = await startScriptedServer([{ status: 200, body: { id: 41, status: "queued", web_url: "http://x/runs/41" } }]);
    try {
      const result = await cli(
        [
          "create",
          "--prompt",
          "Fix the crash in the screenshot",
          "--repo-id",
          "7",
          "--model",
          "big-model",
          "--agent-type",
          "partner_code",
          "--metadata",
          '{"ticket":"OPS-12"}',
          "--image",
          png,
          "--image",
          inline,
          "--json",
        ],
        { env: { ...env, AGENT_RUN_API_URL: server.url } },
      );
      expect(result.code).toBe(0);
      expect(server.requests).toHaveLength(1);
      const request = server.requests[0]!;
      expect(request.method).toBe("POST");
      expect(request.path).toBe(`/v1/organizations/${emulator.orgId}/agent/run`);
      expect(request.headers.authorization).toBe(`Bearer ${emulator.token}`);
      expect(request.body).toEqual({
        prompt: "Fix the crash in the screenshot",
        repo_id: 7,
        model: "big-model",
        agent_type: "partner_code",
        metadata: { ticket: "OPS-12", source_type: "API", bridge_task_id: expect.stringMatching(/^cli-/) },
        images: [`data:image/png;base64,${PNG_BYTES.toString("base64")}`, inline],
      });
    } finally {
      await server.close();
    }
  });

  it("keeps a valid source_type chosen by the user", async () => {
    const result = await cli(["create", "--prompt", "from a chat", "--metadata", '{"source_type":"CHAT","who":"me"}', "--json"], { env });
    expect(result.code).toBe(0);
    const id = parseJson<{ id: number }>(result.stdout).id;
    expect(emulator.control.runs().find((r) => r.id === id)?.metadata).toEqual({
      source_type: "CHAT",
      who: "me",
      bridge_task_id: expect.stringMatching(/^cli-/),
    });
  });

  it("a real PNG file is accepted by the emulator", async () => {
    const png = join(dir, "tiny.png");
    await writeFile(png, PNG_BYTES);
    const result = await cli(["create", "--prompt", "look at this", "--image", "tiny.png", "--json"], { env, cwd: dir });
    expect(result.code).toBe(0);
    expect(parseJson<{ status: string }>(result.stdout).status).toBeTruthy();
  });
});
