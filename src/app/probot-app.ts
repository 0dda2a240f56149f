/**
 * The Probot app function: it takes its dependencies (backend, engine, service client, identity)
 * and only routes events to the webhook handler, which stores the delivery (handlers/webhook.ts);
 * the work it asks for runs in the queue's workers.
 */
import type { Probot } from "probot";
import { receiveDelivery } from "./handlers/webhook.js";
import { forDelivery, type AppDependencies, type AppIdentity } from "./handlers/types.js";
import { deliveryAttributes, withSpan } from "./ops/tracing.js";

/** The events the App subscribes to (app.yml's `default_events`); every action arrives, core decides which count. */
export const APP_EVENTS = [
  "issue_comment",
  "issues",
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "check_suite",
] as const;

export function createAgentRunApp(deps: AppDependencies): (app: Probot) => void {
  return (app) => {
    app.on([...APP_EVENTS], async (context) => {
      const delivery = { id: context.id, name: context.name, payload: context.payload };
      const receipt = await withSpan("delivery receive", deliveryAttributes(delivery), async (span) => {
        const answer = await receiveDelivery(delivery, forDelivery(deps, delivery));
        span.setAttributes({ "bridge.receipt": answer });
        return answer;
      });
      deps.observer?.received(context.name, receipt);
      deps.deliveries?.received(delivery, receipt);
      if (receipt === "duplicate") context.log.info({ delivery: context.id }, "delivery already received; a redelivery changes nothing");
    });
  };
}

/** Reads the App's own slug and name once (`GET /app`, authenticated as the App itself). */
export async function fetchAppIdentity(probot: Probot): Promise<AppIdentity> {
  const octokit = await probot.auth();
  const { data } = await octokit.request("GET /app");
  const app = data as { slug?: string; name?: string } | null;
  if (!app?.slug) throw new Error("GET /app answered without a slug: is APP_ID the id of a GitHub App?");
  return { slug: app.slug, name: app.name ?? app.slug, botLogins: [`${app.slug}[bot]`] };
}
