/** `CountingStore`: counts every call a store receives, for tests and debugging. */
import type { ReadableStore, Store } from "@zarr/spec";
import { type InstrumentedMembers, instrumentStore, READ_METHODS, STORE_METHODS, type StoreCall, type StoreMethod } from "./instrument.js";

function zeroCounts(): Record<StoreMethod, number> {
  return Object.fromEntries(STORE_METHODS.map((m) => [m, 0])) as Record<StoreMethod, number>;
}

/**
 * A transparent wrapper that counts every call by method and key, and the bytes read and
 * written. It has exactly the methods of the store it wraps (a wrapped HTTP store is
 * still not listable; a wrapped file store still has `readInto`), so code under test
 * takes the same paths as without it.
 *
 * Every call is recorded in `requests` until `reset()`: meant for tests and debugging
 * sessions, not for wrapping a store for the lifetime of a server.
 *
 * @example
 * ```ts
 * const counted = new CountingStore(store);
 * await get(await openArray(counted), [0, 0]);
 * counted.counts.getRange;          // ranged reads made
 * counted.count("get", "zarr.json"); // 1
 * counted.reset();
 * ```
 */
// The store members are assigned in the constructor: exactly those of the inner store.
export interface CountingStore extends InstrumentedMembers {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: instrumentStore sets the merged members
export class CountingStore implements ReadableStore {
  /** The wrapped store. */
  readonly inner: Store;
  /** Calls per method since the last `reset()`. */
  readonly counts: Record<StoreMethod, number> = zeroCounts();
  /** Every call since the last `reset()`, in the order they were made. */
  readonly requests: StoreCall[] = [];
  #bytesRead = 0;
  #bytesWritten = 0;

  constructor(inner: Store) {
    this.inner = inner;
    Object.assign(
      this,
      instrumentStore(inner, (call) => {
        this.counts[call.method]++;
        this.requests.push(call);
        return (outcome) => {
          if (outcome.bytes === undefined) return;
          if (call.method === "set") this.#bytesWritten += outcome.bytes;
          else this.#bytesRead += outcome.bytes;
        };
      }),
    );
  }

  /** All calls since the last `reset()`. */
  get total(): number {
    return this.requests.length;
  }

  /** Read calls (`get`, `getRange`, `getSize`, `readInto`) since the last `reset()`: requests a remote store makes. */
  get reads(): number {
    let n = 0;
    for (const m of READ_METHODS) n += this.counts[m];
    return n;
  }

  /** Bytes delivered by reads since the last `reset()`. */
  get bytesRead(): number {
    return this.#bytesRead;
  }

  /** Bytes passed to `set` since the last `reset()`. */
  get bytesWritten(): number {
    return this.#bytesWritten;
  }

  /**
   * Calls of `method` (every method when omitted) for `key` (every key when omitted).
   *
   * @example
   * ```ts
   * counted.count("getRange", "a/c/0/0"); // ranged reads of one shard
   * counted.count(undefined, "zarr.json"); // any call on the root metadata
   * ```
   */
  count(method?: StoreMethod, key?: string): number {
    if (key === undefined) return method === undefined ? this.requests.length : this.counts[method];
    let n = 0;
    for (const r of this.requests) if (r.key === key && (method === undefined || r.method === method)) n++;
    return n;
  }

  /** Forgets every call and byte counted so far. */
  reset(): void {
    for (const m of STORE_METHODS) this.counts[m] = 0;
    this.requests.length = 0;
    this.#bytesRead = 0;
    this.#bytesWritten = 0;
  }
}
