/**
 * @zarr/codec-zstd: the Zarr v3 `zstd` codec (alias `numcodecs.zstd`), plus raw
 * synchronous zstd functions: a pure-TypeScript compressor (RFC 8878) and a hardened
 * decompressor built on fzstd.
 */
export { createZstdCodec, zstd } from "./codec.js";
export { parseZstdConfiguration, type ZstdConfiguration } from "./config.js";
export { zstdDecompress } from "./decoder/decompress.js";
export { zstdCompress } from "./encoder/frame.js";
