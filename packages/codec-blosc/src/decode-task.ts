/** Worker-side entry point: blosc decoding run by a worker pool (see `offload` in @zarr/spec). */
import { bloscDecompress } from "./decompress.js";

/** Decodes a blosc chunk; errors name `key`. */
export function decode(bytes: Uint8Array, key: string): Uint8Array {
  return bloscDecompress(bytes, key);
}
