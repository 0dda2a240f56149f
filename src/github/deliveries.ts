/**
 * An App's webhook deliveries (`GET /app/hook/deliveries`, newest first, cursor pagination) and
 * redelivery (`POST /app/hook/deliveries/{id}/attempts`). Both need the App's own JWT
 * (`probot.auth()` without an installation id), not an installation token.
 */
import type { DeliveryAttempt } from "../core/delivery-recovery.js";
import { MAX_PER_PAGE, type GitHubClient } from "./client.js";
import { callGitHub } from "./errors.js";

interface DeliveryItem {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  status_code: number;
  event: string;
}

/** The `cursor` of the Link header's rel="next", or undefined on the last page. */
function nextCursorFromLink(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="next"/.exec(part);
    if (match) return new URL(match[1]!).searchParams.get("cursor") ?? undefined;
  }
  return undefined;
}

/**
 * Reads deliveries newest first, page after page, until `reachedEnough(page)` says the page goes
 * back far enough, there is no next page, or `maxPages` were read (`complete` is then false).
 */
export function listAppDeliveries(
  octokit: GitHubClient,
  options: { maxPages: number; reachedEnough: (page: DeliveryAttempt[]) => boolean },
): Promise<{ attempts: DeliveryAttempt[]; pages: number; complete: boolean }> {
  return callGitHub("listing the App's webhook deliveries", async () => {
    const attempts: DeliveryAttempt[] = [];
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const response = await octokit.request("GET /app/hook/deliveries", {
        per_page: MAX_PER_PAGE,
        ...(cursor ? { cursor } : {}),
      });
      const page = (response.data as DeliveryItem[]).map((item): DeliveryAttempt => ({
        id: item.id,
        guid: item.guid,
        deliveredAt: item.delivered_at,
        redelivery: item.redelivery,
        statusCode: item.status_code,
        event: item.event,
      }));
      attempts.push(...page);
      cursor = nextCursorFromLink(response.headers.link);
      if (cursor === undefined || page.length === 0 || options.reachedEnough(page)) {
        return { attempts, pages, complete: true };
      }
      if (pages >= options.maxPages) return { attempts, pages, complete: false };
    }
  });
}

/** Asks GitHub to deliver this attempt's payload again (202); it arrives as a new attempt with the same GUID. */
export function redeliverAppDelivery(octokit: GitHubClient, attemptId: number): Promise<void> {
  return callGitHub(`asking GitHub to redeliver webhook delivery ${attemptId}`, async () => {
    await octokit.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: attemptId });
  });
}
