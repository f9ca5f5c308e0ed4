/** An in-memory store: a Map from keys to bytes. */
import {
  addToDirListing,
  type ByteRange,
  checkReadIntoRanges,
  type DirListing,
  type ListableStore,
  type ListDirOptions,
  type ReadableStore,
  type ReadIntoRange,
  resolveByteRange,
  type StoreLock,
  type StoreRequestOptions,
  throwIfAborted,
  validateKey,
  validatePrefix,
  type WritableStore,
} from "@zarr/spec";
import { KeyMutex } from "./key-mutex.js";

/**
 * A store held in memory. Values are copied on `set`; `get` returns the stored bytes
 * themselves, so treat them as read-only. The store never writes into a value it holds
 * (`set` replaces it), so it declares its bytes `"immutable"` (`returnedBytes`): values on
 * a `SharedArrayBuffer` (given to the constructor or put in `map`; do not change them
 * afterwards) reach a worker pool's workers with no copy.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const arr = await createArray(store, "x", { shape: [4], dataType: "int32" });
 * await set(arr, null, new Int32Array([1, 2, 3, 4]));
 * store.keys(); // ["zarr.json", "x/zarr.json", "x/c/0"]
 * ```
 */
export class MemoryStore implements ReadableStore, WritableStore, ListableStore {
  /** The stored values. */
  readonly map: Map<string, Uint8Array>;
  /** The bytes `get` resolves are never changed by the store (see `ReadableStore.returnedBytes`). */
  readonly returnedBytes = "immutable";
  readonly #locks = new KeyMutex();

  constructor(entries?: Iterable<[string, Uint8Array]>) {
    this.map = new Map(entries);
  }

  /** Every key, sorted. */
  keys(): string[] {
    return [...this.map.keys()].sort();
  }

  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    throwIfAborted(options?.signal);
    validateKey(key);
    return this.map.get(key);
  }

  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    throwIfAborted(options?.signal);
    validateKey(key);
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    const [start, end] = resolveByteRange(range, value.length);
    return value.subarray(start, end);
  }

  async readInto(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions): Promise<number | undefined> {
    throwIfAborted(options?.signal);
    validateKey(key);
    checkReadIntoRanges(key, ranges);
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    for (const { offset, target } of ranges) {
      if (offset + target.length > value.length) return value.length;
    }
    for (const { offset, target } of ranges) target.set(value.subarray(offset, offset + target.length));
    return value.length;
  }

  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    throwIfAborted(options?.signal);
    validateKey(key);
    return this.map.get(key)?.length;
  }

  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    throwIfAborted(options?.signal);
    validateKey(key);
    this.map.set(key, value.slice());
  }

  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    throwIfAborted(options?.signal);
    validateKey(key);
    this.map.delete(key);
  }

  /**
   * Locks `key` (see `WritableStore.lock`). The values live in this process, so a mutex of
   * this process is a complete lock.
   */
  async lock(key: string, options?: StoreRequestOptions): Promise<StoreLock> {
    validateKey(key);
    const release = await this.#locks.acquire(key, options?.signal);
    return { release: async () => release() };
  }

  async deletePrefix(prefix: string, options?: StoreRequestOptions): Promise<void> {
    throwIfAborted(options?.signal);
    validatePrefix(prefix);
    for (const k of [...this.map.keys()]) if (k.startsWith(prefix)) this.map.delete(k);
  }

  async *list(options?: StoreRequestOptions): AsyncIterable<string> {
    throwIfAborted(options?.signal);
    yield* [...this.map.keys()];
  }

  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    throwIfAborted(options?.signal);
    for (const k of [...this.map.keys()]) if (k.startsWith(prefix)) yield k;
  }

  // Every prefix it reports holds a key, checked or not (`uncheckedPrefixes` changes nothing).
  async listDir(prefix: string, options?: ListDirOptions): Promise<DirListing> {
    throwIfAborted(options?.signal);
    validatePrefix(prefix);
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for (const k of this.map.keys()) {
      if (!k.startsWith(prefix)) continue;
      addToDirListing(k.slice(prefix.length), keys, prefixes);
    }
    return { keys: [...keys].sort(), prefixes: [...prefixes].sort() };
  }
}
