/**
 * @zarr/v2-compat: Zarr v2 read and write, v2 → v3 conversion, and the early v3 draft
 * layout, on top of @zarr/core.
 */

export { type MappedChain, v2CodecsToV3 } from "./codecs.js";
export {
  type ConvertedArray,
  type ConvertOptions,
  type ConvertProgress,
  type ConvertResult,
  convert,
  v3MetadataOf,
} from "./convert.js";
export { type CreateArrayV2Options, type CreateNodeV2Options, createArrayV2, createGroupV2 } from "./create.js";
export { DraftKeyEncoding, draftFormat } from "./draft-format.js";
export {
  type ByteOrder,
  type Dtype,
  type DtypeField,
  dataTypeToDtype,
  dtypeToDataType,
  parseDtype,
  parseTypestr,
  type SimpleDtype,
  type StructDtype,
} from "./dtype.js";
export {
  type ArrayMetadataV2,
  type CodecConfigV2,
  type ConsolidatedMetadataV2,
  type GroupMetadataV2,
  parseArrayMetadataV2,
  parseConsolidatedV2,
  parseGroupMetadataV2,
} from "./metadata.js";
export { v2Format } from "./v2-entry.js";
export { consolidateMetadataV2, normalizeV2Path, v2NodeFormat } from "./v2-format.js";
export { type V2ArrayModel, v2ArrayToV3 } from "./v2-model.js";
