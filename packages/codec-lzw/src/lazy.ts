/**
 * A lazy registry entry for the TIFF LZW codec: registering it costs nothing until an
 * array uses it, when the codec module is imported.
 */
import type { CodecEntry, LazyEntry } from "@zarr/spec";

/**
 * Lazy form of the `numcodecs.imagecodecs_lzw` entry (alias `imagecodecs_lzw`).
 *
 * @example
 * ```ts
 * const registry = createRegistry([lzwLazy]); // from @zarr/core
 * ```
 */
export const lzwLazy: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "numcodecs.imagecodecs_lzw",
  aliases: ["imagecodecs_lzw"],
  package: "@zarr/codec-lzw",
  lazy: true,
  load: () => import("./codec.js").then((m) => m.lzw),
};
