export * from "./wire.js";
export * from "./errors.js";
export * from "./status.js";
export * from "./budget.js";
export { AgentRunClient, RunStillGoingError, type AgentRunClientOptions, type CallOptions, type WaitOptions } from "./client.js";
