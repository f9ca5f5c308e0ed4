/**
 * A lazy registry entry for the numcodecs lz4 codec: registering it costs nothing; the
 * codec and its WebAssembly kernel are loaded on first use, so bundlers can split them out.
 */
import type { CodecEntry, LazyEntry } from "@zarr/spec";

/**
 * The numcodecs lz4 codec (name "numcodecs.lz4", alias "lz4") as a lazy registry entry.
 *
 * @example
 * ```ts
 * import { lz4Lazy } from "@zarr/codec-lz4/lazy";
 * const registry = createRegistry([lz4Lazy]);
 * ```
 */
export const lz4Lazy: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "numcodecs.lz4",
  aliases: ["lz4"],
  package: "@zarr/codec-lz4",
  lazy: true,
  load: () => import("./numcodecs-lz4.js").then((m) => m.lz4),
};
