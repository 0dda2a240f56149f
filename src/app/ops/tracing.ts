/**
 * OpenTelemetry traces of a delivery's path, off by default and free when off: this module imports no
 * OpenTelemetry package. `startApp` loads ops/otel.ts (the SDK and the OTLP exporter, optional peers)
 * only when OTEL_TRACES_EXPORTER=otlp and installs it here; until then `withSpan` just calls its
 * function. The seams (server, receive, store, worker, decision, engine steps, thread writer) call
 * these helpers. Attributes are ids and codes only: never a prompt, a comment body or a token.
 */
import { BRIDGE_NAME } from "../../version.js";

/** Ids and codes; undefined and null are left out. */
export type SpanAttributes = Record<string, string | number | boolean | null | undefined>;

export interface SpanHandle {
  setAttributes(attributes: SpanAttributes): void;
}

export interface SpanOptions {
  /** A W3C `traceparent` carried by a queued job: the span continues that trace, on whatever replica. */
  parent?: string | undefined;
  kind?: "server" | "consumer" | "internal";
}

/** What ops/otel.ts provides once tracing is on. */
export interface Tracing {
  span<T>(name: string, attributes: SpanAttributes, fn: (span: SpanHandle) => Promise<T>, options?: SpanOptions): Promise<T>;
  /** The current span's context as a W3C `traceparent`, to store with a job; undefined outside a span. */
  traceparent(): string | undefined;
  /** Adds attributes to the current span. */
  annotate(attributes: SpanAttributes): void;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

type SamplerName =
  "always_on" | "always_off" | "traceidratio" | "parentbased_always_on" | "parentbased_always_off" | "parentbased_traceidratio";

/** Tracing as the OTEL_* variables configure it. */
export interface TracingSettings {
  /** Where spans are POSTed as OTLP/HTTP JSON (`…/v1/traces`). */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: SamplerName;
  /** The ratio of `traceidratio` samplers, 0 to 1. */
  samplerRatio: number;
}

const NO_SPAN: SpanHandle = { setAttributes() {} };
let installed: Tracing | null = null;

/** Turns tracing on for this process (startApp, when configured); returns what turns it off again. */
export function installTracing(tracing: Tracing): () => Promise<void> {
  installed = tracing;
  return async () => {
    if (installed === tracing) installed = null;
    await tracing.shutdown();
  };
}

/** Runs `fn` in a span named `name`; with tracing off, just runs it. */
export function withSpan<T>(
  name: string,
  attributes: SpanAttributes,
  fn: (span: SpanHandle) => Promise<T>,
  options?: SpanOptions,
): Promise<T> {
  return installed ? installed.span(name, attributes, fn, options) : fn(NO_SPAN);
}

/** The current span as a W3C `traceparent` (to store with a job), or undefined (tracing off, or outside a span). */
export function currentTraceparent(): string | undefined {
  return installed?.traceparent();
}

/** Adds ids or codes learnt along the way (the run id once created) to the current span. */
export function annotateSpan(attributes: SpanAttributes): void {
  installed?.annotate(attributes);
}

/** What a delivery's spans say of it: ids only (a private repository's name is not among them). */
export function deliveryAttributes(delivery: { id: string; name: string; payload: unknown }): SpanAttributes {
  const payload = (typeof delivery.payload === "object" && delivery.payload !== null ? delivery.payload : {}) as {
    action?: unknown;
    installation?: { id?: unknown };
    repository?: { id?: unknown };
  };
  const id = (value: unknown) => (typeof value === "number" ? value : undefined);
  return {
    "github.delivery.id": delivery.id,
    "github.event": delivery.name,
    "github.action": typeof payload.action === "string" ? payload.action.slice(0, 64) : undefined,
    "github.installation.id": id(payload.installation?.id),
    "github.repository.id": id(payload.repository?.id),
  };
}

/** `{ traceparent }` to spread into a job's data, or nothing (tracing off). */
export function withTraceparent(traceparent: string | undefined): { traceparent?: string } {
  return traceparent === undefined ? {} : { traceparent };
}

/** What a decision's span says: the action planned, its code, the flow and the thread's number. */
export function decisionAttributes(prepared: {
  action: string;
  plan: { action: string; code?: string | undefined };
  trigger: { flow: string };
  thread?: { number: number } | null;
}): SpanAttributes {
  return {
    "bridge.decision": prepared.action,
    "bridge.decision.code": prepared.plan.code,
    "bridge.flow": prepared.trigger.flow,
    "github.thread.number": prepared.thread?.number,
  };
}

/** What a task step's span says: the task, its run, the thread's number, the state it was in and the run's last status. */
export function taskAttributes(task: {
  id: number;
  kind: string;
  state: string;
  runId: number | null;
  lastStatus: string | null;
  thread: { installationId: number | null; issueNumber: number };
}): SpanAttributes {
  return {
    "bridge.task.id": task.id,
    "bridge.task.kind": task.kind,
    "bridge.task.state": task.state,
    "bridge.run.id": task.runId,
    "bridge.run.status": task.lastStatus,
    "github.installation.id": task.thread.installationId,
    "github.thread.number": task.thread.issueNumber,
  };
}

const SAMPLERS: readonly SamplerName[] = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
];

/**
 * Reads the standard OTEL_* variables; null when tracing is off (OTEL_TRACES_EXPORTER unset or `none`,
 * or OTEL_SDK_DISABLED=true). Every variable is read either way, so a mistake is reported even when off.
 * Problems are pushed onto `invalid` in the words of the App's configuration error.
 */
export function readTracingSettings(value: (name: string) => string | undefined, invalid: string[]): TracingSettings | null {
  const exporter = value("OTEL_TRACES_EXPORTER")?.toLowerCase() ?? "none";
  const disabled = value("OTEL_SDK_DISABLED")?.toLowerCase() === "true";
  const protocol = value("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? value("OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/json";
  const tracesEndpoint = value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const endpoint = value("OTEL_EXPORTER_OTLP_ENDPOINT");
  const headersText = value("OTEL_EXPORTER_OTLP_TRACES_HEADERS") ?? value("OTEL_EXPORTER_OTLP_HEADERS");
  const serviceName = value("OTEL_SERVICE_NAME");
  const resourceText = value("OTEL_RESOURCE_ATTRIBUTES");
  const sampler = (value("OTEL_TRACES_SAMPLER")?.toLowerCase() ?? "parentbased_always_on") as SamplerName;
  const samplerArg = value("OTEL_TRACES_SAMPLER_ARG");

  const before = invalid.length;
  if (exporter !== "none" && exporter !== "otlp")
    invalid.push(`OTEL_TRACES_EXPORTER (the App exports traces with otlp, or not at all with none; got "${exporter}")`);
  if (protocol !== "http/json")
    invalid.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL (the App sends traces as http/json only, which every OpenTelemetry Collector accepts on port 4318; got "${protocol}")`,
    );
  const url = tracesEndpoint ?? `${(endpoint ?? "http://localhost:4318").replace(/\/+$/, "")}/v1/traces`;
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    invalid.push(
      `${tracesEndpoint ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT"} (must be an http:// or https:// URL)`,
    );
  const headers = readPairs(headersText, "OTEL_EXPORTER_OTLP_HEADERS", invalid);
  const resourceAttributes = readPairs(resourceText, "OTEL_RESOURCE_ATTRIBUTES", invalid);
  if (!SAMPLERS.includes(sampler)) invalid.push(`OTEL_TRACES_SAMPLER (one of ${SAMPLERS.join(", ")}; got "${sampler}")`);
  const samplerRatio = samplerArg === undefined ? 1 : Number(samplerArg);
  if (sampler.endsWith("traceidratio") && !(samplerRatio >= 0 && samplerRatio <= 1))
    invalid.push(`OTEL_TRACES_SAMPLER_ARG (a ratio from 0 to 1 for ${sampler}; got "${samplerArg}")`);

  if (disabled || exporter !== "otlp" || invalid.length > before) return null;
  return {
    url,
    headers,
    serviceName: serviceName ?? resourceAttributes["service.name"] ?? BRIDGE_NAME,
    resourceAttributes,
    sampler,
    samplerRatio,
  };
}

/** `key=value,key=value`, percent-decoded (the OTel format of headers and resource attributes); never quotes a value back. */
function readPairs(text: string | undefined, name: string, invalid: string[]): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const entry of (text ?? "").split(",")) {
    if (entry.trim() === "") continue;
    const at = entry.indexOf("=");
    try {
      if (at <= 0) throw new Error("no =");
      pairs[decodeURIComponent(entry.slice(0, at).trim())] = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      invalid.push(`${name} (must be key=value pairs separated by commas, percent-encoded)`);
      return {};
    }
  }
  return pairs;
}
