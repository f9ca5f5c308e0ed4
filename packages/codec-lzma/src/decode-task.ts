/** Worker-side entry point: lzma decoding run by a worker pool (see `offload` in @zarr/spec). */
import { decompressWith, guard } from "./compress.js";
import type { ParsedOptions } from "./options.js";

/** Decodes `bytes` with the codec's parsed options; errors name `key`. */
export function decode(bytes: Uint8Array, options: ParsedOptions, key: string): Uint8Array {
  return guard(key, "decode", () => decompressWith(bytes, options, key));
}
