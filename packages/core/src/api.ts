/**
 * Everything @zarr/core exports of its own (its entry point, `index.ts`, adds @zarr/spec's
 * exports). Kept apart from `index.ts` so that the entry point holds only `export *`
 * statements: esbuild then leaves @zarr/spec modules that only lazily loaded chunks use
 * out of a bundle's first chunk (an entry point that mixes named and star re-exports
 * makes a bundle import every @zarr/spec module that any chunk uses, up front).
 */
export * from "./registry.js";
export { MemoryStore } from "./memory-store.js";
export { KeyMutex, type ReleaseKey } from "./key-mutex.js";
export { ZarrArray, ZarrGroup, resolveArray, type ZarrNode, type ResolvedArray } from "./nodes.js";
export type {
  NodeOptions,
  ArrayConfig,
  CreateNodeOptions,
  CreateArrayOptions,
  ExtensionLike,
  V2CodecConfig,
} from "./node-options.js";
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
export { open, openArray, openGroup, exists, openEntry, type OpenOptions, type OpenArrayOptions } from "./open.js";
export type { DataTypeMap, DataTypeName, RawBitsName, ArrayOf, ScalarOf, DataTypeOf } from "./data-type-map.js";
export { create, createArray, createGroup, guessChunkShape } from "./create.js";
export { children, listChildren, walkEntries, walk } from "./listing.js";
export { deleteNode, setAttributes, updateAttributes, consolidateMetadata } from "./mutate.js";
export { get, type ArrayData, type GetOptions } from "./read.js";
export { set, type SetOptions, type SetValue, type InputArray } from "./write.js";
export { getCoordinates, getMask } from "./point-read.js";
export { setCoordinates, setMask } from "./point-write.js";
export type { BooleanMask, CoordinateArray, CoordinateSelection, IndexArray } from "./points.js";
export type { NamedSelection } from "./named-selection.js";
export { DEFAULT_CONCURRENCY, type Progress } from "./plan.js";
export { resize, type ResizeOptions } from "./resize.js";
export { ChunkCache, createChunkCache, type ChunkCacheOptions } from "./chunk-cache.js";
export {
  slice,
  mask,
  parseSelection,
  ELLIPSIS,
  type Slice,
  type Mask,
  type DimSelection,
  type Selection,
} from "./selection.js";
export { buildPipeline } from "./pipeline.js";
export { openStore, storeScheme } from "./open-store.js";
export { toCanonicalJson, scalarToCanonicalJson } from "./canonical-json.js";
export { readNodeMetadata, writeNodeMetadata } from "./metadata-io.js";
export { normalizePath, validateNodeName } from "./paths.js";
export { RegularChunkGrid, regularChunkGrid } from "./chunk-grids.js";
export { DefaultKeyEncoding, V2KeyEncoding, defaultChunkKeyEncoding, v2ChunkKeyEncoding } from "./chunk-key-encodings.js";
export { bytesCodec } from "./codecs/bytes.js";
export {
  boolDataType,
  int8DataType,
  int16DataType,
  int32DataType,
  int64DataType,
  uint8DataType,
  uint16DataType,
  uint32DataType,
  uint64DataType,
  float32DataType,
  float64DataType,
} from "./data-types/numeric.js";
export { BoolDataType } from "./data-types/bool.js";
export { BigIntDataType, SmallIntDataType } from "./data-types/integer.js";
export { FloatDataType } from "./data-types/float.js";
export { MACHINE_LITTLE_ENDIAN } from "./data-types/byte-order.js";
export { float32BitsToNumber, numberToFloat32Bits } from "./data-types/float-bits.js";
