/**
 * A least-recently-used cache bounded both by entry count and by total bytes, used for
 * decoded shard indexes. A `Map` keeps insertion order, so re-inserting an entry on
 * every hit makes the first key the least recently used one.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private totalBytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  /** Number of entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held (as reported to `set`). */
  get bytes(): number {
    return this.totalBytes;
  }

  /** The value for `key`, marking it as most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` (weighing `bytes`), evicting the least recently used entries as needed. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (this.maxEntries === 0 || bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.totalBytes += bytes;
    while (this.entries.size > this.maxEntries || this.totalBytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
    }
  }

  /** Drops `key`. */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }

  /** Drops everything. */
  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }
}
