/**
 * A small least-recently-used cache of decompressed entries, bounded by count and bytes,
 * so byte ranges of a deflated entry (inner chunks of a shard) do not inflate it again
 * for every range.
 */
export class DecodedCache {
  readonly maxEntries: number;
  readonly maxBytes: number;
  #bytes = 0;
  /** Map iteration order is insertion order: the first key is the least recently used. */
  readonly #map = new Map<string, Uint8Array>();

  constructor(maxEntries: number, maxBytes: number) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  get(key: string): Uint8Array | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: string, value: Uint8Array): void {
    if (this.maxEntries <= 0 || value.length > this.maxBytes) return;
    const old = this.#map.get(key);
    if (old !== undefined) {
      this.#map.delete(key);
      this.#bytes -= old.length;
    }
    this.#map.set(key, value);
    this.#bytes += value.length;
    for (const [k, v] of this.#map) {
      if (this.#map.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.#map.delete(k);
      this.#bytes -= v.length;
    }
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }
}
