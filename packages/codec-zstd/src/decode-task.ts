/** Worker-side entry point: zstd decoding run by a worker pool (see `offload` in @zarr/spec). */
import { decodeFrames } from "./decoder/decompress.js";

/** Decodes every frame of `bytes`; errors name `key`. */
export function decode(bytes: Uint8Array, key: string): Uint8Array {
  return decodeFrames(bytes, undefined, key);
}
