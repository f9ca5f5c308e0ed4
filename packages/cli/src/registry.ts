/**
 * The registry every `zarr` command uses to resolve codecs, data types, grids, key
 * encodings, stores and storage formats. Everything beyond @zarr/core's built-ins is a
 * lazy entry: a command loads a codec or store package only when it resolves one, so
 * commands that read metadata only (`info`, `tree`) load none.
 */
import { type AnyFormatEntry, createRegistry, type Registry } from "@zarr/core";
import type { CodecEntry, LazyEntry, RegistryEntry, StoreEntry } from "@zarr/spec";
import { CODEC_CATALOG, STORE_CATALOG } from "./codec-catalog.js";

let full: Promise<Registry> | undefined;

/** @zarr/all's registry (every codec and store), imported on first use. */
function fullRegistry(): Promise<Registry> {
  full ??= import("./full-registry.js").then((m) => m.fullRegistry);
  return full;
}

const codecEntries: readonly LazyEntry<CodecEntry>[] = CODEC_CATALOG.map((c) => ({
  type: "codec",
  name: c.name,
  aliases: c.aliases,
  package: c.package,
  lazy: true,
  load: async () => (await fullRegistry()).codec(c.name),
}));

const storeEntries: readonly LazyEntry<StoreEntry>[] = STORE_CATALOG.map((s) => ({
  type: "store",
  name: s.name,
  aliases: s.schemes,
  package: s.package,
  lazy: true,
  load: async () => (await fullRegistry()).store(s.name),
}));

/** Zarr v2 and the early v3 draft (@zarr/v2-compat), loaded the first time a path has no zarr.json. */
const formatEntries: readonly AnyFormatEntry[] = [
  { type: "format", name: "zarr-v2", lazy: true, package: "@zarr/v2-compat", load: () => import("./formats.js").then((m) => m.v2Format) },
  {
    type: "format",
    name: "zarr-v3-draft",
    lazy: true,
    package: "@zarr/v2-compat",
    load: () => import("./formats.js").then((m) => m.draftFormat),
  },
];

const entries: readonly (RegistryEntry | AnyFormatEntry)[] = [...codecEntries, ...storeEntries, ...formatEntries];

/**
 * The registry of the `zarr` command: @zarr/core's built-in entries (data types,
 * `regular`/`rectilinear` grids, `default`/`v2` key encodings, `bytes`, `transpose`)
 * plus every codec, store adapter and storage format of @zarr/all, as lazy entries: a
 * codec's package (and @zarr/all) loads when an array first needs one.
 *
 * @example
 * ```ts
 * cliRegistry().has("codec", "zstd"); // true, without loading @zarr/codec-zstd
 * ```
 */
export function cliRegistry(): Registry {
  // Every @zarr codec and store is registered, so a missing one is none of ours: say so
  // as @zarr/all's provider hints do for such names.
  return createRegistry(entries, { providerOf: () => undefined });
}
