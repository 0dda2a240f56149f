/**
 * The OTEL_* variables as the App reads them: off unless OTEL_TRACES_EXPORTER=otlp (and not
 * OTEL_SDK_DISABLED), the endpoint and sampler of the OpenTelemetry specification, and a clear
 * configuration error for what the App does not do (http/protobuf, another exporter, a bad ratio).
 */
import { describe, expect, it } from "vitest";
import { AppConfigurationError, parseAppEnv } from "../../../src/app/env.js";
import { readTracingSettings } from "../../../src/app/ops/tracing.js";
import { appEnv } from "../../helpers/app-harness.js";

function read(env: Record<string, string>) {
  const invalid: string[] = [];
  const settings = readTracingSettings((name) => env[name], invalid);
  return { settings, invalid };
}

describe("OTEL_* settings", () => {
  it("are off by default, with `none`, and with OTEL_SDK_DISABLED=true", () => {
    expect(read({})).toEqual({ settings: null, invalid: [] });
    expect(read({ OTEL_TRACES_EXPORTER: "none" })).toEqual({ settings: null, invalid: [] });
    expect(read({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SDK_DISABLED: "true" })).toEqual({ settings: null, invalid: [] });
    expect(parseAppEnv(appEnv({ url: "http://127.0.0.1:9", token: "t", orgId: 1 }, "/tmp/x")).tracing).toBeNull();
  });

  it("with otlp: the spec's default endpoint, sampler and a service name of its own", () => {
    expect(read({ OTEL_TRACES_EXPORTER: "otlp" }).settings).toEqual({
      url: "http://localhost:4318/v1/traces",
      headers: {},
      serviceName: "agent-run-bridge",
      resourceAttributes: {},
      sampler: "parentbased_always_on",
      samplerRatio: 1,
    });
  });

  it("reads the endpoint (the traces one as is, the base one with /v1/traces), headers, resource and sampler", () => {
    const { settings, invalid } = read({
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector.example:4318/",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc,x-tenant=ops",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=from-resource",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
    });
    expect(invalid).toEqual([]);
    expect(settings).toMatchObject({
      url: "https://collector.example:4318/v1/traces",
      headers: { authorization: "Bearer abc", "x-tenant": "ops" },
      serviceName: "from-resource",
      resourceAttributes: { "deployment.environment": "prod" },
      sampler: "parentbased_traceidratio",
      samplerRatio: 0.25,
    });
    expect(
      read({ OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/custom", OTEL_SERVICE_NAME: "bridge-eu" })
        .settings,
    ).toMatchObject({ url: "http://c:4318/custom", serviceName: "bridge-eu" });
  });

  it("refuses what it cannot do, in the App's configuration error, without quoting a header's value", () => {
    const env = {
      ...appEnv({ url: "http://127.0.0.1:9", token: "t", orgId: 1 }, "/tmp/x"),
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%zz-secret-value",
      OTEL_TRACES_SAMPLER: "traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "2",
    };
    let error: unknown;
    try {
      parseAppEnv(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppConfigurationError);
    const message = (error as Error).message;
    expect(message).toContain("OTEL_EXPORTER_OTLP_PROTOCOL (the App sends traces as http/json only");
    expect(message).toContain("OTEL_EXPORTER_OTLP_HEADERS (must be key=value pairs");
    expect(message).toContain("OTEL_TRACES_SAMPLER_ARG (a ratio from 0 to 1");
    expect(message).not.toContain("secret-value");
    expect(read({ OTEL_TRACES_EXPORTER: "jaeger" }).invalid).toEqual([
      'OTEL_TRACES_EXPORTER (the App exports traces with otlp, or not at all with none; got "jaeger")',
    ]);
    // A mistake is reported even while tracing is off.
    expect(read({ OTEL_TRACES_SAMPLER: "sometimes" }).invalid).toHaveLength(1);
  });
});
