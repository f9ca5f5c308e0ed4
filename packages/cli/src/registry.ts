/** The registry every `zarr` command uses to resolve codecs, data types, grids, key encodings and stores. */
import { createFullRegistry } from "@zarr/all";
import type { Registry } from "@zarr/core";

/**
 * The registry of the `zarr` command: @zarr/core's built-in entries (data types,
 * `regular`/`rectilinear` grids, `default`/`v2` key encodings, `bytes`, `transpose`)
 * plus every codec and store package the CLI ships with (those of @zarr/all).
 *
 * @example
 * ```ts
 * cliRegistry().has("codec", "zstd"); // true
 * ```
 */
export function cliRegistry(): Registry {
  return createFullRegistry();
}
