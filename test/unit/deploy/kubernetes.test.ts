/**
 * deploy/kubernetes/: every object kustomization.yaml lists is checked against the Kubernetes API's schemas
 * (kubernetes-models), and the manifests against each other and the App: two replicas only with a REDIS_URL that
 * names the Redis Service, settings the App reads, probes on /healthz, resources from BENCHMARKS.md's memory rows,
 * a non-root pod with a read-only root filesystem and no capabilities, a PodDisruptionBudget that leaves one replica.
 */
import { readFileSync } from "node:fs";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse } from "yaml";
import { appSettingNames } from "../../helpers/app-settings.js";

const DIR = new URL("../../../deploy/kubernetes/", import.meta.url);
const MODELS = { ConfigMap, Secret, Service, Deployment, StatefulSet, PodDisruptionBudget };
type Kind = keyof typeof MODELS;

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  [field: string]: unknown;
}

const kustomization = parse(readFileSync(new URL("kustomization.yaml", DIR), "utf8")) as {
  resources: string[];
  images: Array<{ name: string; newName: string; newTag: string }>;
};
const manifests: Manifest[] = kustomization.resources.flatMap((file) =>
  parseAllDocuments(readFileSync(new URL(file, DIR), "utf8")).map((document) => document.toJSON() as Manifest),
);

function one<K extends Kind>(kind: K, name?: string): InstanceType<(typeof MODELS)[K]> {
  const found = manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  expect(found, `${kind} ${name ?? ""}`).toHaveLength(1);
  return new MODELS[kind](found[0] as never) as InstanceType<(typeof MODELS)[K]>;
}

const deployment = () => one("Deployment", "agent-run-bridge");
const appContainer = () => deployment().spec!.template.spec!.containers[0]!;

describe("deploy/kubernetes", () => {
  it("lists objects that each conform to the Kubernetes API schema of their kind", () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual(
      ["ConfigMap", "Deployment", "PodDisruptionBudget", "Secret", "Service", "Service", "StatefulSet"].sort(),
    );
    for (const manifest of manifests) {
      const Model = MODELS[manifest.kind as Kind];
      expect(Model, manifest.kind).toBeDefined();
      expect(() => new Model(manifest as never).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
  });

  it("has a schema check that can fail (a replica count written as a word)", () => {
    const broken = structuredClone(manifests.find((m) => m.kind === "Deployment")!) as Manifest & { spec: { replicas: unknown } };
    broken.spec.replicas = "two";
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas must be integer/);
  });

  it("runs two replicas only with Redis: REDIS_URL names the Redis Service and its port", () => {
    expect(deployment().spec!.replicas).toBe(2);
    const settings = one("ConfigMap", "agent-run-bridge").data!;
    const redisUrl = new URL(settings.REDIS_URL!);
    const redis = one("Service", redisUrl.hostname);
    expect(redis.spec!.ports!.map((port) => port.port)).toContain(Number(redisUrl.port));
    const statefulSet = one("StatefulSet", redisUrl.hostname);
    expect(statefulSet.spec!.template.spec!.containers[0]!.args).toEqual(expect.arrayContaining(["--appendonly", "yes"]));
    expect(statefulSet.spec!.volumeClaimTemplates).toHaveLength(1);
  });

  it("takes its settings from a ConfigMap and a Secret that name only settings the App reads", () => {
    const known = appSettingNames();
    const configMap = one("ConfigMap", "agent-run-bridge");
    const secret = one("Secret", "agent-run-bridge");
    const names = [...Object.keys(configMap.data ?? {}), ...Object.keys(secret.stringData ?? {})];
    expect(names.filter((name) => !known.has(name))).toEqual([]);
    // The credentials are in the Secret, never in the ConfigMap.
    for (const credential of ["PRIVATE_KEY", "WEBHOOK_SECRET", "AGENT_RUN_API_TOKEN"]) {
      expect(Object.keys(secret.stringData ?? {})).toContain(credential);
      expect(Object.keys(configMap.data ?? {})).not.toContain(credential);
    }
    expect(appContainer().envFrom).toEqual([
      { configMapRef: { name: configMap.metadata!.name } },
      { secretRef: { name: secret.metadata!.name } },
    ]);
  });

  it("probes /healthz on the App's port for readiness and liveness", () => {
    const container = appContainer();
    expect(container.ports).toEqual([{ name: "http", containerPort: 3000 }]);
    for (const probe of [container.readinessProbe, container.livenessProbe])
      expect(probe?.httpGet).toEqual({ path: "/healthz", port: "http" });
  });

  it("asks for memory above the benchmark's peak with 1,000 watches and limits it above the image's V8 heap cap", () => {
    const { requests, limits } = appContainer().resources!;
    const mebibytes = (quantity: unknown) => Number(/^(\d+)Mi$/.exec(String(quantity))?.[1]);
    // BENCHMARKS.md, memory: peak RSS 110 MB with 1,000 watches (target < 120 MB).
    const benchmarkPeak = /\| memory \| peak RSS \(VmHWM\) \| (\d+) MB/.exec(
      readFileSync(new URL("../../../BENCHMARKS.md", import.meta.url), "utf8"),
    );
    expect(benchmarkPeak).not.toBeNull();
    expect(mebibytes(requests!.memory) * 1.048576).toBeGreaterThan(Number(benchmarkPeak![1]));
    expect(mebibytes(limits!.memory)).toBeGreaterThan(512);
    expect(requests!.cpu).toBeDefined();
  });

  it("runs as a non-root user with a read-only root filesystem, no capabilities, and writable /data and /tmp volumes", () => {
    const pod = deployment().spec!.template.spec!;
    const container = appContainer();
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
    const mounted = new Map(container.volumeMounts!.map((mount) => [mount.mountPath, mount.name]));
    for (const path of ["/data", "/tmp"]) {
      const volume = pod.volumes!.find((v) => v.name === mounted.get(path));
      expect(volume?.emptyDir, path).toBeDefined();
    }
    // SIGTERM: the App exits within 10 s, after preStop's pause; the grace period covers both.
    const pause = Number(container.lifecycle?.preStop?.exec?.command?.at(-1));
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(pause + 10);
  });

  it("keeps one replica through voluntary disruptions, and the Service and the budget select the App's pods", () => {
    const labels = deployment().spec!.template.metadata!.labels!;
    const pdb = one("PodDisruptionBudget");
    expect(pdb.spec!.minAvailable).toBe(1);
    expect(pdb.spec!.selector!.matchLabels).toEqual(deployment().spec!.selector.matchLabels);
    const service = one("Service", "agent-run-bridge");
    expect(labels).toMatchObject(service.spec!.selector!);
    expect(service.spec!.ports).toEqual([{ name: "http", port: 80, targetPort: "http" }]);
  });

  it("names the image the release workflow publishes, at the package's version", () => {
    const version = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;
    expect(kustomization.images).toEqual([{ name: appContainer().image, newName: "ghcr.io/OWNER/agent-run-bridge", newTag: version }]);
  });
});
