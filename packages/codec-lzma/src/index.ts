/**
 * @zarr/codec-lzma: the numcodecs `lzma` codec (.xz, .lzma and raw LZMA1/LZMA2) in pure
 * TypeScript, with a real LZMA encoder.
 */

export { lzmaCompress, lzmaDecompress, type XzCompressOptions, xzCompress, xzDecompress } from "./api.js";
export { CHECK_CRC32, CHECK_CRC64, CHECK_NONE, CHECK_SHA256 } from "./check/check.js";
export { LZMA_CODEC_NAME, lzma } from "./codec.js";
export { PRESET_EXTREME } from "./lzma/settings.js";
export {
  CHECK_DEFAULT,
  FORMAT_ALONE,
  FORMAT_AUTO,
  FORMAT_RAW,
  FORMAT_XZ,
  type LzmaFilterSpec,
  type LzmaOptions,
} from "./options.js";
export { FILTER_DELTA, FILTER_LZMA1, FILTER_LZMA2, FILTER_X86 } from "./xz/format.js";
