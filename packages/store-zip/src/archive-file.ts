/**
 * Random access to an archive being written: what a writable `ZipStore` reads, appends
 * to and rewrites. One implementation keeps the archive in memory and hands it to a
 * store with one `set` (any store: S3, a directory, memory); `@zarr/store-zip/node` has
 * one on a local file, written in place.
 */
import type { WritableStore } from "@zarr/spec";

/**
 * The bytes of one archive, read and written by position. Calls are never concurrent
 * with a `write`, `truncate` or `rewrite` of overlapping bytes (the store orders them).
 */
export interface ArchiveFile {
  /** Names the archive in error messages (a key or a path). */
  readonly name: string;
  /** Current size in bytes. */
  readonly size: number;
  /** Bytes `[start, end)`, as a new array the caller may keep; a short result means the archive ends earlier. */
  read(start: number, end: number): Promise<Uint8Array>;
  /** Writes `bytes` at `at` (overwriting, or extending the archive). */
  write(at: number, bytes: Uint8Array): Promise<void>;
  /** Cuts the archive to `size` bytes. */
  truncate(size: number): Promise<void>;
  /** Makes the archive as it now stands durable and visible to readers (a `set`, an fsync). */
  commit(): Promise<void>;
  /**
   * Replaces the whole archive with what `fill` writes into an empty scratch archive,
   * and only once `fill` has succeeded (a file: a temporary file renamed into place).
   */
  rewrite(fill: (scratch: ArchiveFile) => Promise<void>): Promise<void>;
  /** Releases what the archive holds (a file handle). No call after this. */
  close(): Promise<void>;
}

/** An archive held in memory, stored under `key` in `target` on each `commit`. */
export class MemoryArchiveFile implements ArchiveFile {
  readonly name: string;
  readonly #target: WritableStore | undefined;
  #buffer: Uint8Array;
  #size: number;

  /** Starts from `initial` (copied) or empty; `target` receives the archive on `commit` (none: a scratch archive). */
  constructor(name: string, target: WritableStore | undefined, initial?: Uint8Array) {
    this.name = name;
    this.#target = target;
    this.#buffer = new Uint8Array(Math.max(1024, initial?.length ?? 0));
    if (initial !== undefined) this.#buffer.set(initial);
    this.#size = initial?.length ?? 0;
  }

  get size(): number {
    return this.#size;
  }

  /** The archive's bytes (a view, valid until the next write). */
  bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#size);
  }

  async read(start: number, end: number): Promise<Uint8Array> {
    return this.#buffer.slice(Math.min(start, this.#size), Math.min(end, this.#size));
  }

  async write(at: number, bytes: Uint8Array): Promise<void> {
    const end = at + bytes.length;
    if (end > this.#buffer.length) {
      // Doubling keeps a long run of appends linear overall.
      const grown = new Uint8Array(Math.max(end, this.#buffer.length * 2));
      grown.set(this.#buffer.subarray(0, this.#size));
      this.#buffer = grown;
    }
    if (at > this.#size) this.#buffer.fill(0, this.#size, at);
    this.#buffer.set(bytes, at);
    if (end > this.#size) this.#size = end;
  }

  async truncate(size: number): Promise<void> {
    if (size < this.#size) this.#size = size;
  }

  async commit(): Promise<void> {
    // The store copies what it keeps (the WritableStore contract), so a view will do.
    await this.#target?.set(this.name, this.bytes());
  }

  async rewrite(fill: (scratch: ArchiveFile) => Promise<void>): Promise<void> {
    const scratch = new MemoryArchiveFile(this.name, undefined);
    await fill(scratch);
    this.#buffer = scratch.#buffer;
    this.#size = scratch.#size;
  }

  async close(): Promise<void> {
    this.#buffer = new Uint8Array(0);
    this.#size = 0;
  }
}
