/**
 * Loading the entries of other data types for the data types whose configurations name
 * them (`struct` fields, the type an `optional` wraps).
 *
 * Why not import those entries' modules (bundle size and requests): a data type module
 * that another lazily loaded module also imports is reached by two entry points, so esbuild
 * moves it into a chunk of its own, and reading an array of that type then loads one file
 * more (an `int16` read loaded five). Loaded through the registry's lazy entries instead,
 * those modules are reached only by their own entry points.
 */
import type { DataTypeEntry, LazyEntry } from "@zarr/spec";

/** A registry's list of data type entries, some of them lazy. */
export type DataTypeEntries = readonly (DataTypeEntry | LazyEntry<DataTypeEntry>)[];

/** The entries among `entries` whose name `keep` accepts, lazy ones loaded. */
export function loadEntries(entries: DataTypeEntries, keep: (name: string) => boolean): Promise<DataTypeEntry[]> {
  return Promise.all(entries.filter((e) => keep(e.name)).map((e) => ("lazy" in e ? e.load() : e)));
}
