/** What the read and write paths need from a sharding codec instance. */
import type { ByteLruCache, ChunkSpec, CodecPipeline } from "@zarr/spec";
import type { EndCheck } from "./fetch-inner-chunks.js";
import type { ResolvedShardingOptions } from "./options.js";
import type { ShardFormat, ShardIndex } from "./shard-format.js";

/** A cached, decoded shard index. */
export interface CachedIndex {
  /** The layout the index belongs to (a hit must match the shard shape of the call). */
  format: ShardFormat;
  index: ShardIndex;
  /** Overlap check progress for an index at the end (see `fetchInnerChunks`). */
  end: EndCheck;
  /**
   * The version of the shard the index was read from (see `ByteSource.getVersioned`):
   * inner chunks are read from that version only. `undefined` when the store cannot tell.
   */
  version: string | undefined;
}

/** The parts of a sharding codec shared by its read and write paths. */
export interface ShardCodecState {
  /** Shape of an inner chunk. */
  readonly chunkShape: readonly number[];
  /** The inner chunks' codec chain. */
  readonly inner: CodecPipeline;
  readonly options: ResolvedShardingOptions;
  /** Decoded indexes by shard key. */
  readonly cache: ByteLruCache<string, CachedIndex>;
  /** The layout of shards of `shardShape` (throws `CODEC_FAILED` naming `key` when invalid). */
  format(shardShape: readonly number[], key: string): ShardFormat;
}

/** Approximate memory held by a cached index. */
export function cachedBytes(index: ShardIndex): number {
  return index.entries.byteLength + 128;
}

/** The representation of an inner chunk for a call on a shard of `spec`. */
export function innerSpecOf(state: ShardCodecState, spec: ChunkSpec): ChunkSpec {
  return { shape: state.chunkShape.slice(), dataType: spec.dataType, fillValue: spec.fillValue };
}

/** True when a freshly allocated array already holds the fill value. */
export function fillIsZero(spec: ChunkSpec): boolean {
  return spec.dataType.allEqual(spec.dataType.allocate(1), spec.fillValue, 0, 1);
}
