/**
 * @zarr/codec-pcodec: the `numcodecs.pcodec` codec for Zarr, with a decoder of pcodec's
 * standalone format written in TypeScript (no native code, no dependencies besides
 * @zarr/spec).
 */
export type { PcoNumberType } from "./number-types.js";
export { type PcoDecoded, type PcoDecompressOptions, type PcoValuesByType, pcoDecompress } from "./standalone.js";
