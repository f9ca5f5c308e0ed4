/**
 * The codec contract. Three kinds, as in the spec: array→array (e.g. `transpose`),
 * array→bytes (exactly one per chain, e.g. `bytes`, `sharding_indexed`) and
 * bytes→bytes (compressors, checksums). A codec package exports a {@link CodecEntry};
 * the registry calls its `fromConfig` once per array with the array's chunk spec.
 */
import type { DataType, Scalar } from "./data-type.js";
import type { JsonPath } from "./errors.js";
import type { ExtensionObject } from "./extension.js";
import type { JsonObject } from "./json.js";
import type { DimIndexer, NdArray } from "./ndarray.js";
import type { ByteRange } from "./store.js";
import type { WorkerPool } from "./workers.js";

/** The representation of a chunk at some point of the codec chain. */
export interface ChunkSpec {
  /** Shape of the chunk (for a regular grid, the full chunk shape even at the array's edge). */
  shape: number[];
  dataType: DataType;
  fillValue: Scalar;
}

/** Per-call context: the chunk key for error messages, and cancellation. */
export interface CodecCallContext {
  /** Store key of the chunk being encoded or decoded (or a description for inner chunks). */
  key: string;
  signal?: AbortSignal;
  /** Worker threads a codec may use for CPU-heavy work on large inputs. */
  workers?: WorkerPool;
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
}

/** Array → bytes: serialises an array. Exactly one per codec chain. */
export interface ArrayToBytesCodec {
  readonly kind: "array_to_bytes";
  readonly name: string;
  /** Input must be C-contiguous unless {@link acceptsStrided} is true. */
  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array | Promise<Uint8Array>;
  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray | Promise<NdArray>;
  /** Encoded size in bytes for a chunk of `spec`, when fixed (needed for sharding indexes). */
  computeEncodedSize?(spec: ChunkSpec): number | undefined;
  /** True when `encode` accepts any strided view. */
  readonly acceptsStrided?: boolean;
  /**
   * Partial decoding: reads only what `selection` (chunk-local, one indexer per
   * dimension, positive steps) needs from `source`. Resolves the selected elements as a
   * C-contiguous array whose shape is the selection's lengths, or `undefined` when the
   * stored value is missing.
   */
  decodePartial?(
    source: ByteSource,
    selection: readonly DimIndexer[],
    spec: ChunkSpec,
    ctx: CodecCallContext,
  ): Promise<NdArray | undefined>;
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
  /** Encoded size for `decodedSize` input bytes, when fixed (e.g. crc32c: +4). */
  computeEncodedSize?(decodedSize: number): number | undefined;
  /**
   * How a worker thread can run this codec's decode: export `exportName` of `moduleUrl`,
   * called as `fn(bytes, ...args)` and returning the decoded bytes. Lets the core decode a
   * whole chunk (and copy it into a shared result) inside a worker.
   */
  workerDecode?(ctx: CodecCallContext): WorkerCall;
  toJSON(): ExtensionObject;
}

/** A function call a worker thread can make (see `BytesToBytesCodec.workerDecode`). */
export interface WorkerCall {
  moduleUrl: string;
  exportName: string;
  args: unknown[];
  /**
   * Optionally, an export of the same module that decodes into a buffer the worker keeps
   * between chunks: `fn(bytes, scratch, ...args)`, synchronous, returning the decoded
   * bytes as a view of the start of `scratch` when they fit, else as a new array. Saves
   * allocating (and page-faulting) a fresh output for every chunk.
   */
  intoExportName?: string;
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
  /** Present when the chain can decode part of a stored value from byte ranges. */
  decodePartial?: ArrayToBytesCodec["decodePartial"];
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
  fromConfig(configuration: JsonObject, context: CodecBuildContext): Codec | Promise<Codec>;
}
