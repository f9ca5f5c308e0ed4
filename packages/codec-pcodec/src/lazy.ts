/**
 * A lazy registry entry for the pcodec codec: registering it costs nothing until an
 * array actually uses pcodec, when the decoder module is imported (and, in a bundle,
 * fetched as a separate chunk).
 */
import type { CodecEntry, LazyEntry } from "@zarr/spec";

/**
 * Lazy form of the `numcodecs.pcodec` entry (alias `pcodec`).
 *
 * @example
 * ```ts
 * const registry = createRegistry([pcodecLazy]); // from @zarr/core
 * ```
 */
export const pcodecLazy: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "numcodecs.pcodec",
  aliases: ["pcodec"],
  package: "@zarr/codec-pcodec",
  lazy: true,
  load: () => import("./codec.js").then((m) => m.pcodec),
};
