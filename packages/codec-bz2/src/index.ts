/**
 * @zarr/codec-bz2: the numcodecs `bz2` codec for Zarr, with a bzip2 compressor and
 * decompressor written in TypeScript (no native code, no dependencies besides @zarr/spec).
 */
export { BZ2_CODEC_NAME, Bz2Codec, bz2, DEFAULT_BZ2_LEVEL, parseBz2Level } from "./codec.js";
export { type Bz2DecompressOptions, bz2Decompress } from "./decoder.js";
export { bz2Compress } from "./encoder.js";
