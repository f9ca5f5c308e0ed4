/**
 * A lazy registry entry for the zfpy codec: registering it costs nothing until an array
 * actually uses zfpy, when the decoder module is imported (and, in a bundle, fetched as a
 * separate chunk).
 */
import type { CodecEntry, LazyEntry } from "@zarr/spec";

/**
 * Lazy form of the `numcodecs.zfpy` entry (alias `zfpy`).
 *
 * @example
 * ```ts
 * const registry = createRegistry([zfpyLazy]); // from @zarr/core
 * ```
 */
export const zfpyLazy: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "numcodecs.zfpy",
  aliases: ["zfpy"],
  package: "@zarr/codec-zfpy",
  lazy: true,
  load: () => import("./codec.js").then((m) => m.zfpy),
};
