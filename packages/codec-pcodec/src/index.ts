/**
 * @zarr/codec-pcodec: the `numcodecs.pcodec` codec for Zarr, with a decoder of pcodec's
 * standalone format written in TypeScript (no native code, no dependencies besides
 * @zarr/spec).
 */
export {
  DEFAULT_PCODEC_CONFIGURATION,
  PCODEC_CODEC_NAME,
  PcodecCodec,
  type PcodecConfiguration,
  parsePcodecConfiguration,
  pcodec,
} from "./codec.js";
export { MAX_CHUNK_N, type PcoCompressOptions, pcoCompress } from "./encoder.js";
export type { PcoNumberType } from "./number-types.js";
export { type PcoDecoded, type PcoDecompressOptions, type PcoValuesByType, pcoDecompress } from "./standalone.js";
