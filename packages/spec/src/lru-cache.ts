/**
 * One least-recently-used cache bounded by total bytes (and optionally by entry count),
 * shared by every package that caches: decoded chunks, store values, shard indexes,
 * inflated zip entries.
 */
import { ZarrError } from "./errors.js";

/** Options of {@link ByteLruCache}. */
export interface ByteLruCacheOptions<K, V> {
  /** The most total bytes (as given to `set`) held at once; `Infinity` for no byte bound. */
  maxBytes: number;
  /** The most entries held at once; default `Infinity`. 0 makes a cache that holds nothing. */
  maxEntries?: number;
  /**
   * Called for each entry evicted to make room, after it is gone (not for `delete`,
   * `clear`, or an entry replaced by a `set` of the same key).
   */
  onEvict?: (key: K, value: V) => void;
}

/** One held entry: its value and the bytes it was charged. */
export interface ByteLruEntry<V> {
  readonly value: V;
  readonly bytes: number;
}

function checkBound(name: string, n: unknown): number {
  if (typeof n !== "number" || !(n >= 0)) {
    throw new ZarrError("INVALID_ARGUMENT", `Cache option "${name}" must be a number >= 0, got ${String(n)}`);
  }
  return n;
}

/**
 * A map that holds at most `maxBytes` of total size (and at most `maxEntries` entries),
 * evicting the least recently used entries first. A `Map` keeps insertion order, so
 * re-inserting an entry on every hit makes its first key the least recently used one:
 * no linked list needed.
 *
 * - `get`/`lookup` mark an entry most recently used; `has` does not.
 * - `set` replaces any entry under the same key. A value larger than `maxBytes` (or any
 *   value when `maxEntries` is 0) is not stored, and the old entry under its key is
 *   dropped, so a stale value never outlives a newer one that did not fit.
 *
 * @example
 * ```ts
 * const cache = new ByteLruCache<string, Uint8Array>({ maxBytes: 1024 });
 * cache.set("a", new Uint8Array(600), 600);
 * cache.set("b", new Uint8Array(600), 600); // evicts "a"
 * cache.get("a"); // undefined
 * cache.bytes;    // 600
 * ```
 */
export class ByteLruCache<K, V> {
  /** The most total bytes held. */
  readonly maxBytes: number;
  /** The most entries held. */
  readonly maxEntries: number;
  readonly #entries = new Map<K, ByteLruEntry<V>>();
  readonly #onEvict: ((key: K, value: V) => void) | undefined;
  #bytes = 0;

  constructor(options: ByteLruCacheOptions<K, V>) {
    this.maxBytes = checkBound("maxBytes", options?.maxBytes);
    this.maxEntries = checkBound("maxEntries", options.maxEntries ?? Infinity);
    this.#onEvict = options.onEvict;
  }

  /** Total bytes of the entries held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Number of entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Whether `key` is held (without marking it used). */
  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value under `key`, marking it most recently used; `undefined` when not held. */
  get(key: K): V | undefined {
    return this.lookup(key)?.value;
  }

  /**
   * The entry under `key`, marking it most recently used; `undefined` when not held. Use
   * it instead of `get` when `undefined` is itself a value worth caching.
   */
  lookup(key: K): ByteLruEntry<V> | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /**
   * Stores `value` under `key`, charged `bytes`, as the most recently used entry, then
   * evicts least recently used entries until both bounds hold. Returns false (and holds
   * nothing under `key`) when the value cannot fit at all.
   */
  set(key: K, value: V, bytes: number): boolean {
    this.delete(key);
    if (bytes > this.maxBytes || this.maxEntries < 1) return false;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    while (this.#bytes > this.maxBytes || this.#entries.size > this.maxEntries) {
      // Never the entry just set: it fits on its own, so the loop stops before reaching it.
      const [oldest, entry] = this.#entries.entries().next().value as [K, ByteLruEntry<V>];
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
      this.#onEvict?.(oldest, entry.value);
    }
    return true;
  }

  /** Drops `key`; true when it was held. */
  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
