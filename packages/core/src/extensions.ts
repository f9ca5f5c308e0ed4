/**
 * `@zarr/core/extensions`: every built-in extension of @zarr/core as a value — all data
 * types (entries and classes, zarrs' `optional` included), the `regular` and `rectilinear`
 * chunk grids, the key encodings and the `bytes`, `transpose` and `optional` codecs —
 * plus helpers the data types use, and the checks of hierarchy documents formats and
 * writers need (consolidated keys, the incomplete-write marker).
 *
 * Registries hold all of them already (the rarely used ones load on first use); import
 * from here to use one directly (`rawBitsDataType.fromConfig(...)`, `instanceof
 * StructDataType`). The main entry point exports only the common ones, so bundles that
 * do not import this module keep the others out of their first chunk.
 *
 * @example
 * ```ts
 * import { StructDataType, transposeCodec } from "@zarr/core/extensions";
 * ```
 */
export * from "./data-types/index.js";
export { StructDataType, type StructField } from "./data-types/struct.js";
export { optionalDataType, optionalEntries, structDataType } from "./data-types/composite-entries.js";
export { NullTerminatedBytesDataType, nullTerminatedBytesDataType } from "./data-types/null-terminated-bytes.js";
export { ObjectDataType, objectDataType } from "./data-types/object.js";
export { OptionalDataType, isOptionalDataType, type OptionalScalar } from "./data-types/optional.js";
export { optionalCodec } from "./codecs/optional.js";
export { RegularChunkGrid, regularChunkGrid } from "./chunk-grids.js";
export { RectilinearChunkGrid, rectilinearChunkGrid } from "./rectilinear-grid.js";
export { DefaultKeyEncoding, V2KeyEncoding, defaultChunkKeyEncoding, v2ChunkKeyEncoding } from "./chunk-key-encodings.js";
export { bytesCodec } from "./codecs/bytes.js";
export { transposeCodec } from "./codecs/transpose.js";
export { isDescendantPath, validConsolidatedEntries } from "./consolidated-keys.js";
export { INCOMPLETE_MARKER, incompleteMarkerKey, isIncompleteWrite } from "./incomplete-write.js";
