/**
 * `FileSystemStore`: a local directory as a Zarr store. Keys map onto relative paths
 * (`a/b/zarr.json` → `<root>/a/b/zarr.json`), values onto file contents.
 */
import nodePath from "node:path";
import {
  asZarrError,
  type ByteRange,
  checkReadIntoRanges,
  type DirListing,
  type ListableStore,
  type ListDirOptions,
  type ReadableStore,
  type ReadIntoRange,
  type StoreLock,
  type StoreRequestOptions,
  throwIfAborted,
  type VersionedBytes,
  type VersionedReadOptions,
  type WorkerStoreRecipe,
  type WritableStore,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
import { writeFileAtomic } from "./atomic-write.js";
import { blockingDirCalls, type DirCalls, threadPoolDirCalls } from "./dir-calls.js";
import { acquireFileLock, DEFAULT_LOCK_STALE_MS, DEFAULT_LOCK_TIMEOUT_MS, lockNameFor } from "./file-lock.js";
import { errorCode, isMissing, lstat, READ_FLAGS, readdir, removeTree, unlink } from "./fs-calls.js";
import { keyToPath, prefixToPath, splitStringPrefix } from "./key-paths.js";
import { isRefusedLink, ReadContainment } from "./read-containment.js";
import { fileSize, readFileInto, readFileRange, readWholeFile, readWholeFileInto } from "./read-file.js";
import { readFileIntoSync, readSmallFileSync, readWholeFileIntoSync, TOO_LARGE } from "./read-file-blocking.js";
import { createRealRoot, ensureRealDir, existingRealDir, existingRealRoot } from "./safe-dirs.js";
import { listStoredKeys } from "./stored-keys.js";
import { removeStaleTemps, type StaleTempOptions } from "./temp-files.js";
import { readFileVersioned } from "./versioned-read.js";
import { listOneLevel, startDir, walkKeys } from "./walk.js";

/** A duration option: a positive finite number of ms, or the default when omitted. */
function positiveMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ZarrError("INVALID_ARGUMENT", `FileSystemStore option ${name} must be a positive number of milliseconds, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The module worker threads import for `workerStore`. */
const THIS_MODULE = workerModuleUrl(import.meta.url, "file-system-store.js");

/**
 * With `blockingReads`, `get`s and scatter reads of values up to this size block; larger ones go to
 * libuv's thread pool, where several run at once (a 256 MiB read of 1 MiB chunks is
 * about 5% faster that way, while 16 KiB chunks read a third faster blocking).
 */
const BLOCKING_READ_MAX = 256 * 1024;

/** Options of {@link FileSystemStore}. */
export interface FileSystemStoreOptions {
  /** Refuse `set`, `delete` and `deletePrefix` with `STORE_READ_ONLY`. Default `false`. */
  readOnly?: boolean;
  /**
   * fsync each written file before renaming it into place, and its directory after, so a
   * completed `set` survives a power loss. Slower; default `false` (atomic, not durable).
   */
  durable?: boolean;
  /**
   * Read chunks and metadata (`getInto`, and `get` and `readInto` of values up to 256 KiB)
   * and list directories (`listDir`, `listPrefix`, `list`) with blocking system calls
   * instead of through libuv's thread pool: several times faster for many small chunks or
   * a wide hierarchy, but each call holds the calling thread for its duration. For batch processes (the `zarr` CLI uses it); a
   * server's event loop is better off without. Default `false`. (Worker threads of a
   * pool keep asynchronous reads too: with two chunk tasks each, one decodes while the
   * other's read is in flight, which measured faster for large chunks and shards.)
   */
  blockingReads?: boolean;
  /**
   * Let reads and listings follow symbolic links that lead outside the root (a store that
   * links in data kept elsewhere). Default `false`: reading such a key throws
   * `KEY_INVALID` and listings skip such entries. Writes never go through them either way.
   */
  followSymlinks?: boolean;
  /**
   * Age in ms past which a lock file of `lock` counts as abandoned and is taken over,
   * whoever holds it (a lock whose process on this host has died is taken over at once).
   * Keep it above the longest read-modify-write of one chunk or shard. Default 30 000.
   */
  lockStaleMs?: number;
  /** How long `lock` waits for a held lock before failing with `STORE_FAILED`, in ms. Default 60 000. */
  lockTimeoutMs?: number;
}

/** A read of one file: its path, and the flags to open it with. */
type FileRead<T> = (path: string, flags: number) => Promise<T | undefined>;

/**
 * A local directory as a Zarr store: readable (with byte ranges), writable with atomic
 * replacement, and listable.
 *
 * - Keys are `/`-separated relative keys checked with `validateKey`; keys or prefixes that
 *   would leave the root (`..`, absolute, NUL, backslash, or a symbolic link inside the
 *   root that points outside, for writes and deletes) throw `KEY_INVALID`.
 * - `set` writes `.<name>.<random>.zarr-tmp` next to the target and renames it over the
 *   target: readers see the old value or the new one, never a mix.
 * - The root need not exist: reads see an empty store, the first write creates it.
 *
 * @example
 * ```ts
 * const store = new FileSystemStore("data.zarr");
 * await store.set("zarr.json", new TextEncoder().encode('{"zarr_format":3,"node_type":"group"}'));
 * const bytes = await store.get("zarr.json");
 * const { keys, prefixes } = await store.listDir("");
 * ```
 */
export class FileSystemStore implements ReadableStore, WritableStore, ListableStore {
  /** Absolute path of the store's root directory. */
  readonly root: string;
  /** True when writes are refused. */
  readonly readOnly: boolean;
  /** True when writes are fsynced before they become visible. */
  readonly durable: boolean;
  /** True when chunk reads use blocking system calls (see `FileSystemStoreOptions.blockingReads`). */
  readonly blockingReads: boolean;
  /** True when reads and listings may follow links out of the root (see `FileSystemStoreOptions.followSymlinks`). */
  readonly followSymlinks: boolean;
  /**
   * The bytes `get` resolves are each read's own buffer, kept nowhere else, so a worker
   * pool moves them to its workers without a copy (see `ReadableStore.returnedBytes`).
   */
  readonly returnedBytes = "owned";
  /** Age past which a lock file is taken over (see `FileSystemStoreOptions.lockStaleMs`). */
  readonly lockStaleMs: number;
  /** How long `lock` waits (see `FileSystemStoreOptions.lockTimeoutMs`). */
  readonly lockTimeoutMs: number;
  /** Checks reads against the real root; `undefined` with `followSymlinks`. */
  readonly #containment: ReadContainment | undefined;
  /** How listings call the file system: blocking with `blockingReads`, else through the thread pool. */
  readonly #dirCalls: DirCalls;
  /** The root's real path, once a write has created or found it. */
  #realRoot: Promise<string> | undefined;

  /**
   * @param root Directory of the store (relative paths resolve against the current
   *   working directory now, not at each call). It is created on the first write.
   */
  constructor(root: string, options: FileSystemStoreOptions = {}) {
    if (typeof root !== "string" || root === "" || root.includes("\0")) {
      throw new ZarrError("INVALID_ARGUMENT", `FileSystemStore needs a directory path, got ${JSON.stringify(root)}`);
    }
    this.root = nodePath.resolve(root);
    this.readOnly = options.readOnly ?? false;
    this.durable = options.durable ?? false;
    this.blockingReads = options.blockingReads ?? false;
    this.followSymlinks = options.followSymlinks ?? false;
    this.lockStaleMs = positiveMs(options.lockStaleMs, DEFAULT_LOCK_STALE_MS, "lockStaleMs");
    this.lockTimeoutMs = positiveMs(options.lockTimeoutMs, DEFAULT_LOCK_TIMEOUT_MS, "lockTimeoutMs");
    this.#containment = this.followSymlinks ? undefined : new ReadContainment(this.root);
    this.#dirCalls = this.blockingReads ? blockingDirCalls : threadPoolDirCalls;
  }

  /** Reads a whole value; `undefined` when there is no file at the key (or it is a directory). */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const signal = options?.signal;
    throwIfAborted(signal);
    const path = keyToPath(this.root, key);
    try {
      if (this.blockingReads) {
        // Small values (metadata documents, small chunks) block; larger ones go to the thread pool.
        const small = this.#readContainedSync(key, path, (p, flags) => readSmallFileSync(p, BLOCKING_READ_MAX, flags));
        if (small !== TOO_LARGE) return small;
      }
      return await this.#readContained(key, path, (p, flags) => readWholeFile(p, signal, flags));
    } catch (error) {
      throw this.#failed(error, `Failed to read key ${JSON.stringify(key)}`, key);
    }
  }

  /**
   * Reads part of a value with a positional read (never the whole file). Ranges are
   * clamped like HTTP: past the end → empty array; `undefined` when the key is missing.
   */
  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const signal = options?.signal;
    throwIfAborted(signal);
    const path = keyToPath(this.root, key);
    try {
      return await this.#readContained(key, path, (p, flags) => readFileRange(p, range, signal, flags));
    } catch (error) {
      throw this.#failed(error, `Failed to read a range of key ${JSON.stringify(key)}`, key);
    }
  }

  /**
   * Scatter read straight into the caller's buffers (see `ReadableStore.readInto`): the
   * kernel copies the file's bytes into each target with `readv`, no intermediate buffer.
   */
  async readInto(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions): Promise<number | undefined> {
    const signal = options?.signal;
    throwIfAborted(signal);
    const path = keyToPath(this.root, key);
    const [, end] = checkReadIntoRanges(key, ranges);
    try {
      // Large scatter reads still go to the thread pool, where several overlap.
      return this.blockingReads && end <= BLOCKING_READ_MAX
        ? this.#readContainedSync(key, path, (p, flags) => readFileIntoSync(p, ranges, end, flags))
        : await this.#readContained(key, path, (p, flags) => readFileInto(p, ranges, end, signal, flags));
    } catch (error) {
      throw this.#failed(error, `Failed to read key ${JSON.stringify(key)}`, key);
    }
  }

  /**
   * Reads a whole value into the start of `spare` when it fits, else into a buffer of its
   * own (see `ReadableStore.getInto`): a reader reuses one input buffer for every chunk.
   */
  async getInto(key: string, spare: Uint8Array, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const signal = options?.signal;
    throwIfAborted(signal);
    const path = keyToPath(this.root, key);
    try {
      return this.blockingReads
        ? this.#readContainedSync(key, path, (p, flags) => readWholeFileIntoSync(p, spare, flags))
        : await this.#readContained(key, path, (p, flags) => readWholeFileInto(p, spare, signal, flags));
    } catch (error) {
      throw this.#failed(error, `Failed to read key ${JSON.stringify(key)}`, key);
    }
  }

  /**
   * Versioned read (see `ReadableStore.getVersioned`): the bytes of `range` (the whole
   * value when `undefined`) and the file's version (device, inode, size, modification
   * and change times). With `ifVersion`, a file replaced or modified since rejects with
   * `STORE_CHANGED`; sharded reads use it so a shard's index and inner chunks come from
   * one version of the file.
   */
  async getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    const signal = options?.signal;
    throwIfAborted(signal);
    const path = keyToPath(this.root, key);
    try {
      return await readFileVersioned(path, key, range, options?.ifVersion, signal, options?.spare);
    } catch (error) {
      throw this.#failed(error, `Failed to read key ${JSON.stringify(key)}`, key);
    }
  }

  /**
   * How a worker thread opens this store read-only, with `blockingReads` (see
   * `ReadableStore.workerStore`): with a worker pool, chunk tasks then read their chunks in
   * the workers, so no chunk bytes pass through the calling thread.
   */
  workerStore(): WorkerStoreRecipe {
    return {
      moduleUrl: THIS_MODULE,
      // Bundled apps register the package by name in their worker script.
      moduleName: "@zarr/store-fs",
      exportName: "openFileSystemStore",
      // Blocking reads: a worker thread's reads hold only that worker, which has nothing
      // else to do meanwhile, and they skip the hand-off to libuv's thread pool (shared by
      // every worker) and back. A 256 MiB blosc-lz4 read with a pool of 2 took 0.22 s
      // (0.28 s user, 0.10 s system CPU) through the thread pool, 0.16 s (0.26, 0.04) so.
      args: [this.root, { readOnly: true, followSymlinks: this.followSymlinks, blockingReads: true }],
    };
  }

  /**
   * The keys under `prefix` (`""` or ending in `/`) in one directory walk, for readers
   * that touch very many chunks (see `ReadableStore.listStoredKeys`): `undefined` past
   * `limit` keys or at a symbolic link below the prefix, `[]` when nothing is there.
   *
   * @example
   * ```ts
   * const keys = await store.listStoredKeys("temperature/c/", 100_000); // ["temperature/c/0/3", …]
   * ```
   */
  async listStoredKeys(prefix: string, limit: number, options?: StoreRequestOptions): Promise<string[] | undefined> {
    try {
      return await listStoredKeys(this.root, prefix, this.followSymlinks, limit, options?.signal, this.#dirCalls);
    } catch (error) {
      throw this.#failed(error, `Failed to list prefix ${JSON.stringify(prefix)}`, prefix);
    }
  }

  /** Size in bytes of a value without reading it; `undefined` when the key is missing. */
  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    throwIfAborted(options?.signal);
    const path = keyToPath(this.root, key);
    try {
      const containment = this.#containment;
      if (containment === undefined) return (await fileSize(path)) as number | undefined;
      if (!containment.resolveEveryPath) {
        const dirInside = containment.checkDir(path, key);
        if (dirInside !== true && !(await dirInside)) return undefined;
        const size = await fileSize(path, false);
        if (size !== "link") return size;
      }
      const real = await containment.resolveFile(path, key);
      return real === undefined ? undefined : ((await fileSize(real)) as number | undefined);
    } catch (error) {
      throw this.#failed(error, `Failed to read the size of key ${JSON.stringify(key)}`, key);
    }
  }

  /**
   * Writes a value atomically (temporary file + rename), creating parent directories.
   * With `durable: true` the data is fsynced before the rename.
   */
  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    const signal = options?.signal;
    this.#assertWritable(key);
    throwIfAborted(signal);
    const path = keyToPath(this.root, key);
    if (!(value instanceof Uint8Array)) {
      throw new ZarrError("INVALID_ARGUMENT", `Value for key ${JSON.stringify(key)} must be a Uint8Array`, { key });
    }
    try {
      const realDir = await ensureRealDir(this.root, await this.#writableRealRoot(), nodePath.dirname(path), key, () =>
        this.#refreshRealRoot(),
      );
      throwIfAborted(signal);
      await writeFileAtomic(realDir, nodePath.basename(path), value, { durable: this.durable, signal });
    } catch (error) {
      throw this.#failed(error, `Failed to write key ${JSON.stringify(key)}`, key);
    }
  }

  /** Deletes one key. Deleting a missing key is not an error. Empty parent directories are left behind. */
  /**
   * Locks `key` across processes with an advisory lock file, `.<name>.zarr-lock` next to
   * the key's file (see `WritableStore.lock`): created with O_EXCL, retried with backoff
   * while held, taken over when its process on this host is gone or it is older than
   * `lockStaleMs`. Release it in a `finally`; release removes the file. Listings never
   * show lock files. Not reentrant: locking a key this caller holds waits for itself.
   *
   * @example
   * ```ts
   * const held = await store.lock("a/c/0");
   * try { await store.set("a/c/0", update(await store.get("a/c/0"))); } finally { await held.release(); }
   * ```
   */
  async lock(key: string, options?: StoreRequestOptions): Promise<StoreLock> {
    const signal = options?.signal;
    this.#assertWritable(key);
    throwIfAborted(signal);
    const path = keyToPath(this.root, key);
    try {
      const realDir = await ensureRealDir(this.root, await this.#writableRealRoot(), nodePath.dirname(path), key, () =>
        this.#refreshRealRoot(),
      );
      const lockPath = nodePath.join(realDir, lockNameFor(nodePath.basename(path)));
      const release = await acquireFileLock(lockPath, key, {
        staleMs: this.lockStaleMs,
        timeoutMs: this.lockTimeoutMs,
        signal,
      });
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          try {
            await release();
          } catch (error) {
            throw this.#failed(error, `Failed to release the lock on key ${JSON.stringify(key)}`, key);
          }
        },
      };
    } catch (error) {
      throw this.#failed(error, `Failed to lock key ${JSON.stringify(key)}`, key);
    }
  }

  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    this.#assertWritable(key);
    throwIfAborted(options?.signal);
    const path = keyToPath(this.root, key);
    try {
      const realRoot = await existingRealRoot(this.root);
      if (realRoot === undefined) return;
      const realDir = await existingRealDir(realRoot, nodePath.dirname(path), key);
      if (realDir === undefined) return;
      await unlinkKey(nodePath.join(realDir, nodePath.basename(path)));
    } catch (error) {
      throw this.#failed(error, `Failed to delete key ${JSON.stringify(key)}`, key);
    }
  }

  /**
   * Deletes every key under `prefix` (`"a/b/"`: the directory `a/b` recursively; `""`:
   * everything, keeping the root directory). Symbolic links are removed, never followed.
   */
  async deletePrefix(prefix: string, options?: StoreRequestOptions): Promise<void> {
    this.#assertWritable(prefix);
    throwIfAborted(options?.signal);
    const path = prefixToPath(this.root, prefix);
    try {
      const realRoot = await existingRealRoot(this.root);
      if (realRoot === undefined) return;
      if (prefix === "") {
        await emptyDirectory(realRoot, options?.signal);
        return;
      }
      const realDir = await existingRealDir(realRoot, nodePath.dirname(path), prefix);
      if (realDir === undefined) return;
      await removeDirectoryEntry(nodePath.join(realDir, nodePath.basename(path)));
    } catch (error) {
      throw this.#failed(error, `Failed to delete prefix ${JSON.stringify(prefix)}`, prefix);
    }
  }

  /** Every key in the store, depth first in name order. Temporary files are skipped. */
  list(options?: StoreRequestOptions): AsyncIterable<string> {
    return this.listPrefix("", options);
  }

  /**
   * Every key starting with the string `prefix`, which need not end in `/`: `"a/b"`
   * yields `a/b/x` and `a/bc`.
   */
  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    const signal = options?.signal;
    throwIfAborted(signal);
    const [dirPrefix, namePrefix] = splitStringPrefix(prefix);
    const dirPath = prefixToPath(this.root, dirPrefix);
    const accept = namePrefix === "" ? undefined : (name: string) => name.startsWith(namePrefix);
    try {
      const start = await startDir(this.root, dirPath, dirPrefix, this.followSymlinks, this.#dirCalls);
      if (start === undefined) return;
      yield* walkKeys(start, dirPrefix, signal, accept);
    } catch (error) {
      throw this.#failed(error, `Failed to list keys with prefix ${JSON.stringify(prefix)}`, prefix);
    }
  }

  /**
   * One level under `prefix` (`""` or ending in `/`): the keys directly in it and the
   * child prefixes (without trailing `/`) that hold at least one key, both sorted. With
   * `uncheckedPrefixes`, every child directory, without opening it to look for a key.
   */
  async listDir(prefix: string, options?: ListDirOptions): Promise<DirListing> {
    const signal = options?.signal;
    throwIfAborted(signal);
    const dirPath = prefixToPath(this.root, prefix);
    try {
      const start = await startDir(this.root, dirPath, prefix, this.followSymlinks, this.#dirCalls);
      if (start === undefined) return { keys: [], prefixes: [] };
      return await listOneLevel(start, signal, options?.uncheckedPrefixes);
    } catch (error) {
      throw this.#failed(error, `Failed to list prefix ${JSON.stringify(prefix)}`, prefix);
    }
  }

  /**
   * Removes the temporary files that interrupted writes (a killed process) left under
   * `prefix` (`""`: the whole store; with `recursive: false` only the directory of
   * `prefix` itself); resolves how many were removed. A temporary file
   * counts as abandoned when it was written on this host by a process that no longer
   * runs, or, whoever wrote it, when it is older than `maxAgeMs` (default one hour), so a
   * concurrent writer's file about to be renamed into place is never taken away.
   * Listings skip temporary files either way; this reclaims their space.
   */
  async removeStaleTempFiles(prefix = "", options: StaleTempOptions = {}): Promise<number> {
    this.#assertWritable(prefix);
    throwIfAborted(options.signal);
    const dirPath = prefixToPath(this.root, prefix);
    try {
      const realRoot = await existingRealRoot(this.root);
      if (realRoot === undefined) return 0;
      const realDir = prefix === "" ? realRoot : await existingRealDir(realRoot, dirPath, prefix);
      if (realDir === undefined) return 0;
      return await removeStaleTemps(realDir, options);
    } catch (error) {
      throw this.#failed(error, `Failed to remove stale temporary files under ${JSON.stringify(prefix)}`, prefix);
    }
  }

  /**
   * Runs `read` on the file of `key` (lexical path `path`) after the containment check
   * (see read-containment.ts): a key resolving outside the root throws `KEY_INVALID`.
   */
  async #readContained<T>(key: string, path: string, read: FileRead<T>): Promise<T | undefined> {
    const containment = this.#containment;
    if (containment === undefined) return read(path, READ_FLAGS);
    if (!containment.resolveEveryPath) {
      const dirInside = containment.checkDir(path, key);
      if (dirInside !== true && !(await dirInside)) return undefined;
      try {
        return await read(path, containment.openFlags);
      } catch (error) {
        if (!isRefusedLink(error)) throw error;
      }
    }
    // The last component is a link (or links cannot be refused at open): resolve this one path.
    const real = await containment.resolveFile(path, key);
    return real === undefined ? undefined : read(real, READ_FLAGS);
  }

  /** {@link #readContained} with blocking calls. */
  #readContainedSync<T>(key: string, path: string, read: (path: string, flags: number) => T | undefined): T | undefined {
    const containment = this.#containment;
    if (containment === undefined) return read(path, READ_FLAGS);
    if (!containment.resolveEveryPath) {
      if (!containment.checkDirSync(path, key)) return undefined;
      try {
        return read(path, containment.openFlags);
      } catch (error) {
        if (!isRefusedLink(error)) throw error;
      }
    }
    const real = containment.resolveFileSync(path, key);
    return real === undefined ? undefined : read(real, READ_FLAGS);
  }

  #assertWritable(key: string): void {
    if (this.readOnly) {
      throw new ZarrError("STORE_READ_ONLY", `Cannot modify ${JSON.stringify(key)}: the store at ${this.root} is read-only`, {
        key,
      });
    }
  }

  /** The root's real path for writing: created on the first write, then cached. */
  #writableRealRoot(): Promise<string> {
    this.#realRoot ??= this.#refreshRealRoot();
    return this.#realRoot;
  }

  #refreshRealRoot(): Promise<string> {
    const fresh = createRealRoot(this.root);
    this.#realRoot = fresh;
    // A failed attempt (e.g. permissions) must not be cached.
    fresh.catch(() => {
      if (this.#realRoot === fresh) this.#realRoot = undefined;
    });
    return fresh;
  }

  /** Wraps a failure: ZarrErrors pass through, an abort becomes `ABORTED`, the rest `STORE_FAILED`. */
  #failed(error: unknown, message: string, key: string): ZarrError {
    if (error instanceof ZarrError) return error;
    if (errorCode(error) === "ABORT_ERR") {
      return new ZarrError("ABORTED", "The operation was aborted", { key, cause: error });
    }
    return asZarrError(error, "STORE_FAILED", `${message} in ${this.root}`, key);
  }
}

/** Unlinks a file; a missing entry or a directory (not a key) is left alone. */
async function unlinkKey(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (isMissing(error) || errorCode(error) === "EISDIR") return;
    // macOS and Windows report unlinking a directory as EPERM: check what is there.
    if (errorCode(error) === "EPERM" && (await lstat(path).catch(() => undefined))?.isDirectory()) return;
    throw error;
  }
}

/**
 * Removes what a prefix names: a directory recursively, or a symbolic link (the link
 * itself). A file at that path is a key without the trailing `/` and is kept.
 */
async function removeDirectoryEntry(path: string): Promise<void> {
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(path);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  // rm -r removes a link itself and never descends through one.
  if (stats.isSymbolicLink() || stats.isDirectory()) await removeTree(path);
}

/** Removes everything inside `dir` but not `dir` itself. */
async function emptyDirectory(dir: string, signal: AbortSignal | undefined): Promise<void> {
  let entries: Awaited<ReturnType<typeof readdir>>;
  try {
    entries = await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    throwIfAborted(signal);
    await removeTree(nodePath.join(dir, entry.name));
  }
}

/**
 * Creates a {@link FileSystemStore} (a function form, for worker threads that build the
 * store from `workerStore()`'s recipe).
 *
 * @example
 * ```ts
 * const store = openFileSystemStore("data.zarr", { readOnly: true });
 * ```
 */
export function openFileSystemStore(root: string, options: FileSystemStoreOptions = {}): FileSystemStore {
  return new FileSystemStore(root, options);
}
