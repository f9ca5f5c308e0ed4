/** A reference set as a read-only, listable Zarr store. */
import {
  addToDirListing,
  type ByteRange,
  type DirListing,
  type ListableStore,
  type RangeBatchOptions,
  type ReadableStore,
  resolveByteRange,
  type StoreRequestOptions,
  throwIfAborted,
  ZarrError,
} from "@zarr/spec";
import type { Reference } from "./reference-table.js";
import { type OpenTarget, Targets } from "./targets.js";

/** Options of a {@link ReferenceStore}. */
export interface ReferenceStoreOptions {
  /**
   * Opens the store of a target's folder (`s3://bucket/dir`, `https://host/dir`, `/data`):
   * with @zarr/core, `(location) => openStore(location, { registry })`.
   */
  openTarget: OpenTarget;
  /** The folder relative target paths are relative to (the reference document's). */
  base?: string;
  /**
   * Range reads of one target file asked for together (chunks of one array read by one
   * `get`) are merged when at most `gap` bytes apart (default 64 KiB), up to `maxBytes` per
   * read (default 16 MiB). `false`: one read per reference.
   */
  coalesce?: RangeBatchOptions | false;
}

/** Where a store keeps its references: a table in memory, or pages loaded on demand (Parquet). */
export interface ReferenceSource {
  /** The reference of `key`, or `undefined` when the set has none. */
  lookup(key: string, signal?: AbortSignal): Reference | undefined | Promise<Reference | undefined>;
  /** Every key the set holds. */
  keys(signal?: AbortSignal): AsyncIterable<string>;
}

/** A `Map` of references as a {@link ReferenceSource}. */
export function tableSource(table: ReadonlyMap<string, Reference>): ReferenceSource {
  return {
    lookup: (key) => table.get(key),
    async *keys() {
      yield* table.keys();
    },
  };
}

/**
 * A kerchunk / VirtualiZarr reference set as a read-only store: each key's bytes come from
 * the document itself (inline) or from a byte range of a target file, read through the
 * target's own store. Open it with `openReferences`; `get` of a missing key is `undefined`
 * (a chunk left out of the set reads as the fill value).
 *
 * @example
 * ```ts
 * const store = new ReferenceStore(tableSource(parseReferenceDocument(doc)), { openTarget: (folder) => new FileSystemStore(folder) });
 * const zarray = await store.get("temperature/.zarray");
 * ```
 */
export class ReferenceStore implements ReadableStore, ListableStore {
  readonly #source: ReferenceSource;
  readonly #targets: Targets;

  constructor(source: ReferenceSource, options: ReferenceStoreOptions) {
    if (typeof options?.openTarget !== "function") {
      throw new ZarrError("INVALID_ARGUMENT", "ReferenceStore needs options.openTarget to open the stores its references point into");
    }
    this.#source = source;
    this.#targets = new Targets(options.openTarget, options.base, options.coalesce ?? {});
  }

  /** The bytes of `key`, or `undefined` when the set has no reference for it. */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const ref = await this.#source.lookup(key, options?.signal);
    if (ref === undefined) return undefined;
    if (ref.kind === "inline") return ref.bytes.slice();
    return this.#read(key, ref, ref.kind === "range" ? { offset: ref.offset, length: ref.length } : undefined, options?.signal);
  }

  /** Bytes of `key` (clamped like `resolveByteRange`), or `undefined` when the set has no reference for it. */
  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const ref = await this.#source.lookup(key, options?.signal);
    if (ref === undefined) return undefined;
    if (ref.kind === "inline") {
      const [from, to] = resolveByteRange(range, ref.bytes.length);
      return ref.bytes.slice(from, to);
    }
    if (ref.kind === "whole") return this.#read(key, ref, range, options?.signal);
    const [from, to] = resolveByteRange(range, ref.length);
    return this.#read(key, ref, { offset: ref.offset + from, length: to - from }, options?.signal);
  }

  /** The size of `key`'s value, or `undefined` when the set has no reference for it. */
  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    const ref = await this.#source.lookup(key, options?.signal);
    if (ref === undefined) return undefined;
    if (ref.kind === "inline") return ref.bytes.length;
    if (ref.kind === "range") return ref.length;
    const { store, key: file } = await this.#targets.resolve(ref.url);
    const size = store.getSize !== undefined ? await store.getSize(file, options) : (await store.get(file, options))?.length;
    if (size === undefined) throw missingTarget(key, ref.url);
    return size;
  }

  /** Every key of the set. */
  async *list(options?: StoreRequestOptions): AsyncIterable<string> {
    yield* this.#source.keys(options?.signal);
  }

  /** Every key of the set starting with `prefix`. */
  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    for await (const key of this.#source.keys(options?.signal)) if (key.startsWith(prefix)) yield key;
  }

  /** The keys and child prefixes directly under `prefix`. */
  async listDir(prefix: string, options?: StoreRequestOptions): Promise<DirListing> {
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for await (const key of this.listPrefix(prefix, options)) addToDirListing(key.slice(prefix.length), keys, prefixes);
    return { keys: [...keys], prefixes: [...prefixes] };
  }

  /** Reads `range` of a target (the whole file without one), checking a range reference got all its bytes. */
  async #read(key: string, ref: Exclude<Reference, { kind: "inline" }>, range: ByteRange | undefined, signal?: AbortSignal): Promise<Uint8Array> {
    throwIfAborted(signal);
    let target: Awaited<ReturnType<Targets["resolve"]>>;
    try {
      target = await this.#targets.resolve(ref.url);
    } catch (error) {
      if (error instanceof ZarrError) throw error;
      throw new ZarrError("STORE_FAILED", `Cannot open the store of ${JSON.stringify(ref.url)} (the target of reference "${key}"): ${(error as Error).message}`, {
        key,
        cause: error,
      });
    }
    const { store, batcher, key: file } = target;
    let bytes: Uint8Array | undefined;
    if (range === undefined) bytes = await store.get(file, { signal });
    else if (batcher !== undefined && "offset" in range && range.length !== undefined) bytes = (await batcher.read(file, range.offset, range.length, undefined, signal))?.bytes;
    else if (store.getRange !== undefined) bytes = await store.getRange(file, range, { signal });
    else {
      const whole = await store.get(file, { signal });
      if (whole !== undefined) {
        const [from, to] = resolveByteRange(range, whole.length);
        bytes = whole.subarray(from, to);
      }
    }
    if (bytes === undefined) throw missingTarget(key, ref.url);
    if (ref.kind === "range" && range !== undefined && "offset" in range && range.length !== undefined && bytes.length < range.length) {
      throw new ZarrError(
        "STORE_FAILED",
        `Reference "${key}" reaches past the end of ${JSON.stringify(ref.url)}: bytes ${range.offset}–${range.offset + range.length} asked for, ${bytes.length} there`,
        { key },
      );
    }
    return bytes;
  }
}

function missingTarget(key: string, url: string): ZarrError {
  return new ZarrError("STORE_FAILED", `Reference "${key}" points into ${JSON.stringify(url)}, which does not exist`, { key });
}
