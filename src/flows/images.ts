/** Images pasted into the trigger (GitHub attachments), downloaded as data URIs for a create request. */
import { GITHUB_COM } from "../core/github-hosts.js";
import type { RunTrigger } from "../core/detect/triggers.js";
import { MAX_IMAGE_ATTACHMENTS, parseImageAttachments } from "../core/prompt/images.js";
import { downloadImagesAsDataUris, type SkippedImage } from "../github/attachments.js";
import type { ImageDownloadSettings } from "./types.js";

/** Per image: big enough for a screenshot, small enough that four stay a reasonable request. */
const DEFAULT_MAX_IMAGE_BYTES = 3 * 1024 * 1024;

/** The text a trigger's images are taken from: the comment, the review or the inline comment that asked. */
function triggerBody(trigger: RunTrigger): string {
  switch (trigger.flow) {
    case "comment":
      return trigger.comment.body;
    case "review":
      return trigger.reviewComment?.body ?? trigger.review?.body ?? "";
    default:
      return "";
  }
}

export async function triggerImages(
  trigger: RunTrigger,
  settings: ImageDownloadSettings = {},
): Promise<{ images: string[]; skipped: SkippedImage[] }> {
  const maxCount = settings.maxCount ?? MAX_IMAGE_ATTACHMENTS;
  const server = settings.server ?? GITHUB_COM;
  const urls = parseImageAttachments(triggerBody(trigger), maxCount, server);
  if (urls.length === 0) return { images: [], skipped: [] };
  const token = typeof settings.token === "function" ? await settings.token() : settings.token;
  const skipped: SkippedImage[] = [];
  const images = await downloadImagesAsDataUris(urls, {
    maxCount,
    maxBytes: settings.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES,
    onSkip: (skip) => skipped.push(skip),
    ...(token ? { token } : {}),
    tokenOrigins: server.tokenOrigins,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
  });
  return { images, skipped };
}
