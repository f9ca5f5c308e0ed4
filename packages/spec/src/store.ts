/**
 * The store contract. A store maps string keys (`"a/b/zarr.json"`, `"a/b/c/0/1"`) to
 * bytes. Capabilities are separate interfaces so a read-only HTTP store, a writable
 * directory and a listable S3 bucket each implement exactly what they can.
 */
import { ZarrError } from "./errors.js";

/**
 * A byte range of a stored value: `{offset, length}` (length omitted = to the end) or
 * `{suffixLength}` (the last n bytes). Ranges past the end are clamped, as HTTP does.
 */
export type ByteRange = { offset: number; length?: number } | { suffixLength: number };

/** Options every store operation accepts. */
export interface StoreRequestOptions {
  signal?: AbortSignal;
}

/** Reading. `get` resolves `undefined` for a missing key; other failures reject with `STORE_FAILED`. */
export interface ReadableStore {
  get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined>;
  /** Reads part of a value; `undefined` when the key is missing. */
  getRange?(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined>;
  /** Size in bytes of a stored value without reading it; `undefined` when the key is missing. */
  getSize?(key: string, options?: StoreRequestOptions): Promise<number | undefined>;
  /**
   * Scatter read: copies `target.length` bytes at `offset` of the value into each target
   * (the caller's own memory, e.g. rows of a result array), so no intermediate buffer is
   * needed. Resolves the value's total size, or `undefined` when the key is missing. When
   * the value is shorter than a range needs, the targets' contents are unspecified and
   * the caller must not use them (it compares the size with what it expected).
   */
  readInto?(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions): Promise<number | undefined>;
  /**
   * Reads the whole value into the start of `spare` when it fits, resolving a view of
   * `spare`, and otherwise into an array of its own; `undefined` when the key is missing.
   * Lets a reader reuse one input buffer from chunk to chunk. The caller owns `spare`
   * until it has consumed the result.
   */
  getInto?(key: string, spare: Uint8Array, options?: StoreRequestOptions): Promise<Uint8Array | undefined>;
  /**
   * How a worker thread opens an equivalent store of its own (a module export called with
   * `args`, returning the store), so chunk tasks run in a worker read their chunks there
   * instead of passing the bytes through the calling thread; `undefined` when it cannot.
   * Wrappers that observe or change reads (counting, caching, prefixing) must not pass it
   * through.
   */
  workerStore?(): WorkerStoreRecipe | undefined;
  /**
   * What the caller may do with the arrays `get` resolves (a declared capability; see
   * {@link ReturnedBytes}). Absent, the caller only reads them while it uses them: they
   * may be the store's own memory, kept, shared with other reads or reused, so a caller
   * that hands them to another thread copies them first. It speaks of `get` alone (ranged
   * reads may be views of one merged response). Wrappers that return other bytes than the
   * store they wrap (a cache) must not pass it through, and a subclass whose `get` returns
   * other bytes than its parent's must declare its own (or `undefined`).
   */
  readonly returnedBytes?: ReturnedBytes;
  /**
   * Versioned read (optional capability): the bytes of `range` (the whole value when
   * `undefined`, clamped like `getRange`) together with the version they belong to, an
   * opaque token (an HTTP or S3 ETag; a file's device, inode, size and times). With
   * `ifVersion`, the bytes must come from that version: when the value is now another
   * version, the read rejects with `STORE_CHANGED` and returns no bytes. Resolves
   * `undefined` when the key is missing. `version` is `undefined` when the store cannot
   * tell this time (a server that sends no strong ETag); such bytes are unchecked.
   *
   * Readers that combine several reads of one value (a shard's index, then its inner
   * chunks) pass the first read's version to the later ones, so they never mix bytes of
   * two versions. Stores without it keep working: their reads are simply not checked.
   */
  getVersioned?(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined>;
  /**
   * The keys stored under `prefix` (`""` or ending in `/`), listed in one pass that costs
   * far less than asking for each key: a local directory walk, not a request per page.
   * May list more than `get` would find (entries it cannot read), never fewer. Resolves
   * `undefined` when more than `limit` keys are there, or when the store cannot list the
   * prefix completely (say, through a symbolic link): the caller then asks for each key.
   * Readers that touch very many chunks list them once and skip the keys not listed, so a
   * missing chunk costs no system call or request.
   */
  listStoredKeys?(prefix: string, limit: number, options?: StoreRequestOptions): Promise<string[] | undefined>;
}

/**
 * What a store promises about the arrays its `get` resolves (`ReadableStore.returnedBytes`),
 * so that a caller handing chunk bytes to a worker thread can skip copying them:
 * - `"owned"`: each call's array is on a buffer made for that call, which the store (and
 *   every other read) keeps no reference to: the caller may change it, keep it, or move
 *   (transfer, detaching it here) its whole buffer to another thread. HTTP responses and
 *   file reads.
 * - `"immutable"`: the store may keep the bytes and hand them to other reads, but never
 *   changes them once returned (it replaces a value rather than writing into it): bytes
 *   on a `SharedArrayBuffer` can be read by another thread as they are, with no copy.
 */
export type ReturnedBytes = "owned" | "immutable";

/** Options of `ReadableStore.getVersioned`. */
export interface VersionedReadOptions extends StoreRequestOptions {
  /** Read only from this version (from an earlier `getVersioned`); otherwise reject with `STORE_CHANGED`. */
  ifVersion?: string;
  /**
   * Read into the start of this buffer when the bytes fit (the result is then a view of
   * it), like `getInto`: a reader of many ranges reuses one buffer instead of faulting in
   * fresh memory for each. The caller owns `spare` until it has consumed the result; a
   * store may ignore it (and one that keeps the bytes it returns must).
   */
  spare?: Uint8Array;
}

/** What `ReadableStore.getVersioned` resolves: bytes and the version of the value they were read from. */
export interface VersionedBytes {
  bytes: Uint8Array;
  /** Opaque version token, compared only for equality; `undefined` when unknown. */
  version: string | undefined;
}

/** How a worker thread builds a store: `await module[exportName](...args)` of the module at `moduleUrl`. */
export interface WorkerStoreRecipe {
  /** Absolute URL of an ES module (or a name registered with the worker runtime). */
  moduleUrl: string;
  /** A package specifier of the same module, tried first among registered modules (see `ModuleExport`). */
  moduleName?: string;
  exportName: string;
  /** Structured-cloneable arguments. */
  args: unknown[];
}

/** One piece of a scatter read: bytes `[offset, offset + target.length)` go to `target`. */
export interface ReadIntoRange {
  offset: number;
  target: Uint8Array;
}

/** Writing. `set` is atomic: a reader never sees half a value. */
export interface WritableStore {
  /**
   * Stores `value` under `key`. The caller may reuse `value`'s memory as soon as the
   * returned promise settles (writers assemble chunks in reused buffers), so a store that
   * keeps the bytes, rather than writing them out, keeps a copy.
   */
  set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void>;
  /** Deletes one key; deleting a missing key is not an error. */
  delete(key: string, options?: StoreRequestOptions): Promise<void>;
  /** Deletes every key starting with `prefix` (which ends in `/`, or is `""` for everything). */
  deletePrefix?(prefix: string, options?: StoreRequestOptions): Promise<void>;
  /**
   * Locks one key for a read-modify-write (optional capability): resolves once this caller
   * holds the key exclusively among every writer that also locks it, in this process and
   * in others (a lock file for a directory). The lock is advisory: writers that do not
   * lock are not kept out. The caller releases it in a `finally`. Rejects with
   * `STORE_FAILED` when the lock cannot be had in the store's time limit, `ABORTED` when
   * `signal` fires while waiting.
   *
   * A store offers it only when the lock is complete for the store's own sharing: a store
   * held in memory locks per process; a directory store locks across processes on
   * every host that honours exclusive file creation.
   */
  lock?(key: string, options?: StoreRequestOptions): Promise<StoreLock>;
  /**
   * Conditional write (optional capability): stores `value` only if the value at `key` is
   * still version `expected` (a version from `getVersioned`), or, with `expected: null`,
   * only if there is no value yet; otherwise rejects with `STORE_CHANGED` and writes
   * nothing. The check and the write are one atomic step on the server (S3 `If-Match` /
   * `If-None-Match: *`). Lets writers of one value retry a read-modify-write instead of
   * locking (optimistic concurrency).
   */
  setIfVersion?(key: string, value: Uint8Array, expected: string | null, options?: StoreRequestOptions): Promise<void>;
}

/** A held lock on one key (from `WritableStore.lock`). */
export interface StoreLock {
  /** Gives the lock up. Call it exactly once; it never rejects for a lock that was already lost. */
  release(): Promise<void>;
}

/** What `listDir` returns: names relative to the listed prefix. */
export interface DirListing {
  /** Keys directly under the prefix (`"zarr.json"`). */
  keys: string[];
  /** Child prefixes directly under the prefix, without trailing `/` (`"c"`, `"child"`). */
  prefixes: string[];
}

/**
 * Files `name` (a key relative to the prefix being listed) in a `listDir` result: a key
 * directly under the prefix, or the child prefix that holds it.
 *
 * @example
 * ```ts
 * const keys = new Set<string>(), prefixes = new Set<string>();
 * for (const name of ["zarr.json", "c/0", "c/1"]) addToDirListing(name, keys, prefixes); // keys {zarr.json}, prefixes {c}
 * ```
 */
export function addToDirListing(name: string, keys: Set<string>, prefixes: Set<string>): void {
  const slash = name.indexOf("/");
  if (slash < 0) keys.add(name);
  else prefixes.add(name.slice(0, slash));
}

/** Options of `ListableStore.listDir`. */
export interface ListDirOptions extends StoreRequestOptions {
  /**
   * The caller checks every child prefix itself (a hierarchy listing reads each child's
   * metadata documents anyway and skips a child without any), so the store may report
   * child prefixes without making sure they hold a key: a file-system store then does not
   * open every child directory to look for one, which is most of the cost of listing a
   * wide group. Default `false`: only prefixes holding at least one key.
   */
  uncheckedPrefixes?: boolean;
}

/** Listing. Keys are yielded in no particular order. */
export interface ListableStore {
  list(options?: StoreRequestOptions): AsyncIterable<string>;
  /** Every key starting with `prefix`. */
  listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string>;
  /**
   * One level under `prefix` (`""` for the root, otherwise ending in `/`): the keys
   * directly under it and the child prefixes holding at least one key (with
   * `uncheckedPrefixes`, possibly also child prefixes holding none).
   */
  listDir(prefix: string, options?: ListDirOptions): Promise<DirListing>;
}

/** Any store: readable, and maybe writable and listable. */
export type Store = ReadableStore & Partial<WritableStore> & Partial<ListableStore>;

/** True when the store can write (`set` and `delete`). */
export function isWritable(store: Store): store is ReadableStore & WritableStore & Partial<ListableStore> {
  return typeof store.set === "function" && typeof store.delete === "function";
}

/** True when the store can list (`list`, `listPrefix`, `listDir`). */
export function isListable(store: Store): store is ReadableStore & Partial<WritableStore> & ListableStore {
  return (
    typeof store.list === "function" && typeof store.listPrefix === "function" && typeof store.listDir === "function"
  );
}

/** True when the store can lock keys for read-modify-write (`lock`). */
export function supportsLocks(store: Store): store is Store & Required<Pick<WritableStore, "lock">> {
  return typeof store.lock === "function";
}

/** True when the store can read versions and write conditionally on them (`getVersioned` and `setIfVersion`). */
export function supportsConditionalWrites(
  store: Store,
): store is Store & Required<Pick<ReadableStore, "getVersioned">> & Required<Pick<WritableStore, "setIfVersion" | "set">> {
  return typeof store.setIfVersion === "function" && typeof store.getVersioned === "function" && typeof store.set === "function";
}

/** True when the store can read byte ranges. */
export function supportsRanges(store: Store): store is Store & Required<Pick<ReadableStore, "getRange">> {
  return typeof store.getRange === "function";
}

/**
 * The default cap on the size of a metadata document (`zarr.json`, `.zarray`, `.zgroup`,
 * `.zattrs`, `.zmetadata`) that remote stores accept: 64 MiB. A server sending more (an
 * endless body) is cut off with `STORE_TOO_LARGE`; the stores' `maxMetadataBytes` option
 * changes it.
 */
export const DEFAULT_MAX_METADATA_BYTES = 64 * 1024 * 1024;

const METADATA_NAMES = new Set(["zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata"]);

/** True when `key` names a metadata document (its last segment is `zarr.json`, `.zarray`, `.zgroup`, `.zattrs` or `.zmetadata`). */
export function isMetadataKey(key: string): boolean {
  return METADATA_NAMES.has(key.slice(key.lastIndexOf("/") + 1));
}

// The two "limit exceeded" errors (a body longer than a read accepts, a decoder's output
// past its bound) live here, not in modules of their own (bundle size and requests): the
// code every read loads and the lazily loaded modules of stores and codecs both use them,
// and with code splitting esbuild gives a module shared that way a chunk of its own (one
// more file for a first read) unless the lazy modules reaching it reach its chunk's other
// modules too. Every read loads this module, and those lazy modules reach it alike. (Not
// in bounded-body.ts either: whole-value reads throw BodyLimitExceeded too, and should not
// pull the bounded body readers into a bundle's first chunk.)

/**
 * Thrown when a body is longer than the read accepts. Internal to store adapters: they
 * turn it into `STORE_TOO_LARGE` naming the request (it is not retried).
 *
 * @example
 * ```ts
 * if (received > limit) throw new BodyLimitExceeded(limit, "the response body");
 * ```
 */
export class BodyLimitExceeded extends Error {
  override readonly name = "BodyLimitExceeded";
  constructor(
    readonly limit: number,
    what: string,
  ) {
    super(`${what} is larger than the ${limit} bytes accepted`);
  }
}

/**
 * Thrown by a decoder (a codec's decompressor) whose output would pass its `maxOutput`:
 * it stops at once, without allocating more. Internal to codecs, which turn it into a
 * `ZarrError` naming the chunk.
 *
 *
 * @example
 * ```ts
 * if (total > maxOutput) throw new OutputLimitExceeded(maxOutput);
 * ```
 */
export class OutputLimitExceeded extends Error {
  override readonly name = "OutputLimitExceeded";

  constructor(
    /** The bound that was passed. */
    readonly maxOutput: number,
    /** The size the data declares, when it declares one. */
    readonly declared?: number,
  ) {
    super(
      declared === undefined
        ? `the data decodes to more than ${maxOutput} bytes`
        : `the data declares ${declared} decoded bytes, more than ${maxOutput}`,
    );
  }
}

/** True when the store can read a value together with its version (`getVersioned`). */
export function supportsVersions(store: Store): store is Store & Required<Pick<ReadableStore, "getVersioned">> {
  return typeof store.getVersioned === "function";
}

/**
 * The `STORE_CHANGED` error of a versioned read whose value is no longer version
 * `expected` (`found` when the store knows the new one).
 */
export function storeChanged(key: string, expected: string, found?: string): ZarrError {
  const now = found === undefined ? "" : ` (now ${JSON.stringify(found)})`;
  return new ZarrError("STORE_CHANGED", `Key ${JSON.stringify(key)} changed while it was being read: expected version ${JSON.stringify(expected)}${now}`, { key });
}

/**
 * Checks that `key` is a valid store key: relative, `/`-separated, no empty, `.` or
 * `..` segments, no backslashes or NUL bytes. Stores that map keys onto a file system
 * or URL call this before touching anything; it throws `KEY_INVALID` naming the key.
 *
 * @example
 * ```ts
 * validateKey("a/b/zarr.json"); // ok
 * validateKey("../etc/passwd"); // throws ZarrError KEY_INVALID
 * ```
 */
export function validateKey(key: string, { allowEmpty = false } = {}): void {
  const bad = (why: string): never => {
    throw new ZarrError("KEY_INVALID", `Invalid store key ${JSON.stringify(key)}: ${why}`, { key });
  };
  if (typeof key !== "string") bad("not a string");
  if (key === "") {
    if (allowEmpty) return;
    bad("empty");
  }
  if (key.includes("\0")) bad("contains a NUL byte");
  if (key.includes("\\")) bad("contains a backslash");
  if (key.startsWith("/")) bad("absolute (starts with /)");
  if (/^[A-Za-z]:/.test(key)) bad("looks like a drive path");
  for (const segment of key.split("/")) {
    if (segment === "") bad("has an empty path segment");
    if (segment === "." || segment === "..") bad(`has a "${segment}" path segment`);
  }
}

/** Validates a prefix: `""` or a valid key followed by `/`. */
export function validatePrefix(prefix: string): void {
  if (prefix === "") return;
  if (!prefix.endsWith("/")) {
    throw new ZarrError("KEY_INVALID", `Invalid store prefix ${JSON.stringify(prefix)}: must be "" or end with "/"`, {
      key: prefix,
    });
  }
  validateKey(prefix.slice(0, -1));
}

/** Options `openStore` passes to a store entry. */
export interface StoreOpenOptions {
  /** Open without write access even when the store could write. */
  readOnly?: boolean;
  signal?: AbortSignal;
  /**
   * Opens another URL through the same registry: for stores that live inside another
   * store (a zip archive on S3: `zip+s3://bucket/archive.zip`).
   */
  openInner?(url: string): Promise<Store>;
  /** Store-specific settings (credentials, headers, endpoints...). */
  [setting: string]: unknown;
}

/**
 * A store adapter as registered: the URL schemes it serves and a factory.
 *
 * @example
 * ```ts
 * export const httpStoreEntry: StoreEntry = {
 *   type: "store", name: "http", schemes: ["http", "https"], package: "@zarr/store-http",
 *   open: (url, options) => new HttpStore(url, options),
 * };
 * ```
 */
export interface StoreEntry {
  readonly type: "store";
  readonly name: string;
  /** URL schemes without the colon (`"http"`, `"s3"`, `"zip+s3"`). */
  readonly schemes: readonly string[];
  readonly aliases?: readonly string[];
  readonly package?: string;
  open(url: string, options: StoreOpenOptions): Store | Promise<Store>;
}
