/**
 * A lazy registry entry for the blosc codec: registering it costs nothing; the codec
 * (and its inner compressors) is loaded on first use, so bundlers can split it out.
 */
import type { CodecEntry, LazyEntry } from "@zarr/spec";

/**
 * The blosc codec (alias "numcodecs.blosc") as a lazy registry entry.
 *
 * @example
 * ```ts
 * import { bloscLazy } from "@zarr/codec-blosc/lazy";
 * const registry = createRegistry([bloscLazy]);
 * ```
 */
export const bloscLazy: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "blosc",
  aliases: ["numcodecs.blosc"],
  package: "@zarr/codec-blosc",
  lazy: true,
  load: () => import("./codec.js").then((m) => m.blosc),
};
