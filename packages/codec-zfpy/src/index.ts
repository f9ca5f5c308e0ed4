/**
 * @zarr/codec-zfpy: the numcodecs `zfpy` codec for Zarr, with a ZFP decoder written in
 * TypeScript (no native code, no dependencies besides @zarr/spec) that matches libzfp 1.0
 * bit for bit, and a lossless (reversible-mode) encoder that writes what zfpy writes.
 */
export { lossySetting, parseZfpyConfig, ZFPY_CODEC_NAME, ZfpyCodec, zfpy } from "./codec.js";
export { type ZfpArray, type ZfpDecompressOptions, zfpDecompress } from "./decompress.js";
export { type ZfpValues, zfpCompressReversible } from "./encode-reversible.js";
export { readZfpHeader, type ZfpHeader, type ZfpMode, type ZfpParams, type ZfpType } from "./header.js";
