/** The `zstd` codec configuration: validation of untrusted metadata. */
import { describeJson, isJsonObject, type JsonObject, type JsonPath, MetadataError } from "@zarr/spec";
import { MAX_LEVEL, MIN_LEVEL } from "./encoder/levels.js";

/** The configuration of the `zstd` codec (also written `numcodecs.zstd`). */
export interface ZstdConfiguration {
  /** Compression level, −131072…22; 0 means libzstd's default (3). */
  level: number;
  /** Whether frames carry the XXH64 content checksum. */
  checksum: boolean;
}

/**
 * Validates a `zstd` configuration. `path` is the codec entry's JSON path; problems
 * throw a `MetadataError` naming e.g. `$.codecs[1].configuration.level`.
 */
export function parseZstdConfiguration(configuration: unknown, path: JsonPath): ZstdConfiguration {
  const at = [...path, "configuration"];
  if (configuration === undefined) return { level: 0, checksum: false };
  if (!isJsonObject(configuration)) throw new MetadataError(at, `expected an object, got ${describeJson(configuration)}`);
  const config = configuration as JsonObject;
  for (const key of Object.keys(config)) {
    // numcodecs configurations may carry their "id".
    if (key === "level" || key === "checksum" || (key === "id" && config.id === "zstd")) continue;
    throw new MetadataError([...at, key], "unknown zstd configuration key (expected level and checksum)");
  }
  const level = config.level ?? 0;
  if (typeof level !== "number" || !Number.isInteger(level) || level < MIN_LEVEL || level > MAX_LEVEL) {
    throw new MetadataError(
      [...at, "level"],
      `expected an integer from ${MIN_LEVEL} to ${MAX_LEVEL}, got ${describeJson(level)}`,
    );
  }
  const checksum = config.checksum ?? false;
  if (typeof checksum !== "boolean") {
    throw new MetadataError([...at, "checksum"], `expected true or false, got ${describeJson(checksum)}`);
  }
  return { level, checksum };
}
