/** Detection helpers shared by the detect, plan and ci tests: who the bot is, and a trigger or an ignore asserted. */
import { detectTrigger, type IgnoreCode } from "../../../src/core/detect/index.js";
import type { RunTrigger } from "../../../src/core/detect/triggers.js";
import type { BridgeSelf } from "../../../src/core/actors.js";
import type { BridgeEvent } from "../../../src/core/events/types.js";
import { repoConfig } from "../core-events/scenarios.js";

export const self: BridgeSelf = { appSlug: "run-bot", botLogins: ["run-bot[bot]", "helper-account"] };
export const ciOn = repoConfig({ check_suite: { enabled: true } });

export function triggerOf(event: BridgeEvent, config = repoConfig(), options = {}): RunTrigger {
  const detection = detectTrigger(event, config, self, options);
  if (detection.kind !== "trigger")
    throw new Error(`expected a trigger, got: ${detection.kind === "ignore" ? detection.reason : detection.kind}`);
  return detection.trigger;
}

export function ignored(event: BridgeEvent, config = repoConfig()): { code: IgnoreCode; reason: string } {
  const detection = detectTrigger(event, config, self);
  if (detection.kind !== "ignore")
    throw new Error(`expected ignore, got ${detection.kind === "trigger" ? `flow ${detection.trigger.flow}` : detection.kind}`);
  return { code: detection.code, reason: detection.reason };
}
