/**
 * The registry every `zarr` command uses to resolve codecs, data types, grids, key
 * encodings, stores and storage formats. Everything beyond @zarr/core's built-ins is a
 * lazy entry: a command loads a codec or store package only when it resolves one, so
 * commands that read metadata only (`info`, `tree`) load none.
 */
import { type AnyFormatEntry, createRegistry, lazyOptionalEntries, type Registry } from "@zarr/core";
import { type CodecEntry, type LazyEntry, type RegistryEntry, type StoreEntry, ZarrError } from "@zarr/spec";
import { CODEC_CATALOG, STORE_CATALOG } from "./codec-catalog.js";
import { PACKAGES } from "./package-loaders.js";


/** The registry entry of `type` named `name` among the exports of package `pkg` (arrays of entries included). */
async function packageEntry<E extends CodecEntry | StoreEntry>(pkg: string, type: E["type"], name: string): Promise<E> {
  const load = PACKAGES[pkg];
  if (load === undefined) throw new ZarrError("UNSUPPORTED", `The zarr command does not know the package ${pkg}`);
  const exports = await load();
  for (const value of Object.values(exports)) {
    for (const candidate of Array.isArray(value) ? value : [value]) {
      const entry = candidate as Partial<LazyEntry<E>> & { type?: unknown; name?: unknown };
      if (entry === null || typeof entry !== "object" || entry.type !== type || entry.name !== name) continue;
      return entry.lazy === true && typeof entry.load === "function" ? entry.load() : (entry as E);
    }
  }
  throw new ZarrError("UNSUPPORTED", `${pkg} exports no ${type} entry named "${name}"`);
}

const codecEntries: readonly LazyEntry<CodecEntry>[] = CODEC_CATALOG.map((c) => ({
  type: "codec",
  name: c.name,
  aliases: c.aliases,
  package: c.package,
  lazy: true,
  load: () => packageEntry<CodecEntry>(c.package, "codec", c.name),
}));

const storeEntries: readonly LazyEntry<StoreEntry>[] = STORE_CATALOG.map((s) => ({
  type: "store",
  name: s.name,
  aliases: s.schemes,
  package: s.package,
  lazy: true,
  load: () => packageEntry<StoreEntry>(s.package, "store", s.name),
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


const entries: readonly (RegistryEntry | AnyFormatEntry)[] = [...codecEntries, ...storeEntries, ...formatEntries, ...lazyOptionalEntries];

/**
 * The registry of the `zarr` command: @zarr/core's built-in entries (data types,
 * `regular`/`rectilinear` grids, `default`/`v2` key encodings, `bytes`, `transpose`)
 * plus zarrs' `optional` type and codec and every codec, store adapter and storage format
 * of @zarr/all, as lazy entries: a
 * codec's own package loads when an array first needs one.
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
