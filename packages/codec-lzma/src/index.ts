/**
 * @zarr/codec-lzma: the numcodecs `lzma` codec (.xz, .lzma and raw LZMA1/LZMA2) in pure
 * TypeScript, with a real LZMA encoder.
 */
export { lzma, LZMA_CODEC_NAME } from "./codec.js";
export { xzCompress, xzDecompress, lzmaCompress, lzmaDecompress, type XzCompressOptions } from "./api.js";
export {
  FORMAT_AUTO,
  FORMAT_XZ,
  FORMAT_ALONE,
  FORMAT_RAW,
  CHECK_DEFAULT,
  type LzmaOptions,
  type LzmaFilterSpec,
} from "./options.js";
export { CHECK_NONE, CHECK_CRC32, CHECK_CRC64, CHECK_SHA256 } from "./check/check.js";
export { FILTER_DELTA, FILTER_X86, FILTER_LZMA2, FILTER_LZMA1 } from "./xz/format.js";
export { PRESET_EXTREME } from "./lzma/settings.js";
