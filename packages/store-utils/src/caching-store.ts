/** `CachingStore`: a read-through cache of values and byte ranges, bounded by bytes. */
import {
  ByteLruCache,
  type ByteRange,
  type DirListing,
  type ReadableStore,
  resolveByteRange,
  type Store,
  type StoreRequestOptions,
  ZarrError,
} from "@zarr/spec";

/** Options of {@link CachingStore}. */
export interface CachingStoreOptions {
  /**
   * The most bytes the cache holds: the values' lengths plus {@link CACHE_ENTRY_OVERHEAD}
   * per entry. Values larger than this are passed through uncached.
   */
  maxBytes: number;
  /** Also remember that a key is missing (default `true`): sparse arrays then read each absent chunk once. */
  cacheMissing?: boolean;
}

/** Bytes charged per cache entry on top of its value's length (the key, the map slot, bookkeeping). */
export const CACHE_ENTRY_OVERHEAD = 64;

/** Reads of one key in flight, and how often the key was invalidated while they ran. */
interface PendingReads {
  inFlight: number;
  epoch: number;
}

/** Which bytes of a value a cached range result holds. */
interface Span {
  start: number;
  /** The result reached the value's end (it was shorter than asked for, or asked for no end). */
  toEnd: boolean;
}

function rangeTag(range: ByteRange): string {
  if ("suffixLength" in range) return `-${range.suffixLength}`;
  return `${range.offset}+${range.length ?? ""}`;
}

/** The store key a cache id belongs to (ids are `key` or `key\0range`). */
function keyOf(id: string): string {
  const nul = id.indexOf("\0");
  return nul < 0 ? id : id.slice(0, nul);
}

/**
 * A read-through cache in front of any store: `get` results are kept whole, `getRange`
 * results per (key, range). A range is answered without a request when the whole value is
 * cached or a cached range result holds it (the sharding codec's first, extended read of
 * a shard then serves its later reads). Least recently used entries are evicted once
 * `maxBytes` is reached.
 *
 * - Writes through this wrapper (`set`, `delete`, `deletePrefix`) go to the inner store
 *   and drop the affected entries, also those of reads still in flight.
 * - Writes by anyone else (another process, another wrapper of the same store) are **not
 *   seen** until the entry is evicted or `invalidate`/`clear` is called: use it for data
 *   that does not change underneath, or invalidate yourself.
 * - Listing passes through uncached; `getSize` is answered from a cached whole value.
 * - Returned bytes are shared with the cache: treat them as read-only (as with
 *   `MemoryStore`). `readInto`, `getInto` and `workerStore` are not offered (they would
 *   bypass the cache; callers fall back to `get`, which is cached).
 *
 * @example
 * ```ts
 * const cached = new CachingStore(new HttpStore(url), { maxBytes: 256 * 1024 * 1024 });
 * const arr = await openArray(cached, "t2m");
 * await get(arr, [0, null, null]); // requests
 * await get(arr, [0, null, null]); // served from memory
 * cached.hits; cached.bytes;
 * ```
 */
export class CachingStore implements ReadableStore {
  /** The wrapped store. */
  readonly inner: Store;
  /** The most bytes held. */
  readonly maxBytes: number;
  readonly #cacheMissing: boolean;
  readonly #lru: ByteLruCache<string, Uint8Array | undefined>;
  /**
   * Store key → the cache ids holding its value (span `null`) or ranges of it (the span of
   * the value they hold, so a later range inside it is cut from it without a request).
   */
  readonly #ids = new Map<string, Map<string, Span | null>>();
  readonly #pending = new Map<string, PendingReads>();
  #hits = 0;
  #misses = 0;

  declare getRange?: (key: string, range: ByteRange, options?: StoreRequestOptions) => Promise<Uint8Array | undefined>;
  declare getSize?: (key: string, options?: StoreRequestOptions) => Promise<number | undefined>;
  declare set?: (key: string, value: Uint8Array, options?: StoreRequestOptions) => Promise<void>;
  declare delete?: (key: string, options?: StoreRequestOptions) => Promise<void>;
  declare deletePrefix?: (prefix: string, options?: StoreRequestOptions) => Promise<void>;
  declare list?: (options?: StoreRequestOptions) => AsyncIterable<string>;
  declare listPrefix?: (prefix: string, options?: StoreRequestOptions) => AsyncIterable<string>;
  declare listDir?: (prefix: string, options?: StoreRequestOptions) => Promise<DirListing>;

  constructor(inner: Store, options: CachingStoreOptions) {
    if (inner === null || typeof inner !== "object" || typeof inner.get !== "function") {
      throw new ZarrError("INVALID_ARGUMENT", "CachingStore needs a readable store to wrap");
    }
    const maxBytes = options?.maxBytes;
    if (typeof maxBytes !== "number" || !(maxBytes >= 0) || maxBytes === Number.POSITIVE_INFINITY) {
      throw new ZarrError("INVALID_ARGUMENT", `CachingStore option "maxBytes" must be a finite number >= 0, got ${String(maxBytes)}`);
    }
    this.inner = inner;
    this.maxBytes = maxBytes;
    this.#cacheMissing = options.cacheMissing ?? true;
    this.#lru = new ByteLruCache({ maxBytes, onEvict: (id) => this.#forget(id) });
    const { getRange, getSize, set, delete: del, deletePrefix, list, listPrefix, listDir } = inner;
    if (typeof getRange === "function") {
      this.getRange = (key, range, opts) => this.#getRange(key, range, opts, getRange);
    }
    if (typeof getSize === "function") {
      this.getSize = async (key, opts) => {
        const whole = key.includes("\0") ? undefined : this.#lru.lookup(key);
        if (whole !== undefined) return whole.value?.length;
        return getSize.call(inner, key, opts);
      };
    }
    if (typeof set === "function") {
      this.set = (key, value, opts) => this.#writing(key, () => set.call(inner, key, value, opts));
    }
    if (typeof del === "function") {
      this.delete = (key, opts) => this.#writing(key, () => del.call(inner, key, opts));
    }
    if (typeof deletePrefix === "function") {
      this.deletePrefix = async (prefix, opts) => {
        this.invalidatePrefix(prefix);
        try {
          await deletePrefix.call(inner, prefix, opts);
        } finally {
          this.invalidatePrefix(prefix);
        }
      };
    }
    if (typeof list === "function") this.list = (opts) => list.call(inner, opts);
    if (typeof listPrefix === "function") this.listPrefix = (prefix, opts) => listPrefix.call(inner, prefix, opts);
    if (typeof listDir === "function") this.listDir = (prefix, opts) => listDir.call(inner, prefix, opts);
  }

  /** Reads served from the cache. */
  get hits(): number {
    return this.#hits;
  }
  /** Reads that went to the inner store. */
  get misses(): number {
    return this.#misses;
  }
  /** Bytes held now (values plus per-entry overhead). */
  get bytes(): number {
    return this.#lru.bytes;
  }
  /** Entries held now. */
  get entries(): number {
    return this.#lru.size;
  }

  /** Reads a whole value, from the cache when held. */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    if (key.includes("\0")) return this.inner.get(key, options); // not a valid key: let the store say so
    const hit = this.#lru.lookup(key);
    if (hit !== undefined) {
      this.#hits++;
      return hit.value;
    }
    this.#misses++;
    const epoch = this.#begin(key);
    try {
      const value = await this.inner.get(key, options);
      if (this.#remember(key, key, value, epoch, null)) this.#dropRanges(key);
      return value;
    } finally {
      this.#end(key);
    }
  }

  async #getRange(
    key: string,
    range: ByteRange,
    options: StoreRequestOptions | undefined,
    getRange: NonNullable<Store["getRange"]>,
  ): Promise<Uint8Array | undefined> {
    if (key.includes("\0")) return getRange.call(this.inner, key, range, options);
    const whole = this.#lru.lookup(key);
    if (whole !== undefined) {
      this.#hits++;
      if (whole.value === undefined) return undefined;
      const [start, end] = resolveByteRange(range, whole.value.length);
      return whole.value.subarray(start, end);
    }
    const id = `${key}\0${rangeTag(range)}`;
    const hit = this.#lru.lookup(id) ?? this.#within(key, range);
    if (hit !== undefined) {
      this.#hits++;
      return hit.value;
    }
    this.#misses++;
    const epoch = this.#begin(key);
    try {
      const value = await getRange.call(this.inner, key, range, options);
      let span: Span | null = null;
      if (value !== undefined && !("suffixLength" in range)) {
        span = { start: range.offset, toEnd: range.length === undefined || value.length < range.length };
      }
      this.#remember(key, id, value, epoch, span);
      return value;
    } finally {
      this.#end(key);
    }
  }

  /** A cached range result of `key` that holds all of `range` (offset ranges only), cut to it. */
  #within(key: string, range: ByteRange): { value: Uint8Array } | undefined {
    if ("suffixLength" in range) return undefined;
    const ids = this.#ids.get(key);
    if (ids === undefined) return undefined;
    const wantEnd = range.length === undefined ? Number.POSITIVE_INFINITY : range.offset + range.length;
    for (const [id, span] of ids) {
      if (span === null || range.offset < span.start) continue;
      const held = this.#lru.lookup(id);
      const value = held?.value;
      if (value === undefined) continue;
      const heldEnd = span.start + value.length;
      // Past a result that reached the value's end there is nothing: clamp, as stores do.
      if (wantEnd > heldEnd && !span.toEnd) continue;
      const from = Math.min(range.offset, heldEnd) - span.start;
      return { value: value.subarray(from, Math.min(wantEnd, heldEnd) - span.start) };
    }
    return undefined;
  }

  /** Drops everything cached about `key` (use it after changing the key behind the cache's back). */
  invalidate(key: string): void {
    const ids = this.#ids.get(key);
    if (ids !== undefined) {
      for (const id of ids.keys()) this.#lru.delete(id);
      this.#ids.delete(key);
    }
    const pending = this.#pending.get(key);
    if (pending !== undefined) pending.epoch++;
  }

  /** Drops everything cached about keys starting with `prefix` (`""`: everything). */
  invalidatePrefix(prefix: string): void {
    for (const key of [...this.#ids.keys()]) if (key.startsWith(prefix)) this.invalidate(key);
    for (const [key, pending] of this.#pending) if (key.startsWith(prefix)) pending.epoch++;
  }

  /** Empties the cache (reads in flight are not cached when they finish). */
  clear(): void {
    this.invalidatePrefix("");
  }

  async #writing(key: string, write: () => Promise<void>): Promise<void> {
    // Before: nobody reads the old value from us while the write runs. After: a read that
    // started during the write (and may have seen either value) is not cached.
    this.invalidate(key);
    try {
      await write();
    } finally {
      this.invalidate(key);
    }
  }

  #begin(key: string): number {
    let pending = this.#pending.get(key);
    if (pending === undefined) this.#pending.set(key, (pending = { inFlight: 0, epoch: 0 }));
    pending.inFlight++;
    return pending.epoch;
  }

  #end(key: string): void {
    const pending = this.#pending.get(key);
    if (pending !== undefined && --pending.inFlight === 0) this.#pending.delete(key);
  }

  /** Caches a read's result unless the key was invalidated while it ran; true when cached. */
  #remember(key: string, id: string, value: Uint8Array | undefined, epoch: number, span: Span | null): boolean {
    if (this.#pending.get(key)?.epoch !== epoch) return false;
    if (value === undefined && !this.#cacheMissing) return false;
    const cost = (value?.length ?? 0) + CACHE_ENTRY_OVERHEAD;
    if (cost > this.maxBytes) return false;
    // A view into a larger buffer (a whole HTTP body, an archive) would keep all of it
    // alive: keep a copy of just the value, so `maxBytes` is what is really held.
    const kept = value !== undefined && value.byteLength !== value.buffer.byteLength ? value.slice() : value;
    if (!this.#lru.set(id, kept, cost)) return false;
    let ids = this.#ids.get(key);
    if (ids === undefined) this.#ids.set(key, (ids = new Map()));
    ids.set(id, span);
    return true;
  }

  /** Ranges of `key` are redundant once its whole value is cached. */
  #dropRanges(key: string): void {
    const ids = this.#ids.get(key);
    if (ids === undefined) return;
    for (const id of ids.keys()) {
      if (id !== key) {
        this.#lru.delete(id);
        ids.delete(id);
      }
    }
  }

  #forget(id: string): void {
    const key = keyOf(id);
    const ids = this.#ids.get(key);
    if (ids === undefined) return;
    ids.delete(id);
    if (ids.size === 0) this.#ids.delete(key);
  }
}
