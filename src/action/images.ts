/**
 * The `images` input turned into the data URIs the service takes: data URIs as given, files
 * (relative to the workspace) read and typed by their first bytes. Read before any request, so a
 * missing file fails the step with nothing started.
 */
import { isAbsolute, resolve } from "node:path";
import { sniffImageType, toDataUri } from "../core/image-types.js";
import { InputError, type ImageSource } from "./inputs.js";

/** Per image; the service states no limit, so this keeps one request reasonable. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export async function loadImages(sources: readonly ImageSource[], workspace: string): Promise<string[]> {
  const problems: string[] = [];
  const images: string[] = [];
  for (const source of sources) {
    if (source.kind === "data_uri") {
      images.push(source.uri);
      continue;
    }
    const path = isAbsolute(source.path) ? source.path : resolve(workspace, source.path);
    // Asked for here, not imported: node:fs/promises (and the readline it loads) stays out of a start that reads no file.
    const { readFile, stat } = process.getBuiltinModule("node:fs/promises");
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
      images.push(toDataUri(type, bytes));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const reason =
        code === "ENOENT"
          ? "no such file (paths are relative to the workspace)"
          : code === "EACCES"
            ? "permission denied"
            : String(code ?? error);
      problems.push(`\`images\`: cannot read ${source.path}: ${reason}`);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return images;
}
