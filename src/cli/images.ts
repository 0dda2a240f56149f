/**
 * `--image` values: a base64 data URI as is, or an image file turned into one. The type comes from
 * the file's first bytes (its content is the truth), else from its extension.
 */
import { readFile, stat } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { sniffImageType, toDataUri, type ImageType } from "../core/image-types.js";
import { ImageDataUriSchema } from "../service/index.js";
import { UsageError } from "./errors.js";

const TYPE_BY_EXTENSION: Record<string, ImageType> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** The type of an image file: by content, else by extension; undefined when it is neither. Pure. */
function imageTypeOf(bytes: Uint8Array, fileName: string): ImageType | undefined {
  return sniffImageType(bytes) ?? TYPE_BY_EXTENSION[extname(fileName).toLowerCase()];
}

/** Turns one `--image` value into a data URI, or throws a UsageError naming it. */
export async function loadImageArgument(value: string, cwd: string): Promise<string> {
  if (value.startsWith("data:")) {
    if (!ImageDataUriSchema.safeParse(value).success) {
      throw new UsageError(`--image ${abbreviate(value)} is not a base64 data URI such as data:image/png;base64,iVBOR…`);
    }
    return value;
  }

  const path = resolve(cwd, value);
  let bytes: Buffer;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`--image ${value}: not a file.`);
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: unknown }).code;
    const reason = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : String(code ?? error);
    throw new UsageError(`--image ${value}: cannot read it (${reason}); pass an image file or a data: URI.`);
  }
  if (bytes.length === 0) throw new UsageError(`--image ${value}: the file is empty.`);
  const type = imageTypeOf(bytes, value);
  if (!type) {
    throw new UsageError(`--image ${value}: not a PNG, JPEG, GIF or WebP image (neither its content nor its extension says so).`);
  }
  return toDataUri(type, bytes);
}

function abbreviate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
