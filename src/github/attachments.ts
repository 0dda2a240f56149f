/**
 * Images pasted into issues and comments (github.com/user-attachments/assets/…), downloaded and
 * turned into the base64 data URIs the Agent Run Service accepts. Bounded in count and size, images
 * only, and the token only ever goes to the origins it belongs to (never to a URL a commenter chose).
 */

import { GITHUB_COM } from "../core/github-hosts.js";
import { IMAGE_TYPES as IMAGE_CONTENT_TYPES, sniffImageType, toDataUri, type ImageType as ImageContentType } from "../core/image-types.js";

const MAX_REDIRECTS = 5;

export interface SkippedImage {
  url: string;
  reason: string;
}

export interface ImageDownloadOptions {
  /** Fetch implementation (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** Sent as `Authorization: token …` to `tokenOrigins` only (private repositories need it). */
  token?: string;
  /** Origins (scheme://host[:port]) that may receive the token; default github.com (the server's `tokenOrigins`, core/github-hosts.ts). */
  tokenOrigins?: readonly string[];
  /** At most this many images are returned. */
  maxCount: number;
  /** Images larger than this many bytes are skipped. */
  maxBytes: number;
  /** Per-image time limit (default 15 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Told about every URL that was not turned into an image, and why. */
  onSkip?: (skipped: SkippedImage) => void;
}

/**
 * Data URIs (`data:image/png;base64,…`) for the first `maxCount` of `urls` that download as images
 * no larger than `maxBytes`, in the order given. Failures are skipped (reported through `onSkip`),
 * never thrown, so a broken image never blocks a run.
 */
export async function downloadImagesAsDataUris(urls: readonly string[], options: ImageDownloadOptions): Promise<string[]> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const tokenOrigins = new Set((options.tokenOrigins ?? GITHUB_COM.tokenOrigins).map(originOf).filter((o): o is string => o !== null));
  const images: string[] = [];
  const seen = new Set<string>();
  const skip = (url: string, reason: string) => options.onSkip?.({ url, reason });

  for (const url of urls) {
    if (seen.has(url)) continue;
    seen.add(url);
    if (images.length >= Math.max(0, options.maxCount)) {
      skip(url, `more than ${options.maxCount} images; only the first ${options.maxCount} are sent`);
      continue;
    }
    const result = await downloadImage(url, doFetch, tokenOrigins, options);
    if ("reason" in result) skip(url, result.reason);
    else images.push(toDataUri(result.type, result.bytes));
  }
  return images;
}

async function downloadImage(
  url: string,
  doFetch: typeof fetch,
  tokenOrigins: ReadonlySet<string>,
  options: ImageDownloadOptions,
): Promise<{ type: ImageContentType; bytes: Buffer } | { reason: string }> {
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 15_000), ...(options.signal ? [options.signal] : [])];
  const signal = AbortSignal.any(signals);
  try {
    let current = url;
    let response: Response | undefined;
    // Redirects are followed by hand so that the token is re-decided at every hop.
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const origin = originOf(current);
      if (origin === null) return { reason: "not an http(s) URL" };
      const headers: Record<string, string> = { accept: IMAGE_CONTENT_TYPES.join(", ") };
      if (options.token && tokenOrigins.has(origin)) headers.authorization = `token ${options.token}`;
      response = await doFetch(current, { headers, redirect: "manual", signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        current = new URL(location, current).toString();
        response = undefined;
        continue;
      }
      break;
    }
    if (!response) return { reason: `more than ${MAX_REDIRECTS} redirects` };
    if (!response.ok) {
      await response.body?.cancel();
      return { reason: `download answered HTTP ${response.status}` };
    }
    const declared = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const declaredImage = IMAGE_CONTENT_TYPES.find((t) => t === declared);
    const mayBeImage = declaredImage !== undefined || declared === "" || declared === "application/octet-stream";
    if (!mayBeImage) {
      await response.body?.cancel();
      return { reason: `content type ${declared} is not a supported image (${IMAGE_CONTENT_TYPES.join(", ")})` };
    }
    const length = Number(response.headers.get("content-length"));
    if (Number.isFinite(length) && length > options.maxBytes) {
      await response.body?.cancel();
      return { reason: `${length} bytes is larger than the limit of ${options.maxBytes} bytes` };
    }
    const bytes = await readAtMost(response, options.maxBytes);
    if (bytes === null) return { reason: `larger than the limit of ${options.maxBytes} bytes` };
    // Unlabelled downloads must prove they are images by their first bytes.
    const type = declaredImage ?? sniffImageType(bytes);
    if (!type) return { reason: "the bytes are not a PNG, JPEG, GIF or WebP image" };
    return { type, bytes };
  } catch (error) {
    const reason = signal.aborted ? "timed out or aborted" : error instanceof Error ? error.message : String(error);
    return { reason: `download failed: ${reason}` };
  }
}

/** The body, or null as soon as it exceeds `maxBytes` (the rest is not read). */
async function readAtMost(response: Response, maxBytes: number): Promise<Buffer | null> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : null;
  } catch {
    return null;
  }
}
