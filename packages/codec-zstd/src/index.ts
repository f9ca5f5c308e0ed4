/**
 * @zarr/codec-zstd: the Zarr v3 `zstd` codec (alias `numcodecs.zstd`), plus raw
 * synchronous zstd functions: a pure-TypeScript compressor and a hardened
 * pure-TypeScript decompressor (both RFC 8878).
 */
export { createZstdCodec, zstd } from "./codec.js";
export { parseZstdConfiguration, type ZstdConfiguration } from "./config.js";
export { prepareZstdDecoder, zstdDecompress, zstdDecompressInto } from "./decoder/decompress.js";
export { zstdCompress } from "./encoder/frame.js";
