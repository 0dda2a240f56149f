/**
 * Real webhook payloads from `@octokit/webhooks-examples`, deep-copied so a test can adapt the
 * few fields it must (a comment body, a conclusion) without touching the shared examples.
 */
import { createRequire } from "node:module";
import type { WebhookDefinition } from "@octokit/webhooks-examples";
import type { WebhookEventMap, WebhookEventName } from "@octokit/webhooks-types";

// The package is CommonJS JSON; `require` reads it the same under tsc, vitest and Node.
const definitions = createRequire(import.meta.url)("@octokit/webhooks-examples") as WebhookDefinition[];

export function webhookExample<N extends WebhookEventName>(
  name: N,
  matches: (payload: WebhookEventMap[N]) => boolean = () => true,
): WebhookEventMap[N] {
  const definition = definitions.find((d) => d.name === name);
  const found = (definition?.examples as WebhookEventMap[N][] | undefined)?.find(matches);
  if (!found) throw new Error(`no example of ${name} matches`);
  return structuredClone(found);
}

export const hasAction =
  (action: string) =>
  (payload: object): boolean =>
    "action" in payload && payload.action === action;
