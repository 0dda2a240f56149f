/** The typed client for scripts and CI systems. The emulator is exported from "agent-run-bridge/emulator". */
export * from "./service/index.js";
export { BRIDGE_NAME, BRIDGE_VERSION } from "./version.js";
