/** Worker-side entry points: blosc decoding run by a worker pool (see `workerDecode` in @zarr/spec). */
import { bloscDecompress } from "./decompress.js";

/** Decodes a blosc chunk; errors name `key`. */
export function decode(bytes: Uint8Array, key: string): Uint8Array {
  return bloscDecompress(bytes, key);
}

/** Decodes a blosc chunk into the start of `scratch` when it fits (see `WorkerCall.intoExportName`). */
export function decodeInto(bytes: Uint8Array, scratch: Uint8Array, key: string): Uint8Array {
  return bloscDecompress(bytes, key, scratch);
}
