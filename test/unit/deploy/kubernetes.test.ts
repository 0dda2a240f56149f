/**
 * deploy/kubernetes/: a base and two overlays, `redis` (two replicas sharing a guarded Redis; also what
 * `kubectl apply -k deploy/kubernetes` applies) and `embedded` (one replica on SQLite). Each overlay is built with
 * `kubectl kustomize` and every object it yields is checked against the Kubernetes API's schemas (kubernetes-models);
 * then the objects against each other and the App: settings the App reads, probes on /healthz, resources from
 * BENCHMARKS.md, a locked-down pod, NetworkPolicies (the App reachable on its port only, Redis from the App only), a
 * Redis with a password from the Secret, noeviction and an append-only file on a volume, and an embedded App that
 * runs one pod at a time on a PersistentVolumeClaim with nothing that blocks a drain.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { afterEach, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { appSettingNames } from "../../helpers/app-settings.js";
import { runRedisCommand, untilListening } from "../../helpers/redis-command.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const DIR = fileURLToPath(new URL("../../../deploy/kubernetes/", import.meta.url));
const MODELS = { ConfigMap, Secret, Service, Deployment, StatefulSet, PodDisruptionBudget, NetworkPolicy, PersistentVolumeClaim };
type Kind = keyof typeof MODELS;

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** `kubectl kustomize` where kubectl is on the PATH (kustomize built in since 1.14; `labels:` needs its kustomize v4+). */
function kustomizeAvailable(): boolean {
  const probe = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
  const version = /Kustomize Version: v(\d+)/.exec(probe.stdout ?? "");
  return probe.status === 0 && version !== null && Number(version[1]) >= 4;
}
const KUSTOMIZE = kustomizeAvailable();
// Said once, so that a run without kubectl does not pass the overlays' checks in silence.
if (!KUSTOMIZE)
  console.warn("kubectl with kustomize v4+ is not on the PATH: the overlays' build checks are skipped (install kubectl to run them)");

/** The objects `kubectl kustomize` builds from a kustomization directory. */
function build(directory: string): Manifest[] {
  const run = spawnSync("kubectl", ["kustomize", directory], { cwd: DIR, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`kubectl kustomize ${directory} failed:\n${run.stderr}`);
  return parseAllDocuments(run.stdout).map((document) => document.toJSON() as Manifest);
}

/** Objects of a kind (and name) in a build, as their kubernetes-models class. */
function all<K extends Kind>(manifests: Manifest[], kind: K, name?: string): Array<InstanceType<(typeof MODELS)[K]>> {
  return manifests
    .filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name))
    .map((m) => new MODELS[kind](m as never) as InstanceType<(typeof MODELS)[K]>);
}
function one<K extends Kind>(manifests: Manifest[], kind: K, name?: string): InstanceType<(typeof MODELS)[K]> {
  const found = all(manifests, kind, name);
  expect(found, `${kind} ${name ?? ""}`).toHaveLength(1);
  return found[0]!;
}

/** Whether a selector's matchLabels select a pod with these labels. */
function selects(matchLabels: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  return Object.entries(matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}

/** The whole files a kustomization lists (not patches), for the schema check that needs no kubectl. */
function listedFiles(directory: string): Manifest[] {
  const kustomization = parse(readFileSync(`${DIR}${directory}/kustomization.yaml`, "utf8")) as { resources: string[] };
  return kustomization.resources
    .filter((resource) => resource.endsWith(".yaml"))
    .flatMap((file) => parseAllDocuments(readFileSync(`${DIR}${directory}/${file}`, "utf8")).map((d) => d.toJSON() as Manifest));
}

function validate(manifests: Manifest[]): void {
  for (const manifest of manifests) {
    const Model = MODELS[manifest.kind as Kind];
    expect(Model, manifest.kind).toBeDefined();
    expect(() => new Model(manifest as never).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
  }
}

describe("deploy/kubernetes files", () => {
  it("are each a valid object of its kind (checked without kubectl)", () => {
    for (const directory of ["base", "redis", "embedded"]) validate(listedFiles(directory));
  });

  it("has a schema check that can fail (a replica count written as a word)", () => {
    const broken = structuredClone(listedFiles("base").find((m) => m.kind === "Deployment")!) as Manifest & { spec: { replicas: unknown } };
    broken.spec.replicas = "two";
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas must be integer/);
  });
});

describe.skipIf(!KUSTOMIZE).each(["redis", "embedded"])("deploy/kubernetes/%s, as kubectl kustomize builds it", (overlay) => {
  const manifests = KUSTOMIZE ? build(overlay) : [];
  const deployment = () => one(manifests, "Deployment", "agent-run-bridge");
  const pod = () => deployment().spec!.template.spec!;
  const appContainer = () => pod().containers[0]!;
  const podLabels = () => deployment().spec!.template.metadata!.labels!;

  it("yields objects that each conform to the Kubernetes API schema of their kind", () => {
    expect(manifests.length).toBeGreaterThan(5);
    validate(manifests);
    for (const manifest of manifests)
      expect(manifest.metadata.labels?.["app.kubernetes.io/part-of"], manifest.kind).toBe("agent-run-bridge");
  });

  it("takes its settings from a ConfigMap and a Secret that name only settings the App reads, the credentials in the Secret", () => {
    const known = appSettingNames();
    const configMap = one(manifests, "ConfigMap", "agent-run-bridge");
    const secret = one(manifests, "Secret", "agent-run-bridge");
    const names = [...Object.keys(configMap.data ?? {}), ...Object.keys(secret.stringData ?? {})];
    expect(names.filter((name) => !known.has(name))).toEqual([]);
    for (const credential of ["PRIVATE_KEY", "WEBHOOK_SECRET", "AGENT_RUN_API_TOKEN", "REDIS_PASSWORD"]) {
      expect(Object.keys(configMap.data ?? {})).not.toContain(credential);
    }
    expect(appContainer().envFrom).toEqual([
      { configMapRef: { name: configMap.metadata!.name } },
      { secretRef: { name: secret.metadata!.name } },
    ]);
  });

  it("probes /healthz on the App's port, and limits memory above the benchmark's peak and the image's V8 heap cap", () => {
    const container = appContainer();
    expect(container.ports).toEqual([{ name: "http", containerPort: 3000 }]);
    for (const probe of [container.readinessProbe, container.livenessProbe])
      expect(probe?.httpGet).toEqual({ path: "/healthz", port: "http" });
    const { requests, limits } = container.resources!;
    const mebibytes = (quantity: unknown) => Number(/^(\d+)Mi$/.exec(String(quantity))?.[1]);
    const benchmarkPeak = /\| memory \| peak RSS \(VmHWM\) \| (\d+) MB/.exec(
      readFileSync(new URL("../../../BENCHMARKS.md", import.meta.url), "utf8"),
    );
    expect(benchmarkPeak).not.toBeNull();
    expect(mebibytes(requests!.memory) * 1.048576).toBeGreaterThan(Number(benchmarkPeak![1]));
    expect(mebibytes(limits!.memory)).toBeGreaterThan(512);
  });

  it("runs as a non-root user with a read-only root filesystem, no capabilities, and writable /data and /tmp", () => {
    const container = appContainer();
    expect(pod().securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(pod().automountServiceAccountToken).toBe(false);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
    const mounted = new Map(container.volumeMounts!.map((mount) => [mount.mountPath, mount.name]));
    for (const path of ["/data", "/tmp"])
      expect(
        pod().volumes!.find((v) => v.name === mounted.get(path)),
        path,
      ).toBeDefined();
    const pause = Number(container.lifecycle?.preStop?.exec?.command?.at(-1));
    expect(pod().terminationGracePeriodSeconds).toBeGreaterThanOrEqual(pause + 10);
  });

  it("admits traffic to the App's pods on their HTTP port only, and its Service selects them", () => {
    const policy = one(manifests, "NetworkPolicy", "agent-run-bridge");
    expect(selects(policy.spec!.podSelector.matchLabels, podLabels())).toBe(true);
    expect(policy.spec!.policyTypes).toEqual(["Ingress"]);
    expect(policy.spec!.ingress).toEqual([{ ports: [{ protocol: "TCP", port: "http" }] }]);
    expect(appContainer().ports!.map((port) => port.name)).toEqual(["http"]);
    const service = one(manifests, "Service", "agent-run-bridge");
    expect(selects(service.spec!.selector, podLabels())).toBe(true);
    expect(service.spec!.ports).toEqual([{ name: "http", port: 80, targetPort: "http" }]);
  });

  it("names the image the release workflow publishes, at the package's version", () => {
    const version = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;
    expect(appContainer().image).toBe(`ghcr.io/OWNER/agent-run-bridge:${version}`);
  });
});

describe.skipIf(!KUSTOMIZE)("deploy/kubernetes/redis", () => {
  const manifests = KUSTOMIZE ? build("redis") : [];
  const deployment = () => one(manifests, "Deployment", "agent-run-bridge");
  const redisSet = () => one(manifests, "StatefulSet", "agent-run-bridge-redis");
  const redisContainer = () => redisSet().spec!.template.spec!.containers[0]!;
  const redisCommand = () => redisContainer().command!.join(" ");

  it("is what `kubectl apply -k deploy/kubernetes` applies", () => {
    expect(build(".")).toEqual(manifests);
  });

  it("runs two replicas, replaced one at a time, with REDIS_URL naming the Redis Service (the password apart, in the Secret)", () => {
    expect(deployment().spec!.replicas).toBe(2);
    expect(deployment().spec!.strategy).toEqual({ type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    const redisUrl = new URL(one(manifests, "ConfigMap", "agent-run-bridge").data!.REDIS_URL!);
    expect(redisUrl.password).toBe("");
    const service = one(manifests, "Service", redisUrl.hostname);
    expect(service.spec!.ports!.map((port) => port.port)).toContain(Number(redisUrl.port));
    expect(selects(service.spec!.selector, redisSet().spec!.template.metadata!.labels!)).toBe(true);
    expect(Object.keys(one(manifests, "Secret", "agent-run-bridge").stringData!)).toContain("REDIS_PASSWORD");
  });

  it("runs Redis with the App's password from the Secret, noeviction, and an append-only file fsynced every second on a volume", () => {
    const secretKey = { secretKeyRef: { name: "agent-run-bridge", key: "REDIS_PASSWORD" } };
    expect(redisContainer().env).toEqual([
      { name: "REDIS_PASSWORD", valueFrom: secretKey },
      { name: "REDISCLI_AUTH", valueFrom: secretKey },
    ]);
    expect(redisCommand()).toContain("exec redis-server --maxmemory-policy noeviction --appendonly yes --appendfsync everysec");
    // On its standard input, not its command line.
    expect(redisCommand()).toContain('requirepass "$REDIS_PASSWORD"');
    expect(redisSet().spec!.volumeClaimTemplates!.map((claim) => claim.metadata!.name)).toEqual(["data"]);
    expect(redisContainer().volumeMounts).toEqual([{ name: "data", mountPath: "/data" }]);
  });

  it("refuses to start Redis without a password (its command, run with REDIS_PASSWORD empty)", async () => {
    const redis = await runRedisCommand(redisContainer().command!, { REDIS_PASSWORD: "" });
    cleanups.push(() => redis.close());
    expect((await redis.exited).code).toBe(1);
    expect(redis.output()).toContain("REDIS_PASSWORD is empty: set it in the Secret agent-run-bridge");
  });

  it("runs a Redis that requires the password and has noeviction and an everysec append-only file (its command, run here)", async () => {
    const password = "0123456789abcdef0123456789abcdef";
    const redis = await runRedisCommand(redisContainer().command!, { REDIS_PASSWORD: password });
    cleanups.push(() => redis.close());
    await untilListening(redis);
    await expect(redis.client().ping()).rejects.toThrow(/NOAUTH/);
    const client = redis.client(password);
    expect(await client.call("CONFIG", "GET", "maxmemory-policy")).toEqual(["maxmemory-policy", "noeviction"]);
    expect(await client.call("CONFIG", "GET", "appendonly")).toEqual(["appendonly", "yes"]);
    expect(await client.call("CONFIG", "GET", "appendfsync")).toEqual(["appendfsync", "everysec"]);
    expect(redis.output()).not.toContain(password);
  });

  it("lets only the App's pods reach Redis, on its port, and Redis reach nothing", () => {
    const policy = one(manifests, "NetworkPolicy", "agent-run-bridge-redis");
    const redisLabels = redisSet().spec!.template.metadata!.labels!;
    const appLabels = deployment().spec!.template.metadata!.labels!;
    expect(selects(policy.spec!.podSelector.matchLabels, redisLabels)).toBe(true);
    expect(selects(policy.spec!.podSelector.matchLabels, appLabels)).toBe(false);
    expect(policy.spec!.policyTypes).toEqual(["Ingress", "Egress"]);
    expect(policy.spec!.egress).toEqual([]);
    const [rule, ...others] = policy.spec!.ingress!;
    expect(others).toEqual([]);
    expect(rule!.ports).toEqual([{ protocol: "TCP", port: "redis" }]);
    expect(rule!.from).toHaveLength(1);
    expect(rule!.from![0]!.namespaceSelector).toBeUndefined();
    expect(selects(rule!.from![0]!.podSelector!.matchLabels, appLabels)).toBe(true);
    expect(selects(rule!.from![0]!.podSelector!.matchLabels, redisLabels)).toBe(false);
    expect(redisContainer().ports).toEqual([{ name: "redis", containerPort: 6379 }]);
  });

  it("keeps one of the two replicas through voluntary disruptions", () => {
    const pdb = one(manifests, "PodDisruptionBudget");
    expect(pdb.spec!.minAvailable).toBe(1);
    expect(pdb.spec!.selector!.matchLabels).toEqual(deployment().spec!.selector.matchLabels);
  });
});

describe.skipIf(!KUSTOMIZE)("deploy/kubernetes/embedded", () => {
  const manifests = KUSTOMIZE ? build("embedded") : [];
  const deployment = () => one(manifests, "Deployment", "agent-run-bridge");

  it("runs one replica, stopped before its successor starts, with no Redis and no disruption budget to block a drain", () => {
    expect(deployment().spec!.replicas).toBe(1);
    expect(deployment().spec!.strategy).toEqual({ type: "Recreate" });
    expect(all(manifests, "PodDisruptionBudget")).toEqual([]);
    expect(all(manifests, "StatefulSet")).toEqual([]);
    expect(manifests.map((m) => m.metadata.name)).not.toContain("agent-run-bridge-redis");
    const settings = one(manifests, "ConfigMap", "agent-run-bridge").data!;
    expect(settings.REDIS_URL).toBeUndefined();
    expect(Object.keys(one(manifests, "Secret", "agent-run-bridge").stringData!)).not.toContain("REDIS_PASSWORD");
  });

  it("keeps DATA_DIR on a ReadWriteOnce PersistentVolumeClaim", () => {
    const pod = deployment().spec!.template.spec!;
    const dataDir = one(manifests, "ConfigMap", "agent-run-bridge").data!.DATA_DIR!;
    const mount = pod.containers[0]!.volumeMounts!.find((m) => m.mountPath === dataDir);
    const volume = pod.volumes!.find((v) => v.name === mount?.name);
    expect(volume?.emptyDir).toBeUndefined();
    const claim = one(manifests, "PersistentVolumeClaim", volume?.persistentVolumeClaim?.claimName);
    expect(claim.spec!.accessModes).toEqual(["ReadWriteOnce"]);
  });
});
