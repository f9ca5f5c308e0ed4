/**
 * An opt-in cache of decoded chunks, bounded by bytes. `get` copies cached chunks into
 * its result without a store request or a decode; writes through `set`, `resize` and
 * `deleteNode` drop the entries they make stale.
 */
import { ByteLruCache, type ChunkSpec, type DataArray, type Store, ZarrError } from "@zarr/spec";

/** Options of {@link createChunkCache}. */
export interface ChunkCacheOptions {
  /**
   * The most bytes of decoded chunks held (the typed arrays' sizes; for arrays of
   * strings or objects an estimate). Chunks larger than this are not cached.
   */
  maxBytes: number;
}

/** What the cache knows about one chunk: its decoded elements, or that it is not stored (all fill value). */
interface Entry {
  /** C-order elements owned by the cache, or `undefined` for a chunk that is not stored. */
  data: DataArray | undefined;
  shape: readonly number[];
  dataTypeName: string;
  storeId: number;
  key: string;
}

/** Charged per entry on top of its elements (the key, the map slot, a missing chunk's record). */
const ENTRY_OVERHEAD = 64;

const storeIds = new WeakMap<object, number>();
let nextStoreId = 1;
function storeId(store: object): number {
  let id = storeIds.get(store);
  if (id === undefined) storeIds.set(store, (id = nextStoreId++));
  return id;
}

/** The caches holding chunks of each store, so a write through core reaches all of them. */
const cachesByStore = new WeakMap<object, Set<WeakRef<ChunkCache>>>();

function estimateBytes(data: DataArray): number {
  if (ArrayBuffer.isView(data)) return data.byteLength;
  let bytes = 16 * data.length;
  for (const v of data) {
    if (typeof v === "string") bytes += 2 * v.length;
    else if (v instanceof Uint8Array) bytes += v.byteLength;
  }
  return bytes;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A least-recently-used cache of decoded chunks shared by any number of arrays (of any
 * stores), bounded by `maxBytes`. Make one with {@link createChunkCache} and pass it to
 * `open`/`openArray`/`createArray` (`{ chunkCache }`, for every `get` of that array) or
 * to a single `get`.
 *
 * - A chunk in the cache is copied into `get`'s result: no store request, no decode.
 *   Chunks that are not stored are remembered too (they read as the fill value).
 * - `set`, `resize` and `deleteNode` through @zarr/core drop the entries of the chunks
 *   they change, in every cache holding chunks of that store (a read racing a write is
 *   not cached). Writes by anyone else are not seen until the entry is evicted or
 *   `invalidate`/`clear` is called.
 * - Sharded arrays are not cached here (their reads are partial: caching whole shards
 *   would defeat that); put a `CachingStore` from @zarr/store-utils under them instead.
 *
 * @example
 * ```ts
 * const chunkCache = createChunkCache({ maxBytes: 256 * 1024 * 1024 });
 * const arr = await openArray(store, "t2m", { chunkCache });
 * await get(arr, [0, null, null]); // reads and decodes
 * await get(arr, [0, null, null]); // copies from the cache
 * chunkCache.hits; chunkCache.bytes;
 * ```
 */
export class ChunkCache {
  /** The most bytes held. */
  readonly maxBytes: number;
  /** Entries by `storeId \0 key`. */
  readonly #entries: ByteLruCache<string, Entry>;
  /** Chunk keys held per store id, for prefix invalidation. */
  readonly #keysByStore = new Map<number, Set<string>>();
  readonly #self = new WeakRef(this);
  /** Stores this cache has been used with (and registered for invalidation by). */
  readonly #registered = new WeakSet<object>();
  #hits = 0;
  #misses = 0;
  #epoch = 0;

  constructor(options: ChunkCacheOptions) {
    const maxBytes = options?.maxBytes;
    if (typeof maxBytes !== "number" || !(maxBytes >= 0) || maxBytes === Infinity) {
      throw new ZarrError("INVALID_ARGUMENT", `Chunk cache option "maxBytes" must be a finite number >= 0, got ${String(maxBytes)}`);
    }
    this.maxBytes = maxBytes;
    this.#entries = new ByteLruCache({ maxBytes, onEvict: (_, entry) => this.#untrack(entry.storeId, entry.key) });
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#entries.bytes;
  }
  /** Chunks held now. */
  get entries(): number {
    return this.#entries.size;
  }
  /** Chunk reads served from the cache. */
  get hits(): number {
    return this.#hits;
  }
  /** Chunk reads that went to the store. */
  get misses(): number {
    return this.#misses;
  }

  /**
   * Called before reading a chunk of `store` from the store: registers the cache for
   * invalidation by writes to `store`, and returns a token for `insert`, which drops the
   * chunk if anything was invalidated in between.
   * @internal
   */
  begin(store: Store): number {
    if (!this.#registered.has(store)) {
      this.#registered.add(store);
      register(store, this.#self);
    }
    return this.#epoch;
  }

  /**
   * The cached chunk at `key` of `store` for a chunk of `spec` (a hit), or `undefined` (a
   * miss). A hit's `data` is `undefined` when the chunk is not stored. Do not modify it.
   * @internal
   */
  lookup(store: Store, key: string, spec: ChunkSpec): { data: DataArray | undefined } | undefined {
    const id = `${storeId(store)}\0${key}`;
    const entry = this.#entries.get(id);
    if (entry === undefined || entry.dataTypeName !== spec.dataType.name || !sameShape(entry.shape, spec.shape)) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    return entry;
  }

  /**
   * Whether a chunk of `spec` could be held at all (callers skip copying it otherwise).
   * @internal
   */
  fits(spec: ChunkSpec): boolean {
    let elements = 1;
    for (const n of spec.shape) elements *= n;
    const sample = spec.dataType.allocate(1);
    const perElement = ArrayBuffer.isView(sample) ? sample.byteLength : 16;
    return elements * perElement + ENTRY_OVERHEAD <= this.maxBytes;
  }

  /**
   * Keeps `chunk` (C order, owned by the cache from now on; `undefined`: not stored) unless
   * something was invalidated since `begin` returned `epoch`.
   * @internal
   */
  insert(store: Store, key: string, spec: ChunkSpec, data: DataArray | undefined, epoch: number): void {
    if (epoch !== this.#epoch) return;
    const cost = (data === undefined ? 0 : estimateBytes(data)) + ENTRY_OVERHEAD;
    if (cost > this.maxBytes) return;
    const sid = storeId(store);
    const entry: Entry = { data, shape: spec.shape.slice(), dataTypeName: spec.dataType.name, storeId: sid, key };
    this.#entries.set(`${sid}\0${key}`, entry, cost);
    let keys = this.#keysByStore.get(sid);
    if (keys === undefined) this.#keysByStore.set(sid, (keys = new Set()));
    keys.add(key);
  }

  /** Drops the chunk at `key` of `store` (after changing it behind @zarr/core's back). */
  invalidate(store: Store, key: string): void {
    this.#epoch++;
    this.#remove(storeId(store), key);
  }

  /** Drops every chunk of `store` whose key starts with `prefix` (`""`: all of the store's chunks). */
  invalidatePrefix(store: Store, prefix: string): void {
    this.#epoch++;
    const sid = storeId(store);
    const keys = this.#keysByStore.get(sid);
    if (keys === undefined) return;
    for (const key of [...keys]) if (key.startsWith(prefix)) this.#remove(sid, key);
  }

  /** Drops everything. */
  clear(): void {
    this.#epoch++;
    this.#entries.clear();
    this.#keysByStore.clear();
  }

  #remove(sid: number, key: string): void {
    if (this.#entries.delete(`${sid}\0${key}`)) this.#untrack(sid, key);
  }

  /** Forgets `key` in the per-store index once its entry is gone. */
  #untrack(sid: number, key: string): void {
    const keys = this.#keysByStore.get(sid);
    keys?.delete(key);
    if (keys?.size === 0) this.#keysByStore.delete(sid);
  }
}

function register(store: Store, cache: WeakRef<ChunkCache>): void {
  let set = cachesByStore.get(store);
  if (set === undefined) cachesByStore.set(store, (set = new Set()));
  for (const ref of set) if (ref.deref() === undefined) set.delete(ref);
  set.add(cache);
}

/**
 * Drops the chunk at `key` (or, with `prefix: true`, every chunk under the prefix `key`)
 * of `store` from every chunk cache holding chunks of that store. Core's write paths call
 * it after changing chunks.
 */
export function invalidateChunkCaches(store: object, key: string, { prefix = false } = {}): void {
  const set = cachesByStore.get(store);
  if (set === undefined) return;
  for (const ref of set) {
    const cache = ref.deref();
    if (cache === undefined) set.delete(ref);
    else if (prefix) cache.invalidatePrefix(store as Store, key);
    else cache.invalidate(store as Store, key);
  }
}

/**
 * Creates a cache of decoded chunks bounded by `maxBytes` (see {@link ChunkCache}).
 *
 * @example
 * ```ts
 * const chunkCache = createChunkCache({ maxBytes: 64 * 1024 * 1024 });
 * const arr = await openArray(store, "t2m", { chunkCache }); // every get of arr uses it
 * const day = await get(other, [0], { chunkCache });         // or one call
 * ```
 */
export function createChunkCache(options: ChunkCacheOptions): ChunkCache {
  return new ChunkCache(options);
}
