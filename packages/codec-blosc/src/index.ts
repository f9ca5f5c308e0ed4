/**
 * @zarr/codec-blosc: the blosc codec (c-blosc 1.x format) in TypeScript, with its
 * inner compressors (blosclz, lz4, lz4hc, snappy, zlib, zstd) and filters (byte
 * shuffle, bit shuffle).
 */

export { bitShuffle, bitUnshuffle } from "./bitshuffle.js";
export { computeBlocksize } from "./blocksize.js";
export { blosc } from "./codec.js";
export { type BloscCompressOptions, type BloscShuffle, bloscCompress } from "./compress.js";
export type { BloscConfig } from "./config.js";
export { type BloscCname, CNAMES } from "./constants.js";
export { bloscDecompress } from "./decompress.js";
export { type BloscHeader, readBloscHeader } from "./header.js";
export { byteShuffle, byteUnshuffle } from "./shuffle.js";
