/** A lazy registry entry: the codec's code is only loaded when an array first uses it. */
import type { CodecEntry, LazyEntry } from "@zarr/spec";

/**
 * Lazy form of the `numcodecs.lzma` codec entry (alias `lzma`): register it instead of the
 * eager entry to keep the LZMA code out of the initial bundle.
 *
 * @example
 * ```ts
 * import { lzmaLazy } from "@zarr/codec-lzma/lazy";
 * const registry = createRegistry([lzmaLazy]);
 * ```
 */
export const lzmaLazy: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "numcodecs.lzma",
  aliases: ["lzma"],
  package: "@zarr/codec-lzma",
  lazy: true,
  load: () => import("./codec.js").then((m) => m.lzma),
};
