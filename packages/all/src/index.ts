/**
 * @zarr/all: @zarr/core with every codec and store adapter registered. Its `open`,
 * `create*`, `consolidateMetadata` and `openStore` default to `registry`, a registry
 * holding everything; everything else is @zarr/core's own. Importing it also registers
 * every entry in @zarr/core's `defaultRegistry`, so @zarr/core's functions and the
 * packages built on it (@zarr/geozarr, @zarr/v2-compat) read everything by default too.
 */

import type { Registry, Store, ZarrGroup } from "@zarr/core";
import * as core from "@zarr/core";
import { allEntries } from "./entries.js";
import { providerHints } from "./providers.js";

export * from "@zarr/core";
export { FileSystemStore, fileStoreEntry } from "@zarr/store-fs";
export { HttpStore, httpStoreEntry } from "@zarr/store-http";
export { writeZip, ZipStore, zipStoreEntry } from "@zarr/store-zip";
export { allEntries, codecEntries, optionalEntries, storeEntries } from "./entries.js";
export { providerHints, providerOf, storeProviderOf } from "./providers.js";

/**
 * `createRegistry` from @zarr/core with {@link providerHints}: a registry of just
 * `entries` whose error for a missing codec or store names the @zarr package to install.
 *
 * @example
 * ```ts
 * const registry = createRegistry([gzip]);
 * await registry.codec("zstd"); // CODEC_UNKNOWN: ... It is provided by @zarr/codec-zstd: install it ...
 * ```
 */
export function createRegistry(
  entries: Parameters<typeof core.createRegistry>[0] = [],
  options: core.RegistryOptions = {},
): Registry {
  return core.createRegistry(entries, { ...providerHints, ...options });
}

/**
 * A new registry with the built-ins of @zarr/core plus every @zarr codec and store,
 * and `extra` entries (third-party codecs) on top.
 *
 * @example
 * ```ts
 * const registry = createFullRegistry([myCodecEntry]);
 * ```
 */
export function createFullRegistry(extra: Parameters<typeof core.createRegistry>[0] = []): Registry {
  return createRegistry([...allEntries, ...extra]);
}

/** The registry every function of this package uses by default. */
export const registry: Registry = createFullRegistry();

// As with zarrita or zarr-python, a program that imports the full package reads whatever it
// is given with every function, not only with this package's: core's shared default
// registry gets every entry (lazy ones stay lazy). @zarr/core itself imports none of them,
// so bundles of @zarr/core alone stay small.
core.defaultRegistry.add(...allEntries);

type WithRegistry<O> = O & { registry?: Registry };
const withDefault = <O extends object>(options: O | undefined): WithRegistry<O> => ({ registry, ...(options ?? ({} as O)) });

/** `open` from @zarr/core, with every codec registered. */
export function open(location: Store | ZarrGroup, path?: string, options?: core.OpenOptions): Promise<core.ZarrNode> {
  return core.open(location, path, withDefault(options));
}
/**
 * `openArray` from @zarr/core, with every codec registered. `options.dataType` checks the
 * array's data type and narrows it, as there: `get` then returns e.g. a `Float32Array`.
 */
export function openArray<N extends string>(
  location: Store | ZarrGroup,
  path: string,
  options: core.OpenArrayOptions<N> & { dataType: N },
): Promise<core.ZarrArray<N>>;
export function openArray(location: Store | ZarrGroup, path?: string, options?: core.OpenArrayOptions): Promise<core.ZarrArray>;
export function openArray(location: Store | ZarrGroup, path?: string, options?: core.OpenArrayOptions): Promise<core.ZarrArray> {
  return core.openArray(location, path, withDefault(options));
}
/** `openGroup` from @zarr/core, with every codec registered. */
export function openGroup(location: Store | ZarrGroup, path?: string, options?: core.OpenOptions): Promise<core.ZarrGroup> {
  return core.openGroup(location, path, withDefault(options));
}
/** `createArray` from @zarr/core; its default codecs are `bytes` + `zstd`. A literal `dataType` types the array, as there. */
export function createArray<N extends string = string>(store: Store, path: string, options: core.CreateArrayOptions<N>): Promise<core.ZarrArray<N>> {
  return core.createArray(store, path, withDefault(options));
}
/** `createGroup` from @zarr/core. */
export function createGroup(store: Store, path?: string, options?: core.CreateNodeOptions): Promise<core.ZarrGroup> {
  return core.createGroup(store, path, withDefault(options));
}
/** `create` from @zarr/core: an array when `shape` is given, else a group. */
export function create<N extends string = string>(store: Store, path: string, options: core.CreateArrayOptions<N>): Promise<core.ZarrArray<N>>;
export function create(store: Store, path?: string, options?: core.CreateNodeOptions): Promise<core.ZarrGroup>;
export function create(
  store: Store,
  path = "",
  options: core.CreateNodeOptions | core.CreateArrayOptions = {},
): Promise<core.ZarrArray | core.ZarrGroup> {
  return core.create(store, path, withDefault(options) as core.CreateArrayOptions);
}
/** `consolidateMetadata` from @zarr/core. */
export function consolidateMetadata(store: Store, path?: string, options?: core.NodeOptions & { signal?: AbortSignal }): Promise<core.ZarrGroup> {
  return core.consolidateMetadata(store, path, withDefault(options));
}
/** `openStore` from @zarr/core, with every store adapter registered. */
export function openStore(location: string, options?: Parameters<typeof core.openStore>[1]): Promise<Store> {
  return core.openStore(location, withDefault(options));
}
