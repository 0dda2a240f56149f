/**
 * The `images` input turned into the data URIs the service takes: data URIs as given, files
 * (relative to the workspace) read and typed by their first bytes. Read before any request, so a
 * missing file fails the step with nothing started.
 */
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { InputError, type ImageSource } from "./inputs.js";

/** Per image; the service states no limit, so this keeps one request reasonable. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) => signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type its magic bytes announce (the content is the truth, not the file name). */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

export async function loadImages(sources: readonly ImageSource[], workspace: string): Promise<string[]> {
  const problems: string[] = [];
  const images: string[] = [];
  for (const source of sources) {
    if (source.kind === "data_uri") {
      images.push(source.uri);
      continue;
    }
    const path = isAbsolute(source.path) ? source.path : resolve(workspace, source.path);
    try {
      const info = await stat(path);
      if (!info.isFile()) {
        problems.push(`\`images\`: ${source.path} is not a file`);
        continue;
      }
      if (info.size > MAX_IMAGE_BYTES) {
        problems.push(`\`images\`: ${source.path} is ${info.size} bytes; at most ${MAX_IMAGE_BYTES} are accepted per image`);
        continue;
      }
      const bytes = await readFile(path);
      const type = sniffImageType(bytes);
      if (!type) {
        problems.push(`\`images\`: ${source.path} is not a PNG, JPEG, GIF or WebP image`);
        continue;
      }
      images.push(`data:${type};base64,${bytes.toString("base64")}`);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const reason = code === "ENOENT" ? "no such file (paths are relative to the workspace)" : code === "EACCES" ? "permission denied" : String(code ?? error);
      problems.push(`\`images\`: cannot read ${source.path}: ${reason}`);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return images;
}
