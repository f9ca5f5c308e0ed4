/**
 * The options of opening and creating nodes: where extensions are looked up, per-array
 * behaviour, and what `createGroup`/`createArray` take (for Zarr v3 and, through a
 * registered format, Zarr v2).
 */

import type { JsonInputObject, JsonObject, JsonValue, Scalar } from "@zarr/spec";
import type { ChunkCache } from "./chunk-cache.js";
import type { ChunkKeyEncodingInput } from "./key-encoding-option.js";
import type { Registry } from "./registry.js";

/** Options shared by functions that open or create nodes. */
export interface NodeOptions {
  /** Where codecs, data types, grids and key encodings are looked up (default: `defaultRegistry`). */
  registry?: Registry;
}

/** Per-array behaviour that is not part of the metadata. */
export interface ArrayConfig {
  /** Write chunks whose elements all equal the fill value (default false: such chunks are deleted; Zarr v2 arrays default to true). */
  writeEmptyChunks: boolean;
  /** Decoded chunks every `get` of the array reuses (`createChunkCache`; default none). */
  chunkCache?: ChunkCache;
  /**
   * The most memory one chunk may take, decoded, and the bound every decompressor decodes
   * against when the chunk spec does not fix the decoded size (variable-length data):
   * default 2 GiB (`DEFAULT_MAX_CHUNK_BYTES`). Chunks and struct records whose metadata
   * implies more fail with `UNSUPPORTED`/`METADATA_INVALID` before anything is allocated;
   * raise it to read them.
   */
  maxChunkBytes: number;
  /**
   * Where the decoded size is not fixed by the chunk spec (variable-length strings and
   * bytes, compressed inner stages), a chunk may decode to at most this many times its
   * stored size (and always to 64 MiB, `DECODE_RATIO_FLOOR`), as archive tools bound
   * decompression: a 33 KB zstd bomb stops at 64 MiB instead of gigabytes later. Default
   * 1000 (`DEFAULT_MAX_DECODE_RATIO`); `Infinity` leaves only `maxChunkBytes`.
   */
  maxDecodeRatio: number;
}

/** Options shared by `createGroup` and `createArray`. */
export interface CreateNodeOptions extends NodeOptions {
  /**
   * The Zarr format to write: 3 (the default, `zarr.json`) or 2 (`.zgroup`/`.zarray`/
   * `.zattrs`), which needs a registry holding the Zarr v2 format (`v2Format` of
   * @zarr/v2-compat, or @zarr/all's registry).
   */
  zarrFormat?: 2 | 3;
  /** User attributes (properties set to `undefined` are left out). */
  attributes?: JsonInputObject;
  /** Replace a node already at the path (deleting everything below it). Default false: `NODE_EXISTS`. */
  overwrite?: boolean;
  /**
   * Create the node even below a node of the other Zarr version (a v3 array in a v2 group,
   * a v2 group below a v3 `zarr.json`). Default false: that is an `INVALID_ARGUMENT` error
   * naming both, and nothing is written.
   */
  allowMixedFormats?: boolean;
  signal?: AbortSignal;
}

/**
 * An extension definition in options: a name, or `{name, configuration}`. Configuration
 * properties set to `undefined` are left out of the metadata (`{ level: cfg.level }`
 * with `cfg.level` unset gives the codec's default).
 */
export type ExtensionLike = string | { name: string; configuration?: JsonInputObject; must_understand?: boolean };

/** A numcodecs codec configuration as Zarr v2 writes it (`{"id": "zlib", "level": 1}`). */
export interface V2CodecConfig extends JsonObject {
  id: string;
}

/**
 * Options of `createArray`. `N` is the data type's name: a literal `dataType: "float32"`
 * makes `createArray` return a `ZarrArray<"float32">`.
 */
export interface CreateArrayOptions<N extends string = string> extends CreateNodeOptions, Partial<ArrayConfig> {
  shape: readonly number[];
  /** `"float32"`, `"string"`, `{name: "numpy.datetime64", configuration: {unit: "s", scale_factor: 1}}`, ... */
  dataType: N | { name: N; configuration?: JsonInputObject; must_understand?: boolean };
  /** Regular chunk shape (default: chosen from the array's size, about 1 MiB per chunk). */
  chunkShape?: readonly number[];
  /** Rectilinear grid: per dimension a chunk size or a list of chunk edge lengths (Zarr v3 only). */
  chunkShapes?: ReadonlyArray<number | readonly number[]>;
  /** Any chunk grid as metadata (overrides `chunkShape`/`chunkShapes`; Zarr v3 only). */
  chunkGrid?: ExtensionLike;
  /**
   * Key encoding: `{name: "default", separator: "/"}` (the v3 default) or `{name: "v2",
   * separator: "."}` (the only one of Zarr v2, whose default separator is `"."`); the
   * metadata form `{name, configuration: {separator}}` is accepted too.
   */
  chunkKeyEncoding?: ChunkKeyEncodingInput;
  /** Fill value, as a JavaScript value (`NaN`, `0n`, `"x"`) or its metadata form (`"NaN"`, `"0x7fc00001"`). Default: the type's zero. */
  fillValue?: Scalar | JsonValue;
  /** The codec chain (Zarr v3 only; default: `bytes` (or `vlen-*` for variable-size types) then `zstd` when the registry has it). */
  codecs?: readonly ExtensionLike[];
  /**
   * Storage transformers (Zarr v3 only), stacked in this order between the array and the
   * store: the first one is nearest the array. Each must be registered (a
   * `storage_transformer` entry), and every chunk read and write goes through them.
   */
  storageTransformers?: readonly ExtensionLike[];
  /** Dimension names (Zarr v2 writes them as xarray's `_ARRAY_DIMENSIONS` attribute and needs strings). */
  dimensionNames?: readonly (string | null)[];
  /** Zarr v2 only: the numcodecs compressor (`null`: none; default Blosc lz4 when the registry has blosc, else none). */
  compressor?: V2CodecConfig | null;
  /** Zarr v2 only: numcodecs filters applied before the compressor. */
  filters?: readonly V2CodecConfig[] | null;
  /** Zarr v2 only: memory layout of each chunk (default `"C"`). */
  order?: "C" | "F";
}
