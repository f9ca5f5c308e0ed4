/**
 * @zarr/core: Zarr v3 groups and arrays — open, create, get, set, resize — with the
 * registry, data types, chunk grids, key encodings, the codec pipeline (built-in `bytes`
 * and `transpose`) and an in-memory store.
 */
export * from "./registry.js";
export { MemoryStore } from "./memory-store.js";
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
export { open, openArray, openGroup, exists, openEntry, type OpenOptions } from "./open.js";
export { create, createArray, createGroup, guessChunkShape } from "./create.js";
export { children, listChildren, walkEntries, walk } from "./listing.js";
export { deleteNode, setAttributes, updateAttributes, consolidateMetadata } from "./mutate.js";
export { get, type ArrayData, type GetOptions } from "./read.js";
export { set, type SetOptions, type SetValue, type InputArray } from "./write.js";
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
export { RegularChunkGrid, RectilinearChunkGrid, regularChunkGrid, rectilinearChunkGrid } from "./chunk-grids.js";
export { DefaultKeyEncoding, V2KeyEncoding, defaultChunkKeyEncoding, v2ChunkKeyEncoding } from "./chunk-key-encodings.js";
export { bytesCodec } from "./codecs/bytes.js";
export { transposeCodec } from "./codecs/transpose.js";
export * from "./data-types/index.js";
export { StructDataType, structDataType, type StructField } from "./data-types/struct.js";
export { NullTerminatedBytesDataType, nullTerminatedBytesDataType } from "./data-types/null-terminated-bytes.js";
export { ObjectDataType, objectDataType } from "./data-types/object.js";
export * from "@zarr/spec";
