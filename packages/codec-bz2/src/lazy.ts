/**
 * A lazy registry entry for the bz2 codec: registering it costs nothing until an array
 * actually uses bz2, when the compressor/decompressor module is imported (and, in a
 * bundle, fetched as a separate chunk).
 */
import type { CodecEntry, LazyEntry } from "@zarr/spec";

/**
 * Lazy form of the `numcodecs.bz2` entry (alias `bz2`).
 *
 * @example
 * ```ts
 * const registry = createRegistry([bz2Lazy]); // from @zarr/core
 * ```
 */
export const bz2Lazy: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "numcodecs.bz2",
  aliases: ["bz2"],
  package: "@zarr/codec-bz2",
  lazy: true,
  load: () => import("./codec.js").then((m) => m.bz2),
};
