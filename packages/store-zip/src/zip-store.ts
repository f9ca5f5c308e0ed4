/**
 * `ZipStore`: a read-only, listable Zarr store over a zip archive that is itself a value
 * of another store (a file, an HTTP object, an S3 object...), read with byte ranges.
 */
import {
  ByteLruCache,
  type ByteRange,
  type DirListing,
  type ListableStore,
  type ReadableStore,
  type ReadIntoRange,
  resolveByteRange,
  type StoreRequestOptions,
  throwIfAborted,
  validateKey,
  validatePrefix,
  ZarrError,
} from "@zarr/spec";
import { ArchiveSource } from "./archive-source.js";
import { readDirectory } from "./central-directory.js";
import { checkReadable, decodeEntryData } from "./entry-data.js";
import { buildDirs, type DirLevels, dirListing, keysWithPrefix } from "./listing.js";
import { dataOffsetOf, readHeaderAndData } from "./local-header.js";
import type { SkippedEntry, ZipDirectory, ZipEntry } from "./zip-directory.js";
import { METHOD_STORED } from "./zip-format.js";

/** Options of {@link ZipStore}. */
export interface ZipStoreOptions {
  /**
   * Root the store at this folder inside the archive (`"data.zarr/"` or `"data.zarr"`):
   * key `zarr.json` then reads entry `data.zarr/zarr.json`.
   */
  prefix?: string;
  /**
   * When no `prefix` is given and the archive root has no `zarr.json`, `.zgroup`,
   * `.zarray` or `.zmetadata` but exactly one top-level folder has one (a folder zipped
   * "from its parent"), root the store at that folder. Default `true`.
   */
  autoPrefix?: boolean;
  /** Decompressed deflated entries kept for `getRange`/`readInto`: at most this many (default 4)... */
  cacheEntries?: number;
  /** ...and at most this many bytes in total (default 32 MiB). */
  cacheBytes?: number;
}

/** What {@link ZipStore.open} found. */
export interface ZipArchiveInfo {
  /** The archive's key in the source store. */
  archive: string;
  /** The folder inside the archive the store is rooted at (`""` or ending in `/`). */
  prefix: string;
  /** Number of keys the store serves (files under the prefix). */
  keys: number;
  /** Size of the archive in bytes. */
  size: number;
  /** The archive comment. */
  comment: string;
  /** True when the archive has ZIP64 end records. */
  zip64: boolean;
  /** Entries left out: names that would escape the root or are not valid keys, and duplicates. */
  skipped: readonly SkippedEntry[];
}

const METADATA_NAMES = new Set(["zarr.json", ".zgroup", ".zarray", ".zmetadata"]);

/** The store's view of an opened archive. */
interface OpenArchive {
  directory: ZipDirectory;
  prefix: string;
  /** Store key → entry, for keys under the prefix. */
  keys: Map<string, ZipEntry>;
  /** Sorted store keys. */
  sorted: string[];
  /** One level of listing per prefix (`""`, `"a/"`...), built on the first `listDir`. */
  dirs: DirLevels | undefined;
}

function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^(\.?\/)+/, "").replace(/\/+$/, "");
  if (trimmed === "") return "";
  validateKey(trimmed);
  return `${trimmed}/`;
}

/** The single top-level folder that holds Zarr metadata, when the root holds none. */
function detectPrefix(entries: Map<string, ZipEntry>): string {
  const candidates = new Set<string>();
  for (const name of entries.keys()) {
    const slash = name.indexOf("/");
    if (slash < 0) {
      if (METADATA_NAMES.has(name)) return "";
      continue;
    }
    const rest = name.slice(slash + 1);
    if (METADATA_NAMES.has(rest)) candidates.add(name.slice(0, slash + 1));
  }
  return candidates.size === 1 ? [...candidates][0] : "";
}

/**
 * A read-only, listable store over a zip archive stored under `key` in `source` (any
 * readable store: a `FileSystemStore`, an HTTP or S3 store, a `MemoryStore`).
 *
 * - Opens lazily on first use: one suffix read finds the end of central directory
 *   record (and the ZIP64 records), one more reads the central directory unless it was
 *   inside the suffix. Without `getRange` on the source, the archive is read once whole.
 * - `get` reads an entry's data in one request and verifies its CRC-32 (mismatch:
 *   `CHECKSUM_MISMATCH`); stored and deflate entries; ZIP64; data descriptors; UTF-8 and
 *   CP437 names.
 * - `getRange`/`readInto` on a stored entry read only the requested bytes (one request);
 *   on a deflated entry they inflate the entry once and keep it in a small cache.
 * - `list`, `listPrefix`, `listDir`, `getSize` come from the central directory.
 *
 * @example
 * ```ts
 * const zip = new ZipStore(new FileSystemStore("/data"), "example.zarr.zip");
 * const meta = await zip.get("zarr.json");
 * const part = await zip.getRange("t2m/c/0/0", { offset: 0, length: 16 });
 * const { keys, prefixes } = await zip.listDir("");
 * ```
 */
export class ZipStore implements ReadableStore, ListableStore {
  /** The store holding the archive. */
  readonly source: ReadableStore;
  /** The archive's key in `source`. */
  readonly archive: string;
  readonly #src: ArchiveSource;
  readonly #options: ZipStoreOptions;
  /** Decompressed deflated entries by entry name, so ranges of one entry inflate it once. */
  readonly #cache: ByteLruCache<string, Uint8Array>;
  readonly #inflating = new Map<ZipEntry, Promise<Uint8Array>>();
  #opening: Promise<OpenArchive> | undefined;

  constructor(source: ReadableStore, key: string, options: ZipStoreOptions = {}) {
    if (source === null || typeof source !== "object" || typeof source.get !== "function") {
      throw new ZarrError("INVALID_ARGUMENT", "ZipStore needs a readable store holding the archive");
    }
    if (typeof key !== "string" || key === "") {
      throw new ZarrError("INVALID_ARGUMENT", `ZipStore needs the archive's key, got ${JSON.stringify(key)}`);
    }
    if (options.prefix !== undefined) normalisePrefix(options.prefix); // fail fast on a bad prefix
    this.source = source;
    this.archive = key;
    this.#src = new ArchiveSource(source, key);
    this.#options = options;
    for (const name of ["cacheEntries", "cacheBytes"] as const) {
      const n = options[name];
      if (n !== undefined && !(typeof n === "number" && n >= 0)) {
        throw new ZarrError("INVALID_ARGUMENT", `ZipStore option "${name}" must be a number >= 0, got ${String(n)}`);
      }
    }
    this.#cache = new ByteLruCache({ maxEntries: options.cacheEntries ?? 4, maxBytes: options.cacheBytes ?? 32 * 1024 * 1024 });
  }

  #load(signal: AbortSignal | undefined): Promise<OpenArchive> {
    if (this.#opening === undefined) {
      const opening = this.#build(signal);
      this.#opening = opening;
      // A failed open (network, abort) is retried by the next call rather than cached.
      opening.catch(() => {
        if (this.#opening === opening) this.#opening = undefined;
      });
    }
    return this.#opening;
  }

  async #build(signal: AbortSignal | undefined): Promise<OpenArchive> {
    const directory = await readDirectory(this.#src, signal);
    const { prefix: given, autoPrefix = true } = this.#options;
    const prefix =
      given !== undefined ? normalisePrefix(given) : autoPrefix ? detectPrefix(directory.entries) : "";
    const keys = new Map<string, ZipEntry>();
    for (const [name, entry] of directory.entries) {
      if (name.startsWith(prefix)) keys.set(name.slice(prefix.length), entry);
    }
    const sorted = [...keys.keys()].sort();
    return { directory, prefix, keys, sorted, dirs: undefined };
  }

  /**
   * Opens the archive now (every other method does so on first use) and describes it.
   * Fails with `CODEC_FAILED` for a corrupt archive, `STORE_FAILED` when it is missing
   * or unreadable, `UNSUPPORTED` for multi-disk archives.
   */
  async open(options?: StoreRequestOptions): Promise<ZipArchiveInfo> {
    const a = await this.#load(options?.signal);
    return {
      archive: this.archive,
      prefix: a.prefix,
      keys: a.keys.size,
      size: a.directory.archiveSize,
      comment: a.directory.comment,
      zip64: a.directory.zip64,
      skipped: a.directory.skipped,
    };
  }

  async #entry(key: string, options: StoreRequestOptions | undefined): Promise<ZipEntry | undefined> {
    validateKey(key);
    const a = await this.#load(options?.signal);
    return a.keys.get(key);
  }

  /** Reads and decodes a whole entry (CRC-checked); `undefined` when the key is not in the archive. */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const entry = await this.#entry(key, options);
    if (entry === undefined) return undefined;
    checkReadable(this.archive, key, entry);
    const cached = this.#cache.get(entry.name);
    if (cached !== undefined) return cached.slice();
    const out = await this.#readAndDecode(key, entry, options?.signal);
    // Views into an archive held in memory are copied so callers cannot alter it.
    return this.#src.inMemory && entry.method === METHOD_STORED ? out.slice() : out;
  }

  async #readAndDecode(key: string, entry: ZipEntry, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const a = await this.#load(signal);
    const directory = a.directory;
    const known = entry.dataOffset ?? (directory.layoutTrusted ? entry.predictedDataOffset : undefined);
    if (known !== undefined) {
      // Exactly the data, in one request. A predicted offset is proven by the CRC; if it
      // fails, fall back to the local header (which also tells whether the layout lied).
      const data = await this.#src.read(known, known + entry.compressedSize, signal, key);
      try {
        return decodeEntryData(this.archive, key, entry, data);
      } catch (error) {
        if (entry.dataOffset !== undefined) throw error;
      }
    }
    const data = await readHeaderAndData(this.#src, directory, entry, signal);
    return decodeEntryData(this.archive, key, entry, data);
  }

  /** The decoded contents of a deflated entry, from the cache or inflated once (concurrent callers share it). */
  async #decoded(key: string, entry: ZipEntry, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const cached = this.#cache.get(entry.name);
    if (cached !== undefined) return cached;
    let pending = this.#inflating.get(entry);
    if (pending === undefined) {
      // Shared by concurrent callers, so it runs without any one caller's signal; each
      // caller still stops waiting when its own signal aborts.
      pending = this.#readAndDecode(key, entry, undefined);
      this.#inflating.set(entry, pending);
      pending.then(
        (bytes) => this.#cache.set(entry.name, bytes, bytes.length),
        () => {},
      );
      pending.finally(() => this.#inflating.delete(entry)).catch(() => {});
    }
    return untilAborted(pending, signal);
  }

  /**
   * Reads part of an entry. Stored entries: only the requested bytes, one request (not
   * CRC-checked: the CRC covers the whole entry). Deflated entries: inflated whole (and
   * cached), then sliced.
   */
  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const entry = await this.#entry(key, options);
    if (entry === undefined) return undefined;
    checkReadable(this.archive, key, entry);
    const [start, end] = resolveByteRange(range, entry.uncompressedSize);
    const signal = options?.signal;
    if (entry.method === METHOD_STORED) {
      if (start === end) return new Uint8Array(0);
      const a = await this.#load(signal);
      const offset = await dataOffsetOf(this.#src, a.directory, entry, signal);
      const bytes = await this.#src.read(offset + start, offset + end, signal, key);
      return this.#src.inMemory ? bytes.slice() : bytes;
    }
    const whole = await this.#decoded(key, entry, signal);
    return whole.slice(start, end);
  }

  /** Uncompressed size of an entry from the central directory (no read). */
  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    return (await this.#entry(key, options))?.uncompressedSize;
  }

  /**
   * Scatter read of an entry into the caller's buffers. Stored entries go straight to the
   * source's own `readInto` when it has one (one request), otherwise one covering range
   * read; deflated entries are copied out of the (cached) inflated entry. Parts of a range
   * past the end of the entry are left untouched; the result is the entry's size.
   */
  async readInto(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions): Promise<number | undefined> {
    const entry = await this.#entry(key, options);
    if (entry === undefined) return undefined;
    checkReadable(this.archive, key, entry);
    const size = entry.uncompressedSize;
    const signal = options?.signal;
    // Clip every range to the entry, so nothing is read from the next entry.
    const clipped: ReadIntoRange[] = [];
    for (const r of ranges) {
      const [start, end] = resolveByteRange({ offset: r.offset, length: r.target.length }, size);
      if (end > start) clipped.push({ offset: start, target: end - start === r.target.length ? r.target : r.target.subarray(0, end - start) });
    }
    if (clipped.length === 0) return size;
    if (entry.method !== METHOD_STORED) {
      const whole = await this.#decoded(key, entry, signal);
      for (const r of clipped) r.target.set(whole.subarray(r.offset, r.offset + r.target.length));
      return size;
    }
    const a = await this.#load(signal);
    const base = await dataOffsetOf(this.#src, a.directory, entry, signal);
    if (this.#src.canScatter) {
      await this.#src.readInto(
        clipped.map((r) => ({ offset: base + r.offset, target: r.target })),
        signal,
        key,
      );
      return size;
    }
    let lo = Number.POSITIVE_INFINITY;
    let hi = 0;
    for (const r of clipped) {
      if (r.offset < lo) lo = r.offset;
      if (r.offset + r.target.length > hi) hi = r.offset + r.target.length;
    }
    const span = await this.#src.read(base + lo, base + hi, signal, key);
    for (const r of clipped) r.target.set(span.subarray(r.offset - lo, r.offset - lo + r.target.length));
    return size;
  }

  /** Every key (sorted). */
  async *list(options?: StoreRequestOptions): AsyncIterable<string> {
    const a = await this.#load(options?.signal);
    yield* a.sorted;
  }

  /** Every key starting with `prefix` (sorted). */
  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    const a = await this.#load(options?.signal);
    yield* keysWithPrefix(a.sorted, prefix);
  }

  /** Keys and child prefixes one level under `prefix` (`""` or ending in `/`). */
  async listDir(prefix: string, options?: StoreRequestOptions): Promise<DirListing> {
    validatePrefix(prefix);
    const a = await this.#load(options?.signal);
    a.dirs ??= buildDirs(a.sorted);
    return dirListing(a.dirs, prefix);
  }
}

/** `promise`, or an `ABORTED` rejection as soon as `signal` aborts (the work itself goes on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  throwIfAborted(signal);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ZarrError("ABORTED", "The operation was aborted", { cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
