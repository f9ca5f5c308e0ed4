/**
 * @zarr/codec-lzw: TIFF's LZW compression as a Zarr codec (imagecodecs' `imagecodecs_lzw`),
 * so the tiles of LZW-compressed TIFFs read as Zarr chunks; written in TypeScript, no
 * dependencies besides @zarr/spec.
 */
export { LZW_CODEC_NAME, LzwCodec, lzw, parseLzwConfiguration } from "./codec.js";
export { type LzwDecompressOptions, lzwDecompress } from "./decoder.js";
export { lzwCompress } from "./encoder.js";
