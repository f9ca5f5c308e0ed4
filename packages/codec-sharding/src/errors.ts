/** Error helpers shared by the sharding read and write paths. */
import { ZarrError } from "@zarr/spec";

/** The store key of an inner chunk as described to the inner codecs (for their error messages). */
export function innerChunkKey(key: string, coords: readonly number[]): string {
  return `${key} (inner chunk [${coords.join(", ")}])`;
}

/** A corrupt shard: `CODEC_FAILED` naming the shard's key and, when known, the inner chunk. */
export function corruptShard(key: string, problem: string, coords?: readonly number[]): ZarrError {
  const where = coords === undefined ? "" : `, inner chunk [${coords.join(", ")}]`;
  return new ZarrError("CODEC_FAILED", `Corrupt shard "${key}"${where}: ${problem}`, { key });
}

/**
 * Re-labels an error from an inner codec (whose key describes the inner chunk) with the
 * shard's store key, keeping its code and message; other errors become `CODEC_FAILED`.
 */
export function fromInnerError(error: unknown, key: string, innerKey: string, op: string): Error {
  if (error instanceof ShardVanished) return error;
  if (error instanceof ZarrError) {
    if (error.key === key || error.code === "ABORTED") return error;
    return new ZarrError(error.code, error.message, { key, cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ZarrError("CODEC_FAILED", `Could not ${op} ${innerKey}: ${detail}`, { key, cause: error });
}

/**
 * Thrown internally when a shard disappears between reading its index and reading its
 * inner chunks (deleted or rewritten behind a cached index). Never escapes the codec.
 */
export class ShardVanished extends Error {
  constructor(readonly key: string) {
    super(`Shard "${key}" vanished while it was being read`);
    this.name = "ShardVanished";
  }
}
