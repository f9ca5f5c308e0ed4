/**
 * @zarr/v2-compat: Zarr v2 read and write, v2 → v3 conversion, and the early v3 draft
 * layout, on top of @zarr/core.
 */
export {
  parseTypestr,
  parseDtype,
  dtypeToDataType,
  dataTypeToDtype,
  type ByteOrder,
  type Dtype,
  type DtypeField,
  type SimpleDtype,
  type StructDtype,
} from "./dtype.js";
export {
  parseArrayMetadataV2,
  parseGroupMetadataV2,
  parseConsolidatedV2,
  type ArrayMetadataV2,
  type CodecConfigV2,
  type ConsolidatedMetadataV2,
  type GroupMetadataV2,
} from "./metadata.js";
export { v2ArrayToV3, v2ArrayMetadata, unreadableV2Array, UNREADABLE_V2_DATA_TYPE, type V2ArrayModel } from "./v2-model.js";
export { v2CodecsToV3, type MappedChain } from "./codecs.js";
export { v2NodeFormat, consolidateMetadataV2, normalizeV2Path } from "./v2-format.js";
export { v2Format } from "./v2-entry.js";
export { draftFormat, DraftKeyEncoding } from "./draft-format.js";
export { writeDraft, type WriteDraftOptions, type WriteDraftResult } from "./draft-write.js";
export { createArrayV2, createGroupV2, type CreateArrayV2Options, type CreateNodeV2Options } from "./create.js";
export {
  convert,
  v3MetadataOf,
  type ConvertOptions,
  type ConvertProgress,
  type ConvertResult,
  type ConvertedArray,
  type SkippedArray,
} from "./convert.js";
export { convertJob, type ConvertJob, type ConvertJobOptions } from "./convert-job.js";
