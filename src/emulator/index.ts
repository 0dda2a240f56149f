/**
 * A faithful local implementation of the Agent Run Service (spec §4), for the demo, the CLI
 * (`agent-run emulator`), benchmarks and tests. `startEmulator()` listens on loopback;
 * `buildEmulator()` gives the fastify app for `inject()`.
 */
import type { AddressInfo } from "node:net";
import { createEmulatorServer } from "./server.js";
import type { BuiltEmulator, EmulatorOptions, RunningEmulator } from "./types.js";

export type {
  BuiltEmulator,
  EmulatorControl,
  EmulatorOptions,
  EmulatorStats,
  Faults,
  RunningEmulator,
  RunScript,
  ScriptedPullRequest,
  StatusVocabulary,
} from "./types.js";
export { API_ROUTES } from "./api-routes.js";
export type { ApiRoute, ApiRouteName } from "./api-routes.js";
export { ADMIN_PREFIX } from "./control.js";
export { DEFAULT_ORG_ID, DEFAULT_TOKEN } from "./options.js";
export { DEFAULT_RUN_SCRIPT } from "./scripts.js";
export { STATUS_WORDS } from "./lifecycle.js";

export function buildEmulator(options: EmulatorOptions = {}): BuiltEmulator {
  const { app, control } = createEmulatorServer(options);
  return { app, control };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { app, control, state } = createEmulatorServer(options);
  await app.listen({ host: state.options.host, port: state.options.port });
  const address = app.server.address() as AddressInfo;
  const listeningUrl = `http://${urlHost(address.address)}:${address.port}`;
  state.base.url = state.options.publicUrl ?? listeningUrl;
  const first = state.options.tokens[0]!;
  return {
    url: listeningUrl,
    token: first.token,
    orgId: first.orgIds[0] ?? 0,
    close: () => app.close(),
    control,
  };
}

/** A wildcard bind is reached on loopback; IPv6 literals need brackets in a URL. */
function urlHost(address: string): string {
  if (address === "0.0.0.0") return "127.0.0.1";
  if (address === "::") return "[::1]";
  return address.includes(":") ? `[${address}]` : address;
}
