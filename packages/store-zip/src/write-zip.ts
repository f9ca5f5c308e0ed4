/** `writeZip`: every key of a store into one zip archive, written to another store with one `set`. */
import {
  asZarrError,
  type ListableStore,
  type ReadableStore,
  type StoreRequestOptions,
  throwIfAborted,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";
import { type ZipSummary, ZipWriter, type ZipWriterOptions } from "./zip-writer.js";

/** Progress of {@link writeZip}: keys written out of all keys. */
export interface ZipProgress {
  done: number;
  total: number;
}

/** Options of {@link writeZip}. */
export interface WriteZipOptions extends ZipWriterOptions {
  /** Cancels the operation (rejects with `ABORTED`; nothing is written to the target). */
  signal?: AbortSignal;
  /** Called after each key is added. */
  onProgress?: (progress: ZipProgress) => void;
}

const METADATA_NAMES = new Set(["zarr.json", ".zgroup", ".zarray", ".zattrs", ".zmetadata"]);

function isMetadata(key: string): boolean {
  return METADATA_NAMES.has(key.slice(key.lastIndexOf("/") + 1));
}

/**
 * The keys of `source` in archive order: metadata documents first (sorted), then every
 * other key (sorted), so a reader streaming the archive meets the hierarchy first.
 */
export async function archiveKeys(source: ListableStore, options: StoreRequestOptions = {}): Promise<string[]> {
  const keys: string[] = [];
  try {
    for await (const key of source.list(options)) keys.push(key);
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", "Listing the store to zip failed");
  }
  const meta = keys.filter(isMetadata).sort();
  const rest = keys.filter((k) => !isMetadata(k)).sort();
  return [...meta, ...rest];
}

/**
 * Adds every key of `source` (except `exclude`) to `writer`, one value at a time, then
 * finishes the archive.
 */
export async function zipStoreInto(
  source: ListableStore & ReadableStore,
  writer: ZipWriter,
  options: WriteZipOptions & { exclude?: string } = {},
): Promise<ZipSummary> {
  const { signal, onProgress, exclude } = options;
  const keys = (await archiveKeys(source, { signal })).filter((k) => k !== exclude);
  let done = 0;
  for (const key of keys) {
    throwIfAborted(signal);
    let value: Uint8Array | undefined;
    try {
      value = await source.get(key, { signal });
    } catch (error) {
      throw asZarrError(error, "STORE_FAILED", `Reading "${key}" to zip failed`, key);
    }
    if (value === undefined) {
      throw new ZarrError("STORE_FAILED", `Key "${key}" was listed but has no value (changed while zipping?)`, { key });
    }
    await writer.add(key, value);
    done++;
    onProgress?.({ done, total: keys.length });
  }
  throwIfAborted(signal);
  return writer.finish();
}

/**
 * Zips every key of `source` into one archive and stores it under `key` in `target`,
 * with a single `set` at the end (a reader never sees half an archive). Entries are
 * STORED by default, so a `ZipStore` can read byte ranges of them (partial reads of
 * shards); `compression: "deflate"` shrinks them instead.
 *
 * Memory: the archive is assembled in memory, so this needs about twice the archive's
 * size at its peak (the values read plus the one contiguous archive handed to `set`).
 * For large stores use `writeZipFile` from `@zarr/store-zip/node`, which streams to a file.
 *
 * @example
 * ```ts
 * const { entries, size } = await writeZip(new FileSystemStore("data.zarr"), new FileSystemStore("."), "data.zarr.zip");
 * ```
 */
export async function writeZip(
  source: ListableStore & ReadableStore,
  target: WritableStore,
  key: string,
  options: WriteZipOptions = {},
): Promise<ZipSummary> {
  if (source === null || typeof source !== "object" || typeof source.list !== "function") {
    throw new ZarrError("INVALID_ARGUMENT", "writeZip needs a listable, readable source store");
  }
  if (target === null || typeof target !== "object" || typeof target.set !== "function") {
    throw new ZarrError("INVALID_ARGUMENT", "writeZip needs a writable target store");
  }
  const chunks: Uint8Array[] = [];
  const writer = new ZipWriter({ write: (chunk) => void chunks.push(chunk) }, options);
  // Zipping a store into itself must not include the archive being replaced.
  const exclude = (source as unknown) === target ? key : undefined;
  const summary = await zipStoreInto(source, writer, { ...options, exclude });
  const archive = new Uint8Array(summary.size);
  let at = 0;
  for (let i = 0; i < chunks.length; i++) {
    archive.set(chunks[i], at);
    at += chunks[i].length;
  }
  chunks.length = 0;
  throwIfAborted(options.signal);
  try {
    await target.set(key, archive, { signal: options.signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Writing zip archive "${key}" failed`, key);
  }
  return summary;
}
