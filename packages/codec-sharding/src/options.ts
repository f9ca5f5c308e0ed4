/**
 * Runtime tuning of the sharding codec. None of this is part of the array metadata:
 * it only changes how many requests are made and how much is cached.
 */
import { ZarrError } from "@zarr/spec";

/** Tuning options of the `sharding_indexed` codec (see {@link createShardingEntry}). */
export interface ShardingOptions {
  /** Decoded shard indexes kept per codec instance (per array); default 256. 0 disables the cache. */
  indexCacheEntries?: number;
  /** Bytes of decoded shard indexes kept per codec instance; default 64 MiB. */
  indexCacheBytes?: number;
  /**
   * Inner chunks whose byte ranges are at most this many bytes apart are read with one
   * request (the gap is read and discarded); default 64 KiB.
   */
  coalesceGap?: number;
  /** Byte-range requests in flight per shard; default 8. */
  fetchConcurrency?: number;
  /** Inner chunks decoded or encoded at once per shard; default 16. */
  codecConcurrency?: number;
  /**
   * Largest encoded inner chunk believed plausible; an index entry claiming more is
   * rejected as corrupt before anything is requested or allocated. Default 2 GiB.
   */
  maxInnerChunkBytes?: number;
}

/** Options with every field set. */
export type ResolvedShardingOptions = Readonly<Required<ShardingOptions>>;

/** The defaults of {@link ShardingOptions}. */
export const DEFAULT_SHARDING_OPTIONS: ResolvedShardingOptions = Object.freeze({
  indexCacheEntries: 256,
  indexCacheBytes: 64 * 1024 * 1024,
  coalesceGap: 64 * 1024,
  fetchConcurrency: 8,
  codecConcurrency: 16,
  maxInnerChunkBytes: 2 ** 31,
});

/** Fills in defaults and checks every option is a non-negative integer (concurrency ≥ 1). */
export function resolveShardingOptions(options: ShardingOptions = {}): ResolvedShardingOptions {
  const out = { ...DEFAULT_SHARDING_OPTIONS };
  for (const name of Object.keys(DEFAULT_SHARDING_OPTIONS) as (keyof ShardingOptions)[]) {
    const value = options[name];
    if (value === undefined) continue;
    const min = name === "fetchConcurrency" || name === "codecConcurrency" || name === "maxInnerChunkBytes" ? 1 : 0;
    if (!Number.isSafeInteger(value) || value < min) {
      throw new ZarrError("INVALID_ARGUMENT", `Sharding option ${name} must be an integer ≥ ${min}, got ${String(value)}`);
    }
    out[name] = value;
  }
  return Object.freeze(out);
}
