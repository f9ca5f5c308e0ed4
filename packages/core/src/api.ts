/**
 * Everything @zarr/core exports of its own (its entry point, `index.ts`, adds @zarr/spec's
 * exports). Kept apart from `index.ts` so that the entry point holds only `export *`
 * statements: esbuild then leaves @zarr/spec modules that only lazily loaded chunks use
 * out of a bundle's first chunk (an entry point that mixes named and star re-exports
 * makes a bundle import every @zarr/spec module that any chunk uses, up front).
 */

export { scalarToCanonicalJson, toCanonicalJson } from "./canonical-json.js";
export { ChunkCache, type ChunkCacheOptions, createChunkCache } from "./chunk-cache.js";
export { RegularChunkGrid, regularChunkGrid } from "./chunk-grids.js";
export { DefaultKeyEncoding, defaultChunkKeyEncoding, V2KeyEncoding, v2ChunkKeyEncoding } from "./chunk-key-encodings.js";
export { bytesCodec } from "./codecs/bytes.js";
export { lazyOptionalEntries } from "./codecs/optional-lazy.js";
export { create, createArray, createGroup, guessChunkShape } from "./create.js";
export type { ArrayOf, DataTypeMap, DataTypeName, DataTypeOf, InputOf, RawBitsName, ScalarOf } from "./data-type-map.js";
export { MACHINE_LITTLE_ENDIAN } from "./data-types/machine-endian.js";
export { KeyMutex, type ReleaseKey } from "./key-mutex.js";
export { DECODE_RATIO_FLOOR, DEFAULT_MAX_DECODE_RATIO } from "./limits.js";
export { children, listChildren, walk, walkEntries } from "./listing.js";
export { MemoryStore } from "./memory-store.js";
export { readNodeMetadata, writeNodeMetadata } from "./metadata-io.js";
export { consolidateMetadata, deleteNode, setAttributes, updateAttributes } from "./mutate.js";
export type { NamedSelection } from "./named-selection.js";
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
export { type ResolveArrayOptions, type ResolvedArray, resolveArray, ZarrArray, ZarrGroup, type ZarrNode } from "./nodes.js";
export { exists, groupFromEntry, type OpenArrayOptions, type OpenOptions, open, openArray, openEntry, openGroup } from "./open.js";
export { openStore, storeScheme } from "./open-store.js";
export { normalizePath, validateNodeName } from "./paths.js";
export { buildPipeline } from "./pipeline.js";
export { DEFAULT_CONCURRENCY, type Progress } from "./plan.js";
export { getCoordinates, getMask } from "./point-read.js";
export { setCoordinates, setMask } from "./point-write.js";
export type { BooleanMask, CoordinateArray, CoordinateSelection, IndexArray } from "./points.js";
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
export type { InputArray, SetValue, SetValueOf } from "./set-value.js";
export { type SetOptions, set } from "./write.js";
