/**
 * The App's public entry: the Probot app function (probot-app.ts), the webhook's two halves
 * (handlers/webhook.ts) and `startApp` (main.ts), which wires them to a server. Re-exports only,
 * so that nothing below imports this file.
 */
export type { AppDependencies, AppIdentity, HandlerLogger } from "./handlers/types.js";
export { processDelivery, receiveDelivery, type WebhookDelivery } from "./handlers/webhook.js";
export { APP_EVENTS, createAgentRunApp, fetchAppIdentity } from "./probot-app.js";
export { startApp, type AppHandle, type StartAppOptions } from "./main.js";
export { AppConfigurationError, parseAppEnv, type AppSettings } from "./env.js";
export { redisPasswordOf } from "./redis-guard.js";
