/**
 * @zarr/core: Zarr v3 groups and arrays — open, create, get, set, resize — with the
 * registry, data types, chunk grids, key encodings, the codec pipeline (built-in `bytes`
 * and `transpose`) and an in-memory store.
 *
 * Every registry holds every built-in extension, but this entry point exports only the
 * common ones (`bool`, integer and `float32`/`float64` data types, the `regular` grid, the
 * key encodings, `bytes`). The others (the remaining data types, the `rectilinear` grid,
 * `transpose`) load on first use and are exported by `@zarr/core/extensions`, so a
 * bundle that imports this entry point keeps them out of its first chunk.
 */

export * from "@zarr/spec";
export { scalarToCanonicalJson, toCanonicalJson } from "./canonical-json.js";
export { ChunkCache, type ChunkCacheOptions, createChunkCache } from "./chunk-cache.js";
export { RegularChunkGrid, regularChunkGrid } from "./chunk-grids.js";
export { DefaultKeyEncoding, defaultChunkKeyEncoding, V2KeyEncoding, v2ChunkKeyEncoding } from "./chunk-key-encodings.js";
export { bytesCodec } from "./codecs/bytes.js";
export { create, createArray, createGroup, guessChunkShape } from "./create.js";
export { BoolDataType } from "./data-types/bool.js";
export { MACHINE_LITTLE_ENDIAN } from "./data-types/byte-order.js";
export { FloatDataType } from "./data-types/float.js";
export { float32BitsToNumber, numberToFloat32Bits } from "./data-types/float-bits.js";
export { BigIntDataType, SmallIntDataType } from "./data-types/integer.js";
export {
  boolDataType,
  float32DataType,
  float64DataType,
  int8DataType,
  int16DataType,
  int32DataType,
  int64DataType,
  uint8DataType,
  uint16DataType,
  uint32DataType,
  uint64DataType,
} from "./data-types/numeric.js";
export { KeyMutex, type ReleaseKey } from "./key-mutex.js";
export { children, listChildren, walk, walkEntries } from "./listing.js";
export { MemoryStore } from "./memory-store.js";
export { readNodeMetadata, writeNodeMetadata } from "./metadata-io.js";
export { consolidateMetadata, deleteNode, setAttributes, updateAttributes } from "./mutate.js";
export type {
  AnyFormatEntry,
  FormatArray,
  FormatCreateArrayOptions,
  FormatCreateGroupOptions,
  FormatEntry,
  FormatGroup,
  FormatNode,
  FormatReadOptions,
  FormatWriteOptions,
  LazyFormatEntry,
  NodeEntry,
  NodeFormat,
} from "./node-format.js";
export type {
  ArrayConfig,
  CreateArrayOptions,
  CreateNodeOptions,
  ExtensionLike,
  NodeOptions,
  V2CodecConfig,
} from "./node-options.js";
export { type ResolvedArray, resolveArray, ZarrArray, ZarrGroup, type ZarrNode } from "./nodes.js";
export { exists, type OpenOptions, open, openArray, openEntry, openGroup } from "./open.js";
export { openStore, storeScheme } from "./open-store.js";
export { normalizePath, validateNodeName } from "./paths.js";
export { buildPipeline } from "./pipeline.js";
export { DEFAULT_CONCURRENCY, type Progress } from "./plan.js";
export { type ArrayData, type GetOptions, get } from "./read.js";
export * from "./registry.js";
export { type ResizeOptions, resize } from "./resize.js";
export {
  type DimSelection,
  ELLIPSIS,
  type Mask,
  mask,
  parseSelection,
  type Selection,
  type Slice,
  slice,
} from "./selection.js";
export { type InputArray, type SetOptions, type SetValue, set } from "./write.js";
