/** Validation of the `{level}` configuration shared by the gzip and zlib codecs. */
import { describeJson, type JsonObject, type JsonPath, MetadataError } from "@zarr/spec";

/** Configuration of the `gzip` and `zlib` codecs. */
export interface DeflateConfiguration {
  /** Compression level 0 (store) to 9 (smallest); -1 is zlib's default (6). */
  level: number;
}

/**
 * Reads `level` from a codec configuration. Unknown keys are refused, except `id` equal
 * to the numcodecs id (a numcodecs config copied as is). A missing level takes
 * `defaultLevel`: it only matters when writing, and readers should not fail on it.
 */
export function parseLevel(configuration: JsonObject, path: JsonPath, codecId: string, defaultLevel: number): number {
  for (const key of Object.keys(configuration)) {
    if (key === "level" || (key === "id" && configuration.id === codecId)) continue;
    throw new MetadataError(
      [...path, "configuration", key],
      `unknown configuration key ${JSON.stringify(key)} for the ${codecId} codec (it takes only "level")`,
    );
  }
  const level = configuration.level;
  if (level === undefined) return defaultLevel;
  if (typeof level !== "number" || !Number.isInteger(level) || level < -1 || level > 9) {
    throw new MetadataError(
      [...path, "configuration", "level"],
      `expected an integer from 0 to 9 (or -1 for the default), found ${describeJson(level)}`,
    );
  }
  return level;
}
