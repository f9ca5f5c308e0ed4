/**
 * The codec contract. Three kinds, as in the spec: array→array (e.g. `transpose`),
 * array→bytes (exactly one per chain, e.g. `bytes`, `sharding_indexed`) and
 * bytes→bytes (compressors, checksums). A codec package exports a {@link CodecEntry};
 * the registry calls its `fromConfig` once per array with the array's chunk spec.
 */
import type { DataType, Scalar } from "./data-type.js";
import { type JsonPath, ZarrError } from "./errors.js";
import type { ExtensionObject } from "./extension.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { DimIndexer, NdArray } from "./ndarray.js";
import type { ByteRange, ReadIntoRange, VersionedBytes } from "./store.js";
import type { ModuleExport } from "./workers.js";

/** The representation of a chunk at some point of the codec chain. */
export interface ChunkSpec {
  /** Shape of the chunk (for a regular grid, the full chunk shape even at the array's edge). */
  shape: number[];
  dataType: DataType;
  fillValue: Scalar;
}

/** Per-call context: the chunk key for error messages, cancellation, and the decoded-size bound. */
export interface CodecCallContext {
  /** Store key of the chunk being encoded or decoded (or a description for inner chunks). */
  key: string;
  signal?: AbortSignal;
  /**
   * The most bytes a bytes→bytes codec's `decode`/`decodeInto` may produce: the size of
   * what it decodes to as the chunk spec fixes it (the decoded chunk, or an inner chunk of a
   * shard), or the array's `maxChunkBytes` when that size is not known (variable-length
   * data). A decoder that would produce more stops at once, before allocating more, and
   * throws a `CODEC_FAILED` `ZarrError` naming the chunk key (see {@link decodedSizeExceeded}).
   * The pipeline sets it on every decode call; a codec that ignores it is still checked
   * after it returns. Absent on encode calls and on direct calls without a bound.
   */
  maxDecodedBytes?: number;
}

/**
 * The default bound of a chunk's decoded size, and of memory allocated from what metadata
 * says (chunk shapes, struct records): 2 GiB. Arrays take another with `maxChunkBytes`.
 */
export const DEFAULT_MAX_CHUNK_BYTES = 2 ** 31;

/**
 * The error a decoder throws when its output would pass `ctx.maxDecodedBytes`: a
 * `CODEC_FAILED` `ZarrError` naming the codec, the chunk key and the bound.
 *
 * @example
 * ```ts
 * if (declaredSize > (ctx.maxDecodedBytes ?? Infinity)) throw decodedSizeExceeded("my-codec", ctx, declaredSize);
 * ```
 */
export function decodedSizeExceeded(codec: string, ctx: Pick<CodecCallContext, "key" | "maxDecodedBytes">, size?: number): ZarrError {
  const what = size === undefined ? "decodes to more than" : `would decode to ${size} bytes, more than`;
  return new ZarrError(
    "CODEC_FAILED",
    `${codec}: chunk "${ctx.key}" ${what} the ${ctx.maxDecodedBytes} bytes it may hold (corrupt data, or a decompression bomb)`,
    { key: ctx.key },
  );
}

/**
 * Where decoded elements go: the chunk-local positions `src` of a decoded chunk are
 * written to the positions `dst` of the caller's `out` (one indexer per dimension, equal
 * counts). `out` is usually the final result of a read, so a codec that decodes into a
 * target writes each element once, with no chunk-sized intermediate array.
 */
export interface DecodeTarget {
  out: NdArray;
  src: readonly DimIndexer[];
  dst: readonly DimIndexer[];
  /**
   * True when the `dst` region of `out` holds zeros already (a fresh result): writing a
   * fill value that is all zero bits there may be skipped.
   */
  outIsZero?: boolean;
}

/** Array → array: transforms the array representation (shape, layout or data type). */
export interface ArrayToArrayCodec {
  readonly kind: "array_to_array";
  readonly name: string;
  /** The representation this codec produces from `spec` when encoding. */
  encodedSpec(spec: ChunkSpec): ChunkSpec;
  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray | Promise<NdArray>;
  /** Inverse of encode; `spec` is the decoded representation. */
  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray | Promise<NdArray>;
  toJSON(): ExtensionObject;
}

/**
 * Lazily fetched bytes of one stored value, for partial decoding. `get()` without a
 * range reads the whole value; every call resolves `undefined` when the value is missing.
 */
export interface ByteSource {
  get(range?: ByteRange, signal?: AbortSignal): Promise<Uint8Array | undefined>;
  /** True when `get` with a range reads only that range (false: ranges are sliced from the whole value). */
  readonly rangesAreCheap: boolean;
  /**
   * Scatter read of the value straight into the caller's memory (see
   * `ReadableStore.readInto`); present when the store can. Resolves the value's total
   * size, or `undefined` when it is missing.
   */
  readInto?(ranges: readonly ReadIntoRange[], signal?: AbortSignal): Promise<number | undefined>;
  /** The whole value into the start of `spare` when it fits (see `ReadableStore.getInto`). */
  getInto?(spare: Uint8Array, signal?: AbortSignal): Promise<Uint8Array | undefined>;
  /**
   * Versioned read (see `ReadableStore.getVersioned`); present when the store can. With
   * `ifVersion`, rejects with `STORE_CHANGED` when the value is no longer that version.
   * With `spare`, the bytes may land in it (see `VersionedReadOptions.spare`).
   */
  getVersioned?(
    range: ByteRange | undefined,
    ifVersion: string | undefined,
    signal?: AbortSignal,
    spare?: Uint8Array,
  ): Promise<VersionedBytes | undefined>;
}

/** Array → bytes: serialises an array. Exactly one per codec chain. */
export interface ArrayToBytesCodec {
  readonly kind: "array_to_bytes";
  readonly name: string;
  /** Input must be C-contiguous unless {@link acceptsStrided} is true. */
  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array | Promise<Uint8Array>;
  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray | Promise<NdArray>;
  /**
   * Decodes `bytes` and writes the elements `target.src` selects into `target.out` at
   * `target.dst`. Optional: without it the pipeline calls `decode` and copies.
   */
  decodeInto?(bytes: Uint8Array, spec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext): void | Promise<void>;
  /**
   * Decodes the stored value behind `source` into `target`, reading only what `target.src`
   * (ascending, chunk-local) needs: byte ranges of a shard, or a scatter read of raw bytes
   * straight into the result. Resolves false when the value is missing (the caller fills
   * the region). Used when nothing precedes this codec's bytes in the chain.
   */
  decodePartialInto?(source: ByteSource, spec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext): Promise<boolean>;
  /**
   * True when this codec's stored values are shard containers: an index and inner chunks
   * that `decodePartialInto` reads in parts, each inner chunk bounded by its own chain.
   * Callers then never treat a stored value as one chunk: caches of whole decoded chunks
   * skip the chain, the whole-chunk size bound does not apply (a shard may be far larger
   * than one decoded chunk), a pool reads it partially rather than shipping it whole to a
   * worker, and an outer shard reads such an inner chain through a window of its bytes.
   */
  readonly shardContainer?: boolean;
  /**
   * The former name of {@link shardContainer}, still read for one release.
   *
   * @deprecated Declare `shardContainer` instead; `partialReads` is removed in the next minor release.
   */
  readonly partialReads?: boolean;
  /**
   * The shape of the parts a stored value is read in, when it is a container of such parts
   * (a shard's inner chunks). A reader reading a large array region by region aligns the
   * regions to these parts rather than to whole stored values: as much parallel work per
   * region, in regions a fraction the size.
   */
  readonly innerChunkShape?: readonly number[];
  /** Encoded size in bytes for a chunk of `spec`, when fixed (needed for sharding indexes). */
  computeEncodedSize?(spec: ChunkSpec): number | undefined;
  /** True when `encode` accepts any strided view. */
  readonly acceptsStrided?: boolean;
  /**
   * Partial update: rewrites a stored value (read from `source`, possibly missing) with
   * the elements `update.selection` (chunk-local, one indexer per dimension, positive
   * steps) replaced by `update.value` (a C-contiguous array shaped like the selection, or
   * a scalar), touching as little of the value as possible. Resolves the new encoded
   * value, or `null` when every element is now the fill value (the caller deletes it).
   */
  encodePartial?(
    source: ByteSource,
    update: ChunkUpdate,
    spec: ChunkSpec,
    ctx: CodecCallContext,
  ): Promise<Uint8Array | null>;
  /** Cached state (e.g. shard indexes) a long-lived reader may drop. */
  clearCache?(): void;
  /** Drops cached state about one stored value (called when the caller deletes or replaces it). */
  invalidate?(key: string): void;
  toJSON(): ExtensionObject;
}

/** New values for part of a chunk (see `ArrayToBytesCodec.encodePartial`). */
export interface ChunkUpdate {
  selection: readonly DimIndexer[];
  /** A C-contiguous array whose shape is the selection's lengths, or one scalar for all of them. */
  value: { array: NdArray } | { scalar: Scalar };
  /** Store elements equal to the fill value anyway (see `writeEmptyChunks`). */
  writeEmpty: boolean;
}

/** Bytes → bytes: compression, checksums. */
export interface BytesToBytesCodec {
  readonly kind: "bytes_to_bytes";
  readonly name: string;
  encode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array | Promise<Uint8Array>;
  decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array | Promise<Uint8Array>;
  /**
   * Decodes into the start of `scratch` when the result fits, returning a view of it, and
   * otherwise into an array of its own. Optional: lets a reader reuse one output buffer
   * from chunk to chunk instead of allocating (and page-faulting) a fresh one each time.
   * The caller owns `scratch` until the returned view is consumed.
   */
  decodeInto?(bytes: Uint8Array, scratch: Uint8Array, ctx: CodecCallContext): Uint8Array | Promise<Uint8Array>;
  /** Encoded size for `decodedSize` input bytes, when fixed (e.g. crc32c: +4). */
  computeEncodedSize?(decodedSize: number): number | undefined;
  toJSON(): ExtensionObject;
}

/** Any codec. */
export type Codec = ArrayToArrayCodec | ArrayToBytesCodec | BytesToBytesCodec;
/** The three codec kinds. */
export type CodecKind = Codec["kind"];

/** A resolved chain of codecs, as @zarr/core builds it. */
export interface CodecPipeline {
  readonly codecs: readonly Codec[];
  /** Encodes a chunk of the pipeline's decoded representation to bytes. */
  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Promise<Uint8Array>;
  /** Decodes bytes to a chunk (possibly a strided view; see {@link NdArray}). */
  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): Promise<NdArray>;
  /** Encoded size for a chunk of `spec` when every codec in the chain has a fixed size. */
  computeEncodedSize(spec: ChunkSpec): number | undefined;
  /** Decodes `bytes` (a whole stored value) into `target`. */
  decodeInto(bytes: Uint8Array, spec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext): Promise<void>;
  /**
   * Reads the stored value behind `source` and decodes what `target.src` selects into
   * `target`, reading only the parts needed when the array→bytes codec can (shards,
   * scatter reads of raw bytes) and the whole value otherwise. Resolves false when the
   * value is missing: the caller fills the region.
   */
  decodePartialInto(source: ByteSource, spec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext): Promise<boolean>;
  /**
   * The worker modules of every codec entry in the chain (nested chains included), or
   * `undefined` when some codec does not declare one: chunks of such a chain are decoded
   * on the calling thread.
   */
  readonly workerModules: readonly ModuleExport[] | undefined;
  /** True when some codec of the chain is not `lightweight`: decoding is worth a worker. */
  readonly worthOffloading: boolean;
  /**
   * True when the chain is one array→bytes codec declaring `shardContainer` (see
   * {@link ArrayToBytesCodec.shardContainer}), with no codec before or after it: its stored
   * values are shards, read in parts.
   */
  readonly shardContainer: boolean;
  /** Present when the chain can update part of a stored value without re-encoding all of it. */
  encodePartial?: ArrayToBytesCodec["encodePartial"];
  /** Drops cached state of every codec in the chain. */
  clearCache(): void;
  /** Drops cached state about the stored value at `key`. */
  invalidate(key: string): void;
  /** The chain as metadata. */
  toJSON(): ExtensionObject[];
}

/** What a codec's `fromConfig` gets besides its configuration. */
export interface CodecBuildContext {
  /** The representation entering this codec (when encoding). */
  spec: ChunkSpec;
  /** JSON path of this codec's entry, for `MetadataError`s. */
  path: JsonPath;
  /** Builds a nested chain (used by `sharding_indexed` for its inner and index codecs). */
  buildPipeline(codecs: readonly ExtensionObject[], spec: ChunkSpec, path: JsonPath): Promise<CodecPipeline>;
  /** Resolves a data type by name (e.g. `uint64` for a shard index). */
  resolveDataType(name: string, configuration?: JsonObject): Promise<DataType>;
}

/**
 * A codec as registered: its name, aliases, kind and a factory.
 *
 * @example
 * ```ts
 * export const myCodec: CodecEntry = {
 *   type: "codec", name: "my-codec", codecKind: "bytes_to_bytes",
 *   fromConfig: (configuration) => ({ kind: "bytes_to_bytes", name: "my-codec",
 *     encode: (b) => b, decode: (b) => b, toJSON: () => ({ name: "my-codec", configuration }) }),
 * };
 * ```
 */
export interface CodecEntry {
  readonly type: "codec";
  readonly name: string;
  /** Other names the same codec is written under (e.g. `numcodecs.zlib`). */
  readonly aliases?: readonly string[];
  readonly codecKind: CodecKind;
  /** The npm package providing the codec (for error messages). */
  readonly package?: string;
  /**
   * Where worker threads find this same entry: an export of an ES module. Declaring it
   * lets the executor run chunk tasks of arrays using this codec in a worker pool (every
   * codec of the chain must declare one). Use `workerModuleUrl(import.meta.url, "x.js")`,
   * and `moduleName`: the package export holding the same entry (e.g. `"@zarr/codec-zstd"`),
   * by which workers of bundled apps find it.
   */
  readonly worker?: ModuleExport;
  /**
   * True for codecs whose decoding costs little (checksums, layout changes): a chain of
   * only such codecs is never worth a trip to a worker.
   */
  readonly lightweight?: boolean;
  /**
   * The configuration with the fields a writer should fill in when the user left them out
   * (the `bytes` codec's `endian` for multi-byte types), so that written metadata is
   * complete. `completeChain` completes a nested codec chain the same way (sharding's).
   * Omitted: the configuration is written as given.
   */
  withDefaults?(configuration: JsonObject, context: CodecDefaultsContext): JsonObject | Promise<JsonObject>;
  fromConfig(configuration: JsonObject, context: CodecBuildContext): Codec | Promise<Codec>;
  /**
   * Starts loading the code decoding loads on first use (a module imported lazily), without
   * waiting for it. Core calls it when it opens an array whose metadata names this codec, so
   * that code arrives with the metadata rather than after the first chunk's bytes. Must not
   * throw; a failed load is left to the decode that needs the code, which reports it.
   */
  prefetch?(): void;
}

/** What {@link CodecEntry.withDefaults} knows of the array. */
export interface CodecDefaultsContext {
  /** The array's elements have more than one byte per component (byte order matters). */
  multiByte: boolean;
  /** Completes a nested chain (each codec's own `withDefaults`), for elements of `multiByte`. */
  completeChain(chain: JsonValue, multiByte: boolean): Promise<JsonValue>;
}
