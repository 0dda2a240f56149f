/**
 * Tracing on: the OpenTelemetry SDK behind ops/tracing.ts. Loaded only when OTEL_TRACES_EXPORTER=otlp
 * (its packages are optional peers and weigh several MB). Spans are batched and POSTed as OTLP/HTTP
 * JSON; a job's `traceparent` is parsed here so that the replica taking it continues the delivery's trace.
 */
import {
  context,
  diag,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
} from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from "@opentelemetry/sdk-trace-node";
import { BRIDGE_NAME, BRIDGE_VERSION } from "../../version.js";
import type { SpanAttributes, SpanOptions, Tracing, TracingSettings } from "./tracing.js";

const KINDS = { server: SpanKind.SERVER, consumer: SpanKind.CONSUMER, internal: SpanKind.INTERNAL } as const;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function samplerOf(settings: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(settings.samplerRatio);
  switch (settings.sampler) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio;
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function attributesOf(attributes: SpanAttributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) kept[key] = value;
  return kept;
}

/** The context a stored `traceparent` names, as a remote parent; undefined when there is none or it is malformed. */
function contextOfTraceparent(traceparent: string | undefined): Context | undefined {
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent);
  if (!match) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16), isRemote: true });
}

/** Where the SDK's own trouble goes (a receiver that refuses or cannot be reached): the App's log, as warnings. */
export interface TracingLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

function wordsOf(args: unknown[]): string {
  return args
    .map((arg) => (arg instanceof Error ? arg.message : typeof arg === "string" ? arg : ""))
    .join(" ")
    .trim();
}

export function startTracing(settings: TracingSettings, log?: TracingLog): Tracing {
  if (log) {
    const warn = (message: string, ...args: unknown[]) => log.warn({ detail: wordsOf(args) }, `tracing: ${message}`);
    diag.setLogger(
      { error: warn, warn, info() {}, debug() {}, verbose() {} },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    );
  }
  const exporter = new OTLPTraceExporter({ url: settings.url, headers: settings.headers });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      ...settings.resourceAttributes,
      "service.name": settings.serviceName,
      "service.version": BRIDGE_VERSION,
    }),
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The AsyncLocalStorage context manager, so that a span is the parent of what its function awaits; no global propagator (the queue carries the context).
  provider.register({ propagator: null });
  const tracer = provider.getTracer(BRIDGE_NAME, BRIDGE_VERSION);

  return {
    async span(name, attributes, fn, options: SpanOptions = {}) {
      const parent = contextOfTraceparent(options.parent) ?? context.active();
      const span = tracer.startSpan(name, { kind: KINDS[options.kind ?? "internal"], attributes: attributesOf(attributes) }, parent);
      try {
        return await context.with(trace.setSpan(parent, span), () =>
          fn({ setAttributes: (more) => span.setAttributes(attributesOf(more)) }),
        );
      } catch (error) {
        // The error's type only: its message may quote what GitHub or the service said about private content.
        const type = error instanceof Error ? error.name : typeof error;
        span.setAttribute("error.type", type);
        const status = (error as { status?: unknown } | null)?.status;
        if (typeof status === "number") span.setAttribute("http.response.status_code", status);
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
        throw error;
      } finally {
        span.end();
      }
    },
    traceparent() {
      const spanContext = trace.getSpanContext(context.active());
      if (!spanContext || !trace.isSpanContextValid(spanContext)) return undefined;
      return `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags & 1}`;
    },
    annotate(attributes) {
      trace.getActiveSpan()?.setAttributes(attributesOf(attributes));
    },
    shutdown: async () => {
      // Spans that cannot be sent at shutdown are lost, said once: they never stop the App from ending cleanly.
      await provider
        .shutdown()
        .catch((error: unknown) => log?.warn({ detail: wordsOf([error]) }, "tracing: the last spans could not be sent"));
      diag.disable();
    },
  };
}
