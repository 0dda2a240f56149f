/**
 * The pure half of src/app/redis-guard.ts and its setting: which eviction policies the App refuses and why, the
 * connection options REDIS_URL and REDIS_TLS_CA_PATH give ioredis and BullMQ alike, and what parseAppEnv says about a
 * CA file it cannot use. The half that talks to Redis is test/e2e/app/redis-guard.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAppEnv } from "../../../src/app/env.js";
import { evictionPolicyRisk, redactUrl, redisConnectionOptions, redisPasswordOf } from "../../../src/app/redis-guard.js";
import { REQUIRED_VALUES, appConfigurationError } from "../../helpers/app-settings.js";

const dir = mkdtempSync(join(tmpdir(), "arb-redis-guard-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const configurationError = (env: Record<string, string>): string => appConfigurationError({ ...REQUIRED_VALUES, ...env }).message;

describe("evictionPolicyRisk", () => {
  it("accepts only noeviction, in any case", () => {
    expect(evictionPolicyRisk("noeviction")).toBeNull();
    expect(evictionPolicyRisk(" NoEviction ")).toBeNull();
  });

  it("refuses every allkeys-* and volatile-* policy, saying which keys each would take", () => {
    for (const policy of ["allkeys-lru", "allkeys-lfu", "allkeys-random"]) expect(evictionPolicyRisk(policy)).toMatch(/evict any key/);
    for (const policy of ["volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"])
      expect(evictionPolicyRisk(policy)).toMatch(/locks and leases/);
    expect(evictionPolicyRisk("some-future-policy")).toMatch(/only noeviction/);
  });
});

describe("redisConnectionOptions", () => {
  it("takes the password, the ACL user and the database from the URL, decoded", () => {
    expect(redisConnectionOptions("redis://:p%40ss%3Aw0rd@redis.internal:6380/2")).toEqual({
      host: "redis.internal",
      port: 6380,
      password: "p@ss:w0rd",
      db: 2,
    });
    expect(redisConnectionOptions("redis://bridge:secret@10.0.0.5")).toEqual({
      host: "10.0.0.5",
      port: 6379,
      username: "bridge",
      password: "secret",
    });
  });

  it("turns TLS on for rediss://, with the CA when one is given (for this connection only)", () => {
    expect(redisConnectionOptions("rediss://:x@redis.example.com:6380").tls).toEqual({});
    expect(redisConnectionOptions("rediss://redis.example.com", { tlsCa: "PEM" }).tls).toEqual({ ca: ["PEM"] });
    expect(redisConnectionOptions("redis://redis.example.com", { tlsCa: "PEM" }).tls).toBeUndefined();
  });

  it("never lets the password into a URL it prints, and knows it for the redactor", () => {
    expect(redactUrl("redis://bridge:secret@host:6379/0")).toBe("redis://bridge:***@host:6379/0");
    expect(redisPasswordOf("redis://:p%40ss@host")).toBe("p@ss");
    expect(redisPasswordOf("redis://host")).toBeUndefined();
    expect(redisPasswordOf(undefined)).toBeUndefined();
  });
});

describe("REDIS_PASSWORD", () => {
  it("stands in for the URL's password, untrimmed and not percent-encoded", () => {
    const settings = parseAppEnv({ ...REQUIRED_VALUES, REDIS_URL: "redis://bridge@redis:6379", REDIS_PASSWORD: "a@b/c:d " });
    expect(settings.redisPassword).toBe("a@b/c:d ");
    expect(redisConnectionOptions(settings.redisUrl!, { password: settings.redisPassword })).toMatchObject({
      username: "bridge",
      password: "a@b/c:d ",
    });
  });

  it("is refused without REDIS_URL, or when the URL carries a password too", () => {
    expect(configurationError({ REDIS_PASSWORD: "x" })).toContain("REDIS_PASSWORD (set without REDIS_URL");
    expect(configurationError({ REDIS_URL: "redis://:y@redis:6379", REDIS_PASSWORD: "x" })).toContain("give it in one place only");
  });
});

describe("REDIS_TLS_CA_PATH", () => {
  it("reads the CA file with rediss://", () => {
    const ca = join(dir, "ca.pem");
    writeFileSync(ca, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    expect(parseAppEnv({ ...REQUIRED_VALUES, REDIS_URL: "rediss://redis:6380", REDIS_TLS_CA_PATH: ca }).redisTlsCa).toContain(
      "BEGIN CERTIFICATE",
    );
  });

  it("is refused with redis:// (no TLS), a missing file, or a file without a certificate, each named", () => {
    const notPem = join(dir, "not.pem");
    writeFileSync(notPem, "hello");
    expect(configurationError({ REDIS_URL: "redis://redis:6379", REDIS_TLS_CA_PATH: notPem })).toContain(
      "REDIS_TLS_CA_PATH (set, but REDIS_URL does not start with rediss://",
    );
    expect(configurationError({ REDIS_URL: "rediss://redis:6379", REDIS_TLS_CA_PATH: join(dir, "absent.pem") })).toContain("cannot read");
    expect(configurationError({ REDIS_URL: "rediss://redis:6379", REDIS_TLS_CA_PATH: notPem })).toContain("holds no PEM certificate");
  });
});
