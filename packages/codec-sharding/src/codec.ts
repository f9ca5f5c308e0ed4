/**
 * The `sharding_indexed` codec: an array→bytes codec that stores a shard's inner chunks,
 * each encoded with its own codec chain, followed (or preceded) by an index of their
 * byte ranges. One instance per array; it holds that array's cache of shard indexes.
 */
import {
  type ArrayToBytesCodec,
  asZarrError,
  ByteLruCache,
  type ByteSource,
  type ChunkSpec,
  type ChunkUpdate,
  type DecodeTarget,
  type CodecBuildContext,
  type CodecCallContext,
  type CodecEntry,
  type CodecPipeline,
  type DataType,
  type ExtensionObject,
  type JsonObject,
  MetadataError,
  type NdArray,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
import type { CachedIndex, ShardCodecState } from "./codec-state.js";
import { checkDivides, type IndexLocation, parseShardingConfiguration } from "./configuration.js";
import { ShardVanished } from "./errors.js";
import { resolveShardingOptions, type ResolvedShardingOptions, type ShardingOptions } from "./options.js";
import { decodeShard, decodeShardPartialInto } from "./read.js";
import { EMPTY_U64, ShardFormat } from "./shard-format.js";
import { encodeShard, encodeShardPartial } from "./write.js";

/** Where worker threads find {@link shardingIndexed}. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "codec.js");

/** The codec's registered name. */
export const SHARDING_CODEC_NAME = "sharding_indexed";

/** Shard layouts remembered per codec (more than one only for rectilinear grids). */
const MAX_FORMATS = 64;

/** Encoded index size for `chunksPerShard` with `indexCodecs`, or `undefined` when not fixed. */
function indexSize(indexCodecs: CodecPipeline, uint64: DataType, chunksPerShard: readonly number[]): number | undefined {
  return indexCodecs.computeEncodedSize({ shape: [...chunksPerShard, 2], dataType: uint64, fillValue: EMPTY_U64 });
}

class ShardingCodec implements ArrayToBytesCodec, ShardCodecState {
  readonly kind = "array_to_bytes" as const;
  readonly name = SHARDING_CODEC_NAME;
  /** Inner chunks are cut out with strided copies, so any layout is accepted. */
  readonly acceptsStrided = true;
  /** A shard is read in parts: its index, then the inner chunks a selection needs. */
  readonly shardContainer = true;
  /**
   * The same, under the capability's former name: a core of the previous release reads
   * only this one (codec packages and core are pinned independently).
   */
  readonly partialReads = true;
  readonly cache: ByteLruCache<string, CachedIndex>;
  private readonly formats = new Map<string, ShardFormat>();

  constructor(
    readonly chunkShape: readonly number[],
    readonly inner: CodecPipeline,
    private readonly indexCodecs: CodecPipeline,
    private readonly indexLocation: IndexLocation,
    private readonly uint64: DataType,
    readonly options: ResolvedShardingOptions,
  ) {
    this.cache = new ByteLruCache({ maxEntries: options.indexCacheEntries, maxBytes: options.indexCacheBytes });
  }

  /** A shard is read inner chunk by inner chunk: readers going region by region align to these. */
  get innerChunkShape(): readonly number[] {
    return this.chunkShape;
  }

  format(shardShape: readonly number[], key: string): ShardFormat {
    const id = shardShape.join(",");
    const known = this.formats.get(id);
    if (known !== undefined) return known;
    const fail = (problem: string) => new ZarrError("CODEC_FAILED", `Cannot shard chunk "${key}": ${problem}`, { key });
    if (shardShape.length !== this.chunkShape.length) {
      throw fail(`the shard shape ${JSON.stringify(shardShape)} does not have the ${this.chunkShape.length} dimensions of the inner chunk shape`);
    }
    checkDivides(this.chunkShape, shardShape, fail);
    const chunksPerShard = shardShape.map((n, d) => n / this.chunkShape[d]);
    const ib = indexSize(this.indexCodecs, this.uint64, chunksPerShard);
    if (ib === undefined) throw fail("the index codecs do not have a fixed encoded size");
    const format = new ShardFormat(shardShape.slice(), this.chunkShape, this.indexLocation, this.indexCodecs, this.uint64, ib);
    if (this.formats.size >= MAX_FORMATS) this.formats.clear();
    this.formats.set(id, format);
    return format;
  }

  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): Promise<NdArray> {
    return guard(ctx, "decode", () => decodeShard(this, bytes, spec, ctx));
  }

  decodePartialInto(source: ByteSource, spec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext): Promise<boolean> {
    return guard(ctx, "read part of", () => decodeShardPartialInto(this, source, spec, target, ctx));
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Promise<Uint8Array> {
    return guard(ctx, "encode", () => encodeShard(this, chunk, spec, ctx));
  }

  encodePartial(source: ByteSource, update: ChunkUpdate, spec: ChunkSpec, ctx: CodecCallContext): Promise<Uint8Array | null> {
    return guard(ctx, "update", () => encodeShardPartial(this, source, update, spec, ctx));
  }

  /** The encoded size varies with the data. */
  computeEncodedSize(): undefined {
    return undefined;
  }

  /** Drops the cached index of the shard at `key` (the caller deleted or replaced it). */
  invalidate(key: string): void {
    this.cache.delete(key);
  }

  /** Drops every cached shard index (also those of nested sharding codecs). */
  clearCache(): void {
    this.cache.clear();
    this.inner.clearCache();
  }

  toJSON(): ExtensionObject {
    return {
      name: SHARDING_CODEC_NAME,
      configuration: {
        chunk_shape: this.chunkShape.slice(),
        codecs: this.inner.toJSON() as unknown as JsonObject[],
        index_codecs: this.indexCodecs.toJSON() as unknown as JsonObject[],
        index_location: this.indexLocation,
      },
    };
  }
}

/** Runs `fn`, turning anything that is not a `ZarrError` into one naming the shard. */
async function guard<T>(ctx: CodecCallContext, op: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ShardVanished) {
      throw new ZarrError("STORE_FAILED", error.message, { key: ctx.key, cause: error });
    }
    throw asZarrError(error, "CODEC_FAILED", `sharding_indexed could not ${op} shard "${ctx.key}"`, ctx.key);
  }
}

/**
 * Creates a `sharding_indexed` codec entry with the given tuning (cache bounds, range
 * coalescing, concurrency). The exported {@link shardingIndexed} uses the defaults.
 *
 * @example
 * ```ts
 * const registry = createRegistry([createShardingEntry({ indexCacheEntries: 1024, coalesceGap: 1 << 20 }), crc32cCodec]);
 * ```
 */
export function createShardingEntry(options: ShardingOptions = {}): CodecEntry {
  const resolved = resolveShardingOptions(options);
  return {
    type: "codec",
    name: SHARDING_CODEC_NAME,
    codecKind: "array_to_bytes",
    package: "@zarr/codec-sharding",
    // Workers rebuild the codec from the default entry: only that one's tuning is theirs.
    ...(Object.keys(options).length === 0 ? { worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-sharding", exportName: "shardingIndexed" } } : {}),
    lightweight: true,
    // The inner chain holds the array's elements; the index chain holds uint64 offsets.
    async withDefaults(configuration, { multiByte, completeChain }) {
      const out: JsonObject = { ...configuration };
      if (Array.isArray(out.codecs)) out.codecs = await completeChain(out.codecs, multiByte);
      if (Array.isArray(out.index_codecs)) out.index_codecs = await completeChain(out.index_codecs, true);
      return out;
    },
    async fromConfig(configuration: JsonObject, context: CodecBuildContext): Promise<ArrayToBytesCodec> {
      const { spec, path } = context;
      const config = parseShardingConfiguration(configuration, spec.shape, path);
      const innerSpec: ChunkSpec = { shape: config.chunkShape.slice(), dataType: spec.dataType, fillValue: spec.fillValue };
      const inner = await context.buildPipeline(config.codecs, innerSpec, [...path, "configuration", "codecs"]);
      const uint64 = await context.resolveDataType("uint64");
      const chunksPerShard = spec.shape.map((n, d) => n / config.chunkShape[d]);
      const indexSpec: ChunkSpec = { shape: [...chunksPerShard, 2], dataType: uint64, fillValue: EMPTY_U64 };
      const indexPath = [...path, "configuration", "index_codecs"];
      const indexCodecs = await context.buildPipeline(config.indexCodecs, indexSpec, indexPath);
      if (typeof indexSize(indexCodecs, uint64, chunksPerShard) !== "number") {
        throw new MetadataError(
          indexPath,
          "the index codecs must produce a fixed encoded size (e.g. bytes and crc32c; no compressors)",
        );
      }
      return new ShardingCodec(config.chunkShape, inner, indexCodecs, config.indexLocation, uint64, resolved);
    },
  };
}

/**
 * The `sharding_indexed` codec entry with default tuning. Register it (with `crc32c`,
 * which the default index codecs use, and the inner chunks' codecs) in a registry.
 *
 * @example
 * ```ts
 * const registry = createRegistry([shardingIndexed, crc32cCodec, gzip]);
 * ```
 */
export const shardingIndexed: CodecEntry = createShardingEntry();
