/** `copy`: every key of one store into another, streaming, concurrent, resumable, cancellable. */
import {
  asZarrError,
  isListable,
  isMetadataKey,
  isWritable,
  type ListableStore,
  mapConcurrent,
  type ReadableStore,
  type Store,
  throwIfAborted,
  validatePrefix,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";

/** Progress of {@link copy}, reported after listing and after each key. */
export interface CopyProgress {
  /** Keys finished (copied or skipped). */
  done: number;
  /** Keys to copy (all keys listed). */
  total: number;
  /** Bytes written to the destination so far. */
  bytes: number;
  /** Keys skipped because the destination already had them (`resume`). */
  skipped: number;
}

/** Options of {@link copy}. */
export interface CopyOptions {
  /** Keys in flight at once (default 8). Memory is bounded by about `concurrency` × the largest value. */
  concurrency?: number;
  /** Cancels the copy: it rejects with `ABORTED` once the writes in flight have settled. */
  signal?: AbortSignal;
  /** Called after listing (with `done: 0`) and after each key. */
  onProgress?: (progress: CopyProgress) => void;
  /**
   * Skip keys the destination already holds with the same size (default false): sizes come
   * from `getSize` when both stores have it, else the source value is read and compared
   * with the destination's size (or its value's length).
   */
  resume?: boolean;
  /** Copy only the keys under this prefix (`"group/array"` or `"group/array/"`); keys keep their names. */
  prefix?: string;
}

/** What {@link copy} did. */
export interface CopyResult {
  /** Keys listed in the source. */
  total: number;
  /** Keys written to the destination. */
  copied: number;
  /** Keys skipped (`resume`). */
  skipped: number;
  /** Bytes written. */
  bytes: number;
}

/** Default number of keys copied at once. */
export const DEFAULT_COPY_CONCURRENCY = 8;

/** Normalises and checks a copy prefix: `"a/b"` → `"a/b/"`. */
export function normalisePrefix(prefix: string): string {
  if (typeof prefix !== "string") throw new ZarrError("INVALID_ARGUMENT", `copy option "prefix" must be a string, got ${String(prefix)}`);
  const p = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
  validatePrefix(p);
  return p;
}

/** Throws unless `source` can be read and listed and `destination` written. */
export function checkCopyStores(source: Store, destination: Store): asserts source is Store & ListableStore {
  if (source === null || typeof source !== "object" || typeof source.get !== "function") {
    throw new ZarrError("INVALID_ARGUMENT", "copy needs a readable source store");
  }
  if (destination === null || typeof destination !== "object") {
    throw new ZarrError("INVALID_ARGUMENT", "copy needs a destination store");
  }
  if (!isListable(source)) {
    throw new ZarrError(
      "UNSUPPORTED",
      "copy needs a source that can list its keys, and this one cannot (plain HTTP has no listing: copy from a directory, S3, or a zip archive instead)",
    );
  }
  if (!isWritable(destination)) {
    throw new ZarrError("STORE_READ_ONLY", "copy needs a writable destination, and this store is read-only");
  }
}

/** Every key under `prefix` of `source`, sorted. */
export async function listKeys(source: ListableStore, prefix: string, signal: AbortSignal | undefined): Promise<string[]> {
  const keys: string[] = [];
  try {
    const listing = prefix === "" ? source.list({ signal }) : source.listPrefix(prefix, { signal });
    for await (const key of listing) keys.push(key);
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Listing the source${prefix ? ` under "${prefix}"` : ""} failed`);
  }
  return keys.sort();
}

/** The size of `key` in `store`: `getSize` when it has one, else the length of its value. */
async function sizeOf(store: ReadableStore, key: string, signal: AbortSignal | undefined): Promise<number | undefined> {
  if (typeof store.getSize === "function") return store.getSize(key, { signal });
  return (await store.get(key, { signal }))?.length;
}

/**
 * Copies every key of `source` (or every key under `prefix`) to `destination`, byte for
 * byte, between any two stores: directory → S3, S3 → directory, zip → directory...
 *
 * - Streaming: at most `concurrency` values are held at once, each read whole and
 *   written with one `set`. Stores' `set` is atomic, so the destination never holds part
 *   of a value: an aborted or failed copy leaves every key either as it was or complete.
 * - Data keys go first and metadata documents (`zarr.json`, `.zarray`, ...) after them,
 *   so an interrupted copy into an empty destination holds no metadata that points at
 *   data that is not there yet.
 * - `resume: true` skips keys the destination already holds with the same size.
 * - Throws `UNSUPPORTED` when the source cannot list keys (plain HTTP),
 *   `STORE_READ_ONLY` when the destination cannot write, `ABORTED` when cancelled, and
 *   the stores' own errors (`STORE_FAILED` naming the key) otherwise.
 *
 * @example
 * ```ts
 * const result = await copy(new FileSystemStore("data.zarr"), s3, {
 *   concurrency: 16, resume: true, signal,
 *   onProgress: ({ done, total, bytes }) => console.log(`${done}/${total} keys, ${bytes} bytes`),
 * });
 * ```
 */
export async function copy(source: Store, destination: Store, options: CopyOptions = {}): Promise<CopyResult> {
  const { signal, onProgress, resume = false } = options;
  const concurrency = options.concurrency ?? DEFAULT_COPY_CONCURRENCY;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new ZarrError("INVALID_ARGUMENT", `copy option "concurrency" must be a positive integer, got ${String(concurrency)}`);
  }
  checkCopyStores(source, destination);
  const prefix = normalisePrefix(options.prefix ?? "");
  throwIfAborted(signal);
  const keys = await listKeys(source, prefix, signal);
  const progress: CopyProgress = { done: 0, total: keys.length, bytes: 0, skipped: 0 };
  onProgress?.({ ...progress });

  const finish = (skipped: boolean, bytes: number) => {
    progress.done++;
    if (skipped) progress.skipped++;
    progress.bytes += bytes;
    onProgress?.({ ...progress });
  };

  const copyOne = async (key: string): Promise<void> => {
    const { skipped, bytes } = await copyKey(source, destination, key, { resume, signal });
    finish(skipped, bytes);
  };

  try {
    // Data first, metadata last (see above); each phase with bounded concurrency.
    await mapConcurrent(keys.filter((k) => !isMetadataKey(k)), concurrency, copyOne, { signal });
    await mapConcurrent(keys.filter(isMetadataKey), concurrency, copyOne, { signal });
  } catch (error) {
    if (signal?.aborted) {
      throw new ZarrError("ABORTED", `The copy was aborted after ${progress.done} of ${progress.total} keys`, { cause: error });
    }
    throw error;
  }
  return { total: progress.total, copied: progress.done - progress.skipped, skipped: progress.skipped, bytes: progress.bytes };
}

/**
 * Copies one key from `source` to `destination` (one atomic `set`). With `resume`, skips it
 * when the destination already holds a value of the same size: from `getSize` on both
 * stores when they have it, else the source value's length against the destination's.
 */
export async function copyKey(
  source: Store,
  destination: Store,
  key: string,
  options: { resume: boolean; signal?: AbortSignal },
): Promise<{ skipped: boolean; bytes: number }> {
  const { resume, signal } = options;
  throwIfAborted(signal);
  const sizesFirst = resume && typeof source.getSize === "function" && typeof destination.getSize === "function";
  if (sizesFirst) {
    const [have, want] = await Promise.all([
      read(() => (destination as Required<ReadableStore>).getSize(key, { signal }), key, "destination"),
      read(() => (source as Required<ReadableStore>).getSize(key, { signal }), key, "source"),
    ]);
    if (want !== undefined && have === want) return { skipped: true, bytes: 0 };
  }
  const value = await read(() => source.get(key, { signal }), key, "source");
  if (value === undefined) {
    throw new ZarrError("STORE_FAILED", `Copying "${key}": the source listed it but has no value (changed during the copy?)`, { key });
  }
  if (resume && !sizesFirst) {
    const have = await read(() => sizeOf(destination, key, signal), key, "destination");
    if (have === value.length) return { skipped: true, bytes: 0 };
  }
  throwIfAborted(signal); // never start a write once cancelled
  try {
    await (destination as WritableStore).set(key, value, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Copying "${key}": writing the destination failed`, key);
  }
  return { skipped: false, bytes: value.length };
}

async function read<T>(fn: () => Promise<T>, key: string, which: "source" | "destination"): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Copying "${key}": reading the ${which} failed`, key);
  }
}
