import { SOURCE, SOURCE_TYPES, SourceTypeSchema } from "../service/index.js";
import { UsageError } from "./errors.js";

/**
 * The metadata a run created from the CLI carries: the user's `--metadata` object, with the CLI's
 * origin recorded in `source_type` unless the user chose a (valid) source type themselves. Pure.
 */
export function metadataFromFlag(metadataJson: string | undefined): Record<string, unknown> {
  let userMetadata: Record<string, unknown> = {};
  if (metadataJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(metadataJson);
    } catch (error) {
      throw new UsageError(
        `--metadata is not valid JSON (${error instanceof Error ? error.message : String(error)}); pass an object such as '{"ticket":"ABC-1"}'.`,
      );
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new UsageError(`--metadata must be a JSON object such as '{"ticket":"ABC-1"}', got ${describeJsonType(parsed)}.`);
    }
    userMetadata = parsed as Record<string, unknown>;
  }

  if (!("source_type" in userMetadata)) return { ...userMetadata, source_type: SOURCE.api };
  if (!SourceTypeSchema.safeParse(userMetadata.source_type).success) {
    throw new UsageError(
      `--metadata source_type must be one of ${SOURCE_TYPES.join(", ")}, got ${JSON.stringify(userMetadata.source_type)}.`,
    );
  }
  return userMetadata;
}

function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
