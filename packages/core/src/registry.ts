/**
 * The registry: every extension point (codecs, data types, chunk grids, chunk key
 * encodings, storage transformers, store adapters) resolved by name. A registry is a
 * value; `defaultRegistry` is one shared instance for convenience. Entries may be lazy so
 * bundlers split rarely used code out.
 */
import type {
  ChunkGridEntry,
  ChunkKeyEncodingEntry,
  CodecEntry,
  DataTypeEntry,
  ExtensionEntry,
  JsonPath,
  LazyEntry,
  RegistryEntry,
  StorageTransformerEntry,
  Store,
  StoreEntry,
} from "@zarr/spec";
import { builtinChunkGrids } from "./chunk-grids.js";
import { builtinChunkKeyEncodings } from "./chunk-key-encodings.js";
import { builtinCodecs } from "./codecs/builtin.js";
import { coreDataTypeEntries } from "./data-types/builtin.js";

type EntryType = ExtensionEntry["type"];
type EntryOf<T extends EntryType> = Extract<ExtensionEntry, { type: T }>;

/**
 * A storage-format entry (Zarr v2, the early v3 draft...) as the registry keeps it. Its
 * full contract is `FormatEntry` in formats.ts, which builds on the node model and so on
 * this module: the registry only stores, orders and loads format entries.
 */
export interface LoadedFormatEntry {
  readonly type: "format";
  readonly name: string;
  readonly package?: string;
  /** Describes the node at `path` (formats.ts gives the exact options and result). */
  read(store: Store, path: string, options: { signal?: AbortSignal }): Promise<unknown>;
}

/** A format entry loaded on first use (`LazyFormatEntry` in formats.ts). */
export interface LazyLoadedFormatEntry {
  readonly type: "format";
  readonly name: string;
  readonly package?: string;
  readonly lazy: true;
  load(): Promise<LoadedFormatEntry>;
}

/** Any format entry a registry accepts. */
export type RegistrableFormatEntry = LoadedFormatEntry | LazyLoadedFormatEntry;

/** The kinds of entry a registry resolves by name. */
export type RegistryEntryType = EntryType;

/** Options of a {@link Registry} (and {@link createRegistry}). */
export interface RegistryOptions {
  /**
   * Names the package that provides a codec, store scheme, data type... this registry
   * lacks, for the `CODEC_UNKNOWN`/`UNSUPPORTED` message ("It is provided by
   * @zarr/codec-zstd: install it..."); `undefined` when it knows none. @zarr/all supplies
   * the table of every @zarr package; without one, the message names the missing
   * extension and says to install the package that provides it or use @zarr/all.
   * Copies made with `extend` keep it.
   */
  providerOf?: (type: RegistryEntryType, name: string) => string | undefined;
}

/** Where a lookup came from, for error messages. */
export interface LookupSite {
  /** Store key of the metadata document. */
  key?: string;
  /** JSON path of the extension definition. */
  path?: JsonPath;
}

/** The registry's errors, loaded for one (one import site: the chunk's name ships once, bundle size). */
const registryErrors = () => import("./registry-errors.js");

/**
 * A set of named extensions. Look-ups are asynchronous because lazy entries load on
 * first use.
 */
export class Registry {
  private readonly byName = new Map<string, RegistryEntry | RegistrableFormatEntry>();
  /** Data type entries (eager or lazy) that claim parametrised names (`r16`). */
  private readonly matchers: (DataTypeEntry | LazyEntry)[] = [];
  /** Lazy entries being loaded or loaded. */
  private readonly loaded = new Map<LazyEntry | LazyLoadedFormatEntry, Promise<ExtensionEntry | LoadedFormatEntry>>();
  /** What this registry was made with (kept by `extend`). */
  readonly options: Readonly<RegistryOptions>;

  constructor(entries: Iterable<RegistryEntry | RegistrableFormatEntry> = [], options: RegistryOptions = {}) {
    this.options = { ...options };
    for (const e of entries) this.add(e);
  }

  /**
   * Adds entries (replacing any with the same type and name) and returns the registry.
   *
   * @example
   * ```ts
   * defaultRegistry.add(gzip, zstd);
   * ```
   */
  add(...entries: (RegistryEntry | RegistrableFormatEntry)[]): this {
    for (const entry of entries) {
      const aliases = "aliases" in entry ? (entry.aliases ?? []) : [];
      const names = entry.type === "store" && !("lazy" in entry) ? (entry as StoreEntry).schemes : [entry.name, ...aliases];
      for (const name of names) this.byName.set(`${entry.type}:${name}`, entry);
      if (entry.type === "data_type" && typeof entry.matches === "function") {
        this.matchers.push(entry);
      }
    }
    return this;
  }

  /** A new registry holding this one's entries plus `entries`, with the same options. */
  extend(...entries: (RegistryEntry | RegistrableFormatEntry)[]): Registry {
    const next = new Registry(this.list(), this.options);
    next.add(...entries);
    return next;
  }

  /** Every distinct entry. */
  list(): (RegistryEntry | RegistrableFormatEntry)[] {
    return [...new Set(this.byName.values()), ...this.matchers.filter((m) => !this.byName.has(`data_type:${m.name}`))];
  }

  /**
   * The storage formats besides Zarr v3 (`"format"` entries, e.g. Zarr v2 from
   * @zarr/v2-compat) in the order they were added, lazy ones loaded. `open` and the
   * hierarchy functions ask them, in this order, about paths that have no `zarr.json`.
   */
  async formats(): Promise<LoadedFormatEntry[]> {
    const out: LoadedFormatEntry[] = [];
    for (const entry of this.byName.values()) {
      if (entry.type === "format") out.push("lazy" in entry ? ((await this.load(entry, "format", entry.name)) as LoadedFormatEntry) : entry);
    }
    return out;
  }

  /** True when `name` resolves (without loading it). */
  has(type: EntryType, name: string): boolean {
    return this.byName.has(`${type}:${name}`) || (type === "data_type" && this.matchers.some((m) => m.matches?.(name)));
  }

  /** Resolves a codec, or throws `CODEC_UNKNOWN` naming the codec (and, with provider hints, its package). */
  codec(name: string, site: LookupSite = {}): Promise<CodecEntry> {
    return this.resolve("codec", name, site);
  }

  /** Resolves a data type, or throws `UNSUPPORTED`. */
  dataType(name: string, site: LookupSite = {}): Promise<DataTypeEntry> {
    return this.resolve("data_type", name, site);
  }

  /** Resolves a chunk grid, or throws `UNSUPPORTED`. */
  chunkGrid(name: string, site: LookupSite = {}): Promise<ChunkGridEntry> {
    return this.resolve("chunk_grid", name, site);
  }

  /** Resolves the store adapter for a URL scheme (`"http"`, `"s3"`, `"file"`), or throws `UNSUPPORTED`. */
  store(scheme: string, site: LookupSite = {}): Promise<StoreEntry> {
    return this.resolve("store", scheme, site);
  }

  /**
   * Resolves a storage transformer (the array metadata's `storage_transformers`), or
   * throws `UNSUPPORTED` naming it.
   */
  storageTransformer(name: string, site: LookupSite = {}): Promise<StorageTransformerEntry> {
    return this.resolve("storage_transformer", name, site);
  }

  /** Resolves a chunk key encoding, or throws `UNSUPPORTED`. */
  chunkKeyEncoding(name: string, site: LookupSite = {}): Promise<ChunkKeyEncodingEntry> {
    return this.resolve("chunk_key_encoding", name, site);
  }

  /**
   * Starts loading what `name` resolves to, without waiting: a lazy entry's `load`, then
   * a codec's own `prefetch` (code its decoding loads on first use). `open` calls it for
   * the data type and codecs array metadata names as soon as it is parsed, so their
   * code loads together, while the metadata is resolved. Unknown names and failed loads
   * are left to the look-up that follows, which reports them.
   */
  prefetch(type: EntryType, name: string): void {
    if (this.has(type, name))
      this.resolve(type, name, {}).then(
        (entry) => (entry as Partial<CodecEntry>).prefetch?.(),
        () => {},
      );
  }

  private async resolve<T extends EntryType>(type: T, name: string, site: LookupSite): Promise<EntryOf<T>> {
    let entry = this.byName.get(`${type}:${name}`) as RegistryEntry | undefined;
    if (entry === undefined && type === "data_type") entry = this.matchers.find((m) => m.matches?.(name));
    if (entry === undefined) {
      // Loaded only for the error (bundle size): its hints are long.
      const { unknownEntry } = await registryErrors();
      throw unknownEntry(type, name, site, this.options.providerOf);
    }
    if (!("lazy" in entry)) return entry as EntryOf<T>;
    return (await this.load(entry as LazyEntry, type === "store" ? "store for URL scheme" : type.replaceAll("_", " "), name)) as EntryOf<T>;
  }

  /** Loads a lazy entry once (a failed load is retried next time); `what` and `name` go into the error. */
  private load(lazy: LazyEntry | LazyLoadedFormatEntry, what: string, name: string): Promise<ExtensionEntry | LoadedFormatEntry> {
    let pending = this.loaded.get(lazy);
    if (pending === undefined) {
      pending = (lazy.load() as Promise<ExtensionEntry | LoadedFormatEntry>).then(
        async (loaded) => {
          if (loaded.type !== lazy.type) throw (await registryErrors()).wrongLazyEntry(lazy, loaded);
          return loaded;
        },
        async (error: unknown) => {
          this.loaded.delete(lazy);
          throw (await registryErrors()).lazyLoadFailed(lazy, what, name, error);
        },
      );
      this.loaded.set(lazy, pending);
    }
    return pending;
  }
}

/**
 * The entries every registry starts with: core data types (plus `struct`,
 * `null_terminated_bytes` and `object` for what Zarr v2 holds), grids, key encodings,
 * `bytes` and `transpose`. Rarely used ones are lazy entries (their code loads the first
 * time an array needs it): every data type but `bool`, the integers, `float32` and
 * `float64`, the `rectilinear` grid and `transpose`.
 */
export const builtinEntries: readonly RegistryEntry[] = [
  ...coreDataTypeEntries,
  ...builtinChunkGrids,
  ...builtinChunkKeyEncodings,
  ...builtinCodecs,
];

/**
 * Creates a registry holding the built-in entries plus `entries`; `options.providerOf`
 * names packages in the error for an extension it lacks (see {@link RegistryOptions}).
 *
 * @example
 * ```ts
 * import { createRegistry } from "@zarr/core";
 * import { gzip } from "@zarr/codec-gzip";
 * const registry = createRegistry([gzip]);
 * const arr = await open(store, "temperature", { registry });
 * ```
 */
export function createRegistry(entries: Iterable<RegistryEntry | RegistrableFormatEntry> = [], options: RegistryOptions = {}): Registry {
  const registry = new Registry(builtinEntries, options);
  for (const e of entries) registry.add(e);
  return registry;
}

/**
 * The registry used when none is passed. Add codec packages to it once at start-up:
 * `defaultRegistry.add(gzip, zstd)`.
 */
export const defaultRegistry: Registry = createRegistry();
