/**
 * @zarr/codec-lz4: the LZ4 block format (decoder, fast encoder, hash-chain HC
 * encoder) and the numcodecs `lz4` codec ("numcodecs.lz4", alias "lz4"), whose decode and
 * encode run a WebAssembly kernel where the runtime has WebAssembly SIMD.
 */
export { lz4DecompressBlock, lz4DecompressBlockInto } from "./lz4-decode.js";
export { lz4CompressBlock, lz4CompressBlockInto, lz4CompressBound } from "./lz4-encode.js";
export { lz4CompressBlockHC, lz4CompressBlockHCInto } from "./lz4-encode-hc.js";
export { lz4KernelError } from "./lz4-problems.js";
export { type Lz4Config, lz4, numcodecsLz4Decode, numcodecsLz4Encode } from "./numcodecs-lz4.js";
