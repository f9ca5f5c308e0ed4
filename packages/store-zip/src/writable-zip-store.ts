/**
 * `WritableZipStore`: a zip archive opened for writing. `set` and `delete` append local
 * entries (or only change the directory), reads see the newest bytes, and `close()`
 * writes the central directory. Rewritten keys leave stale copies behind until
 * `compact()`.
 */
import {
  asZarrError,
  type ByteRange,
  type DirListing,
  type ListableStore,
  type ReadableStore,
  resolveByteRange,
  type StoreRequestOptions,
  throwIfAborted,
  validateKey,
  validatePrefix,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";
import { type ArchiveFile, MemoryArchiveFile } from "./archive-file.js";
import { ArchiveSource } from "./archive-source.js";
import { readDirectory } from "./central-directory.js";
import { checkReadable, type DecodableEntry, decodeEntryData } from "./entry-data.js";
import { corrupt, zipError } from "./errors.js";
import { buildDirs, type DirLevels, dirListing, keysWithPrefix } from "./listing.js";
import { readLocalDataOffset } from "./local-header.js";
import {
  centralDirectory,
  checkCompression,
  checkLevel,
  checkModified,
  type EntryRecord,
  encodeComment,
  encodeEntry,
  localHeader,
  type ZipCompression,
} from "./records.js";
import type { ZipDirectory } from "./zip-directory.js";
import {
  FLAG_DATA_DESCRIPTOR,
  FLAG_UTF8,
  LOCAL_HEADER_SIZE,
  MAX_U32,
  METHOD_STORED,
  u16,
} from "./zip-format.js";

/** How an archive is opened for writing. */
export type ZipWriteMode = "w" | "a";

/** Options of {@link openZipForWriting} (and `openZipFileForWriting` from `@zarr/store-zip/node`). */
export interface WritableZipOptions {
  /**
   * `"a"` (default): keep the entries of an existing archive and add to it (a missing or
   * empty archive starts empty); `"w"`: start an empty archive, replacing any existing one.
   */
  mode?: ZipWriteMode;
  /**
   * `"stored"` (default: byte ranges of entries read without inflating, which sharded
   * arrays need) or `"deflate"` (an entry deflate does not shrink, like an already
   * compressed chunk, is stored).
   */
  compression?: ZipCompression;
  /** Deflate level 0-9 (default 6). */
  level?: number;
  /** Write ZIP64 extra fields and end records even when no size, offset or count needs them. */
  forceZip64?: boolean;
  /** Archive comment (default: the existing archive's comment in mode `"a"`, else none). */
  comment?: string;
  /** Modification time recorded for entries written (default: when the store was opened). */
  modified?: Date;
  /** Cancels opening (reading an existing archive's directory). */
  signal?: AbortSignal;
}

/** What {@link WritableZipStore.close} and {@link WritableZipStore.flush} wrote. */
export interface ZipFlushSummary {
  /** Entries in the central directory (live keys, plus directory entries kept from an appended archive). */
  entries: number;
  /** Archive size in bytes. */
  size: number;
}

/** A key's newest entry. */
interface LiveEntry extends DecodableEntry {
  readonly key: string;
  readonly localHeaderOffset: number;
  /** Where the compressed data starts; known for entries written now, learnt from the local header otherwise. */
  dataOffset: number | undefined;
  /** Headers of an entry written now. */
  readonly record: EntryRecord | undefined;
  /** The central header of an entry kept from the opened archive, re-emitted verbatim. */
  readonly kept: Uint8Array | undefined;
}

const encoder = new TextEncoder();

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The archive file as a one-key readable store, so the read-only directory parser can open it. */
function fileAsSource(file: ArchiveFile): ArchiveSource {
  const store: ReadableStore = {
    get: async () => file.read(0, file.size),
    getRange: async (_key, range) => {
      const [start, end] = resolveByteRange(range, file.size);
      return file.read(start, end);
    },
  };
  return new ArchiveSource(store, file.name);
}

/**
 * A zip archive opened for writing: a readable, writable, listable store. Open it with
 * {@link openZipForWriting} (an archive that is a value of any store, written back with
 * one `set` on `close()`/`flush()`) or `openZipFileForWriting` from
 * `@zarr/store-zip/node` (a local file, appended to in place).
 *
 * - `set(key, value)` appends a local entry (stored, or deflated when `compression` is
 *   `"deflate"` and it helps) and makes it the key's entry; reads see it at once.
 * - Rewriting a key appends a new entry: the last one wins, and only it is in the central
 *   directory; the old bytes stay in the archive (stale) until `compact()`.
 * - `delete(key)` drops the key from the directory (its bytes stay until `compact()`).
 * - `close()` writes the central directory (ZIP64 records when needed) and releases the
 *   archive; every later call fails (`STORE_READ_ONLY` for writes, `STORE_FAILED` for
 *   reads). `flush()` writes it and stays open.
 * - Until `close()` or `flush()`, the archive has no central directory: a reader (or a
 *   crash) sees a corrupt archive (`CODEC_FAILED`), never stale or partial values.
 *
 * @example
 * ```ts
 * const zip = await openZipForWriting(new FileSystemStore("."), "data.zarr.zip", { mode: "w" });
 * const arr = await createArray(zip, "t", { shape: [4], chunkShape: [2], dataType: "int32" });
 * await set(arr, null, new Int32Array([1, 2, 3, 4]));
 * await zip.close();
 * ```
 */
export class WritableZipStore implements ReadableStore, WritableStore, ListableStore {
  /** Names the archive (its key, or a file path). */
  readonly archive: string;
  readonly #file: ArchiveFile;
  readonly #compression: ZipCompression;
  readonly #level: number;
  readonly #forceZip64: boolean;
  readonly #comment: Uint8Array;
  readonly #time: { time: number; date: number };
  /** Live keys in directory order (a rewritten key moves to the end, as its entry does). */
  readonly #entries = new Map<string, LiveEntry>();
  /** Central headers of the opened archive that are not keys (directories, names that are not keys): kept as they are. */
  readonly #others: Uint8Array[];
  /** Where the next entry goes: the end of the last entry. */
  #end: number;
  /** True when the directory in the archive (if any) no longer matches the entries. */
  #dirty: boolean;
  /** True when bytes after `#end` hold a central directory that must go before appending. */
  #directoryOnDisk: boolean;
  #sorted: string[] | undefined;
  #dirs: DirLevels | undefined;
  #closed = false;
  /** What the close wrote (a second `close()` returns it again). */
  #closedWith: ZipFlushSummary | undefined;
  /** Writes, flushes, compactions and the close run one after another. */
  #queue: Promise<unknown> = Promise.resolve();
  /** Reads in flight, and what a compaction or close waits on before it swaps the archive. */
  #reads = 0;
  #readsDone: (() => void) | undefined;
  #exclusive: Promise<void> | undefined;

  /** Use {@link openZipForWriting} or `openZipFileForWriting`; this adopts an opened archive file. */
  constructor(file: ArchiveFile, directory: ZipDirectory | undefined, options: WritableZipOptions = {}) {
    this.archive = file.name;
    this.#file = file;
    this.#compression = checkCompression(options.compression ?? "stored");
    this.#level = checkLevel(options.level ?? 6);
    this.#forceZip64 = options.forceZip64 === true;
    this.#comment = encodeComment(options.comment ?? directory?.comment ?? "");
    this.#time = checkModified(options.modified ?? new Date(), "WritableZipStore");
    this.#others = [];
    if (directory === undefined) {
      this.#end = 0;
      this.#dirty = true; // a new archive gets its (possibly empty) directory on close
      this.#directoryOnDisk = file.size > 0;
      return;
    }
    if (directory.prepended !== 0) {
      throw zipError("UNSUPPORTED", file.name, `appending to an archive with ${directory.prepended} bytes before it (a self-extracting stub) is not supported`);
    }
    for (const record of directory.records) {
      if (record.key === undefined || record.entry === undefined) {
        this.#others.push(record.bytes);
        continue;
      }
      const e = record.entry;
      // Duplicates: the later record wins, as in the reader and in Python's zipfile.
      this.#entries.delete(record.key);
      this.#entries.set(record.key, {
        key: record.key,
        method: e.method,
        flags: e.flags,
        crc32: e.crc32,
        compressedSize: e.compressedSize,
        uncompressedSize: e.uncompressedSize,
        localHeaderOffset: e.localHeaderOffset,
        dataOffset: e.dataOffset,
        record: undefined,
        kept: record.bytes,
      });
    }
    // A key named twice in the old directory: the rewritten directory drops the earlier entry.
    this.#dirty = directory.records.filter((r) => r.key !== undefined).length !== this.#entries.size;
    this.#end = directory.centralDirectoryOffset;
    this.#directoryOnDisk = true;
  }

  /** True once `close()` has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Number of live keys. */
  get keys(): number {
    return this.#entries.size;
  }

  #checkOpen(write: boolean): void {
    if (!this.#closed) return;
    if (write) throw zipError("STORE_READ_ONLY", this.archive, "the archive was closed; open it again to write");
    throw zipError("STORE_FAILED", this.archive, "the archive was closed; read it with a ZipStore");
  }

  /** Runs `task` after every earlier write-side task. */
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Runs a read, unless (until) a compaction or close has the archive to itself. */
  async #read<T>(task: () => Promise<T>): Promise<T> {
    while (this.#exclusive !== undefined) await this.#exclusive;
    this.#checkOpen(false);
    this.#reads++;
    try {
      return await task();
    } catch (error) {
      throw asZarrError(error, "STORE_FAILED", `Reading zip archive "${this.archive}" failed`, this.archive);
    } finally {
      this.#reads--;
      if (this.#reads === 0) this.#readsDone?.();
    }
  }

  /** Runs `task` with no read in flight and none starting (it replaces or releases the archive). */
  async #alone<T>(task: () => Promise<T>): Promise<T> {
    let release = () => {};
    this.#exclusive = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      while (this.#reads > 0) await new Promise<void>((resolve) => (this.#readsDone = resolve));
      return await task();
    } finally {
      this.#readsDone = undefined;
      this.#exclusive = undefined;
      release();
    }
  }

  async #dataOffset(entry: LiveEntry): Promise<number> {
    if (entry.dataOffset !== undefined) return entry.dataOffset;
    const start = entry.localHeaderOffset;
    const header = await this.#file.read(start, start + LOCAL_HEADER_SIZE);
    const offset = readLocalDataOffset(header, start);
    if (offset === undefined) throw corrupt(this.archive, `no local file header at offset ${start}`, entry.key);
    entry.dataOffset = offset;
    return offset;
  }

  /** The entry's compressed bytes, checked to be all there. */
  async #payload(entry: LiveEntry): Promise<Uint8Array> {
    const start = await this.#dataOffset(entry);
    const bytes = await this.#file.read(start, start + entry.compressedSize);
    if (bytes.length !== entry.compressedSize) {
      throw corrupt(this.archive, `entry data runs past the end of the archive (${this.#file.size} bytes)`, entry.key);
    }
    return bytes;
  }

  /** Reads and decodes a key's newest entry (CRC-checked); `undefined` when the key is not in the archive. */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    throwIfAborted(options?.signal);
    validateKey(key);
    return this.#read(async () => {
      const entry = this.#entries.get(key);
      if (entry === undefined) return undefined;
      checkReadable(this.archive, key, entry);
      return decodeEntryData(this.archive, key, entry, await this.#payload(entry));
    });
  }

  /** Reads part of a value: only those bytes for a stored entry, the inflated entry sliced for a deflated one. */
  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    throwIfAborted(options?.signal);
    validateKey(key);
    return this.#read(async () => {
      const entry = this.#entries.get(key);
      if (entry === undefined) return undefined;
      checkReadable(this.archive, key, entry);
      const [start, end] = resolveByteRange(range, entry.uncompressedSize);
      if (entry.method !== METHOD_STORED) {
        return decodeEntryData(this.archive, key, entry, await this.#payload(entry)).slice(start, end);
      }
      const base = await this.#dataOffset(entry);
      return this.#file.read(base + start, base + end);
    });
  }

  /** Size of a key's value, from the directory (no read). */
  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    throwIfAborted(options?.signal);
    validateKey(key);
    this.#checkOpen(false);
    return this.#entries.get(key)?.uncompressedSize;
  }

  /**
   * Appends an entry for `key` (the key's newest value from now on). `value` may be reused
   * once the promise settles. Concurrent calls are queued.
   */
  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    validateKey(key);
    if (!(value instanceof Uint8Array)) {
      throw new ZarrError("INVALID_ARGUMENT", `Value for "${key}" must be a Uint8Array`, { key });
    }
    this.#checkOpen(true);
    return this.#serial(async () => {
      throwIfAborted(options?.signal);
      this.#checkOpen(true);
      const encoded = encodeEntry(key, value, this.#compression, this.#level);
      const offset = this.#end;
      const record: EntryRecord = {
        name: encoded.name,
        flags: encoded.flags,
        method: encoded.method,
        crc: encoded.crc,
        compressedSize: encoded.payload.length,
        uncompressedSize: value.length,
        offset,
        zip64: this.#forceZip64 || value.length >= MAX_U32 || encoded.payload.length >= MAX_U32,
        ...this.#time,
      };
      const header = localHeader(record);
      await this.#io("Writing", key, async () => {
        if (this.#directoryOnDisk) {
          // The old directory goes first, so a crash leaves no directory that misdescribes the entries.
          await this.#file.truncate(this.#end);
          this.#directoryOnDisk = false;
        }
        await this.#file.write(offset, header);
        await this.#file.write(offset + header.length, encoded.payload);
      });
      this.#end = offset + header.length + encoded.payload.length;
      this.#put({
        key,
        method: record.method,
        flags: record.flags,
        crc32: record.crc,
        compressedSize: record.compressedSize,
        uncompressedSize: record.uncompressedSize,
        localHeaderOffset: offset,
        dataOffset: offset + header.length,
        record,
        kept: undefined,
      });
    });
  }

  #put(entry: LiveEntry): void {
    if (!this.#entries.has(entry.key)) this.#invalidateListing();
    this.#entries.delete(entry.key);
    this.#entries.set(entry.key, entry);
    this.#dirty = true;
  }

  #invalidateListing(): void {
    this.#sorted = undefined;
    this.#dirs = undefined;
  }

  async #io<T>(what: string, key: string, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      throw asZarrError(error, "STORE_FAILED", `${what} "${key}" in zip archive "${this.archive}" failed`, key);
    }
  }

  /** Drops `key` from the directory (its bytes stay in the archive until `compact()`); a missing key is no error. */
  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    validateKey(key);
    this.#checkOpen(true);
    return this.#serial(async () => {
      throwIfAborted(options?.signal);
      this.#checkOpen(true);
      if (this.#entries.delete(key)) {
        this.#invalidateListing();
        this.#dirty = true;
      }
    });
  }

  /** Drops every key starting with `prefix` (`""` or ending in `/`). */
  async deletePrefix(prefix: string, options?: StoreRequestOptions): Promise<void> {
    validatePrefix(prefix);
    this.#checkOpen(true);
    return this.#serial(async () => {
      throwIfAborted(options?.signal);
      this.#checkOpen(true);
      for (const key of [...this.#entries.keys()]) {
        if (key.startsWith(prefix)) {
          this.#entries.delete(key);
          this.#invalidateListing();
          this.#dirty = true;
        }
      }
    });
  }

  #sortedKeys(): string[] {
    this.#checkOpen(false);
    this.#sorted ??= [...this.#entries.keys()].sort();
    return this.#sorted;
  }

  /** Every live key (sorted). */
  async *list(options?: StoreRequestOptions): AsyncIterable<string> {
    throwIfAborted(options?.signal);
    yield* this.#sortedKeys();
  }

  /** Every live key starting with `prefix` (sorted). */
  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    throwIfAborted(options?.signal);
    yield* keysWithPrefix(this.#sortedKeys(), prefix);
  }

  /** Keys and child prefixes one level under `prefix` (`""` or ending in `/`). */
  async listDir(prefix: string, options?: StoreRequestOptions): Promise<DirListing> {
    throwIfAborted(options?.signal);
    validatePrefix(prefix);
    const sorted = this.#sortedKeys();
    this.#dirs ??= buildDirs(sorted);
    return dirListing(this.#dirs, prefix);
  }

  /** Central headers for the current entries (kept ones verbatim, new ones encoded). */
  #directoryItems(): (EntryRecord | Uint8Array)[] {
    const items: (EntryRecord | Uint8Array)[] = [...this.#others];
    for (const e of this.#entries.values()) items.push(e.kept ?? (e.record as EntryRecord));
    return items;
  }

  /** Writes the directory after the last entry (when it changed) and commits the archive. */
  async #writeDirectory(): Promise<ZipFlushSummary> {
    const items = this.#directoryItems();
    if (this.#dirty || !this.#directoryOnDisk) {
      const directory = centralDirectory(items, this.#end, this.#comment, this.#forceZip64);
      await this.#io("Writing the central directory of", this.archive, async () => {
        await this.#file.write(this.#end, directory);
        await this.#file.truncate(this.#end + directory.length);
        await this.#file.commit();
      });
      this.#dirty = false;
      this.#directoryOnDisk = true;
    }
    return { entries: items.length, size: this.#file.size };
  }

  /**
   * Writes the central directory now and stays open: the archive is complete and
   * readable as it stands (a checkpoint). The next `set` removes the directory again
   * and appends after the last entry; `close()` or another `flush()` writes it anew.
   */
  async flush(): Promise<ZipFlushSummary> {
    this.#checkOpen(true);
    return this.#serial(async () => {
      this.#checkOpen(true);
      return this.#writeDirectory();
    });
  }

  /**
   * Writes the central directory (only the newest entry of each key, and not deleted
   * keys; ZIP64 records when needed), commits the archive and releases it. An archive
   * opened in mode `"a"` and not changed is left as it was (unless its directory named a
   * key twice: then it is rewritten without the earlier entry). Calling it again does nothing.
   */
  async close(): Promise<ZipFlushSummary> {
    return this.#serial(async () => {
      if (this.#closedWith !== undefined) return this.#closedWith;
      return this.#alone(async () => {
        const summary = await this.#writeDirectory();
        this.#closed = true;
        this.#closedWith = summary;
        await this.#file.close().catch(() => {});
        return summary;
      });
    });
  }

  /**
   * Rewrites the archive without stale copies: only each live key's newest entry, laid
   * out back to back (in place: in memory, or through a temporary file renamed over a
   * file archive), with a new central directory, and commits it. Entries are copied as
   * they are (not recompressed); entries that are not keys (directory entries) are
   * dropped, and headers are rewritten (names as UTF-8, no data descriptors or extra
   * fields besides ZIP64). Reads wait while it runs.
   */
  async compact(options?: StoreRequestOptions): Promise<ZipFlushSummary> {
    this.#checkOpen(true);
    return this.#serial(async () => {
      throwIfAborted(options?.signal);
      this.#checkOpen(true);
      return this.#alone(async () => {
        const moved = new Map<string, LiveEntry>();
        let end = 0;
        await this.#io("Compacting", this.archive, () =>
          this.#file.rewrite(async (scratch) => {
            let at = 0;
            for (const entry of this.#entries.values()) {
              throwIfAborted(options?.signal);
              const payload = await this.#payload(entry);
              const record = this.#recordFor(entry, at);
              const header = localHeader(record);
              await scratch.write(at, header);
              await scratch.write(at + header.length, payload);
              moved.set(entry.key, { ...entry, localHeaderOffset: at, dataOffset: at + header.length, record, kept: undefined });
              at += header.length + payload.length;
            }
            const records = [...moved.values()].map((e) => e.record as EntryRecord);
            await scratch.write(at, centralDirectory(records, at, this.#comment, this.#forceZip64));
            end = at;
          }),
        );
        this.#entries.clear();
        for (const [key, entry] of moved) this.#entries.set(key, entry);
        this.#others.length = 0;
        this.#end = end;
        this.#dirty = false;
        this.#directoryOnDisk = true;
        await this.#io("Committing", this.archive, () => this.#file.commit());
        return { entries: this.#entries.size, size: this.#file.size };
      });
    });
  }

  /** Headers for an entry moved to `offset` by a compaction. */
  #recordFor(entry: LiveEntry, offset: number): EntryRecord {
    const zip64 = this.#forceZip64 || entry.uncompressedSize >= MAX_U32 || entry.compressedSize >= MAX_U32;
    if (entry.record !== undefined) return { ...entry.record, offset, zip64 };
    const kept = entry.kept as Uint8Array;
    const ascii = isAscii(entry.key);
    return {
      // The key (normalised name) as UTF-8; flags keep everything but the descriptor and name-encoding bits.
      name: encoder.encode(entry.key),
      flags: (entry.flags & ~(FLAG_DATA_DESCRIPTOR | FLAG_UTF8)) | (ascii ? 0 : FLAG_UTF8),
      method: entry.method,
      crc: entry.crc32,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
      offset,
      zip64,
      time: u16(kept, 12),
      date: u16(kept, 14),
    };
  }
}

/** The parsed directory of an existing archive, or `undefined` when it is empty. */
export async function readExistingDirectory(file: ArchiveFile, signal: AbortSignal | undefined): Promise<ZipDirectory | undefined> {
  if (file.size === 0) return undefined;
  return readDirectory(fileAsSource(file), signal);
}

/**
 * Opens the archive stored under `key` in `store` for writing, as a readable, writable,
 * listable {@link WritableZipStore}. The archive is held in memory while open and stored
 * with one `set` on `flush()` and `close()` (and `compact()`), so no reader of `store`
 * ever sees a partial archive. Mode `"a"` (default) reads the existing archive first (a
 * missing one starts empty; a value that is not a zip archive is `CODEC_FAILED`); `"w"`
 * starts empty. For large archives on a local disk, `openZipFileForWriting` from
 * `@zarr/store-zip/node` writes the file in place instead.
 *
 * @example
 * ```ts
 * const zip = await openZipForWriting(store, "data.zarr.zip", { mode: "a" });
 * await createGroup(zip, "more");
 * await zip.close();
 * ```
 */
export async function openZipForWriting(
  store: ReadableStore & WritableStore,
  key: string,
  options: WritableZipOptions = {},
): Promise<WritableZipStore> {
  if (store === null || typeof store !== "object" || typeof store.get !== "function" || typeof store.set !== "function") {
    throw new ZarrError("INVALID_ARGUMENT", "openZipForWriting needs a readable, writable store to hold the archive");
  }
  if (typeof key !== "string" || key === "") {
    throw new ZarrError("INVALID_ARGUMENT", `openZipForWriting needs the archive's key, got ${JSON.stringify(key)}`);
  }
  const mode = checkMode(options.mode);
  let existing: Uint8Array | undefined;
  if (mode === "a") {
    try {
      existing = await store.get(key, { signal: options.signal });
    } catch (error) {
      throw asZarrError(error, "STORE_FAILED", `Reading zip archive "${key}" failed`, key);
    }
  }
  const file = new MemoryArchiveFile(key, store, existing);
  const directory = await readExistingDirectory(file, options.signal);
  return new WritableZipStore(file, directory, options);
}

/** Checks the `mode` option (default `"a"`). */
export function checkMode(mode: unknown): ZipWriteMode {
  if (mode === undefined) return "a";
  if (mode !== "w" && mode !== "a") {
    throw new ZarrError("INVALID_ARGUMENT", `Zip write mode must be "w" or "a", got ${JSON.stringify(mode)}`);
  }
  return mode;
}

