/** Worker-side entry point: bzip2 decoding run by a worker pool (see `offload` in @zarr/spec). */
import { bz2Decompress } from "./decoder.js";

/** Decodes a bzip2 stream; errors name `key`. */
export function decode(bytes: Uint8Array, key: string): Uint8Array {
  return bz2Decompress(bytes, { key });
}
