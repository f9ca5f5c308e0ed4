/**
 * A lazy registry entry for the `zstd` codec: registering it costs nothing; the codec
 * (decoder and the TypeScript encoder) is loaded on first use, so bundlers can split it out.
 */
import type { CodecEntry, LazyEntry } from "@zarr/spec";

/**
 * The `zstd` codec (alias `numcodecs.zstd`) as a lazy registry entry.
 *
 * @example
 * ```ts
 * import { zstdLazy } from "@zarr/codec-zstd/lazy";
 * const registry = createRegistry([zstdLazy]);
 * ```
 */
export const zstdLazy: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "zstd",
  aliases: ["numcodecs.zstd"],
  package: "@zarr/codec-zstd",
  lazy: true,
  load: () => import("./index.js").then((m) => m.zstd),
};
