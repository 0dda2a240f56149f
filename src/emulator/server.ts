/**
 * Assembles the emulator: one fastify app with the service API (/v1), the HTML pages and the
 * control endpoints (/_emulator), errors answered in the FastAPI shapes the service uses.
 */
import { createRequire } from "node:module";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { errorAnswers } from "./api-gate.js";
import { registerApiRoutes } from "./api-routes.js";
import { createControl, createState, registerAdminRoutes } from "./control.js";
import type { EmulatorState } from "./control.js";
import { resolveOptions } from "./options.js";
import { registerPageRoutes } from "./pages.js";
import type { EmulatorControl, EmulatorOptions } from "./types.js";

/**
 * fastify and the 19 packages it loads are required when an emulator is built, not when
 * `agent-run-bridge/emulator` is imported: a script that imports it pays nothing until it starts one.
 */
const loadFastify = () => createRequire(import.meta.url)("fastify") as typeof import("fastify");

/** Base64 images make bodies large; the real limit is not documented. */
const BODY_LIMIT_BYTES = 10 * 1024 * 1024;

export interface EmulatorServer {
  app: FastifyInstance;
  control: EmulatorControl;
  state: EmulatorState;
}

export function createEmulatorServer(options: EmulatorOptions = {}): EmulatorServer {
  const resolved = resolveOptions(options);
  const state = createState(resolved);
  const control = createControl(state);
  // No automatic HEAD routes: every API request must pass the same checks, under its own route name.
  // Closing drops every connection at once: a client elsewhere that still holds one (a keep-alive
  // pool of another process aimed at a reused port) must not keep a test's emulator open.
  const app = loadFastify()({ logger: resolved.logger, bodyLimit: BODY_LIMIT_BYTES, exposeHeadRoutes: false, forceCloseConnections: true });
  const { failure, invalid } = errorAnswers(resolved.errorStyle);
  const send = (reply: FastifyReply, answer: { status: number; body: unknown }) => reply.code(answer.status).send(answer.body);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    switch (error.code) {
      case "FST_ERR_CTP_INVALID_JSON_BODY":
        return send(reply, invalid([{ loc: ["body"], msg: "JSON decode error: the body is not valid JSON", type: "json_invalid" }]));
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return send(
          reply,
          invalid([{ loc: ["body"], msg: "Field required: the body is empty but Content-Type says JSON", type: "missing" }]),
        );
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return send(reply, failure(415, "unsupported body type: send JSON with the header Content-Type: application/json"));
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return send(reply, failure(413, `the body is larger than ${BODY_LIMIT_BYTES} bytes`));
    }
    const status = error.statusCode ?? 500;
    if (status < 500) return send(reply, failure(status, error.message));
    request.log.error(error);
    return send(reply, failure(500, "Internal Server Error"));
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: "Not Found" }));

  registerApiRoutes(app, state);
  registerPageRoutes(app, state);
  registerAdminRoutes(app, control);
  return { app, control, state };
}
