/** Worker-side entry points: zstd decoding run by a worker pool (see `workerDecode` in @zarr/spec). */
import { decodeFrames } from "./decoder/decompress.js";

/** Decodes every frame of `bytes`; errors name `key`. */
export function decode(bytes: Uint8Array, key: string): Uint8Array {
  return decodeFrames(bytes, undefined, key);
}

/**
 * Decodes every frame of `bytes` into the start of `scratch` when the frames declare
 * their sizes and the total fits, else into a new array (see `WorkerCall.intoExportName`).
 */
export function decodeInto(bytes: Uint8Array, scratch: Uint8Array, key: string): Uint8Array {
  return decodeFrames(bytes, undefined, key, scratch);
}
