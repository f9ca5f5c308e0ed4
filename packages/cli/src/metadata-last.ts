/**
 * Writing an array's metadata last. `createArray` writes the metadata document first; a
 * process killed while the chunks were being written then left an array whose missing
 * chunks read as the fill value, with no error. Created through a `MetadataLastStore`,
 * the array's metadata documents (`zarr.json`, or `.zarray` and `.zattrs`) are held in
 * memory while everything else (chunks, parent groups) goes to the store; `flush` writes
 * them once every chunk is in place. Until then no reader, ours or zarr-python, sees an
 * array at that path.
 */
import {
  type ByteRange,
  type DirListing,
  type ListableStore,
  type ReadableStore,
  resolveByteRange,
  type Store,
  type StoreRequestOptions,
  type WritableStore,
} from "@zarr/spec";

/** Metadata documents of a node, in the order `flush` writes them (the one that makes it a node last). */
const METADATA_NAMES = [".zattrs", "zarr.json", ".zarray"];

/** Options of {@link MetadataLastStore}. */
export interface MetadataLastOptions {
  /**
   * Resuming: a value whose key already holds exactly the same bytes is not written again
   * (values are written whole by atomic renames, so an existing chunk equal to the one
   * computed from the same source is complete).
   */
  skipUnchanged?: boolean;
  /**
   * Resuming: listings under the node's prefix come back empty, so creating the array
   * again over its own earlier chunks does not find "a node already there".
   */
  hideExistingKeys?: boolean;
}

/** A store wrapper that holds the metadata documents of one node until {@link flush}. */
export class MetadataLastStore implements ReadableStore, WritableStore, ListableStore {
  readonly #store: Store & Partial<WritableStore & ListableStore>;
  readonly #held = new Map<string, Uint8Array>();
  readonly #heldKeys: Set<string>;
  readonly #skipUnchanged: boolean;
  readonly #hiddenPrefix: string | undefined;
  /** Values `set` found already in place (with `skipUnchanged`). */
  skipped = 0;
  /** Values `set` wrote. */
  written = 0;

  /** @param path The node whose metadata is held (`""` for the root). */
  constructor(store: Store, path: string, options: MetadataLastOptions = {}) {
    this.#store = store;
    const prefix = path === "" ? "" : `${path}/`;
    this.#heldKeys = new Set(METADATA_NAMES.map((name) => prefix + name));
    this.#skipUnchanged = options.skipUnchanged ?? false;
    this.#hiddenPrefix = options.hideExistingKeys ? prefix : undefined;
  }

  /** The documents held so far, by key. */
  held(): ReadonlyMap<string, Uint8Array> {
    return this.#held;
  }

  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    if (this.#heldKeys.has(key)) return this.#held.get(key);
    return this.#store.get(key, options);
  }

  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const whole = this.#heldKeys.has(key) || this.#store.getRange === undefined;
    if (!whole) return (this.#store.getRange as NonNullable<ReadableStore["getRange"]>)(key, range, options);
    const value = await this.get(key, options);
    if (value === undefined) return undefined;
    const [start, end] = resolveByteRange(range, value.length);
    return value.slice(start, end);
  }

  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    if (this.#heldKeys.has(key)) return this.#held.get(key)?.length;
    if (this.#store.getSize !== undefined) return this.#store.getSize(key, options);
    return (await this.#store.get(key, options))?.length;
  }

  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    if (this.#heldKeys.has(key)) {
      this.#held.set(key, value);
      return;
    }
    if (this.#skipUnchanged && sameBytes(await this.#store.get(key, options), value)) {
      this.skipped++;
      return;
    }
    await (this.#store as WritableStore).set(key, value, options);
    this.written++;
  }

  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    this.#held.delete(key);
    await (this.#store as WritableStore).delete(key, options);
  }

  async deletePrefix(prefix: string, options?: StoreRequestOptions): Promise<void> {
    for (const key of this.#held.keys()) if (key.startsWith(prefix)) this.#held.delete(key);
    const store = this.#store as WritableStore;
    if (store.deletePrefix === undefined) throw new Error("MetadataLastStore: the store cannot delete prefixes");
    await store.deletePrefix(prefix, options);
  }

  list(options?: StoreRequestOptions): AsyncIterable<string> {
    return (this.#store as ListableStore).list(options);
  }

  listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    const hidden = this.#hiddenPrefix;
    if (hidden !== undefined && prefix.startsWith(hidden)) return (async function* () {})();
    return (this.#store as ListableStore).listPrefix(prefix, options);
  }

  listDir(prefix: string, options?: StoreRequestOptions): Promise<DirListing> {
    return (this.#store as ListableStore).listDir(prefix, options);
  }

  /** Writes the held documents to the store, the one that makes the node visible last. */
  async flush(options?: StoreRequestOptions): Promise<void> {
    for (const key of [...this.#heldKeys]) {
      const value = this.#held.get(key);
      if (value !== undefined) await (this.#store as WritableStore).set(key, value, options);
    }
  }
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (a === undefined || a.length !== b.length) return false;
  return Buffer.compare(a, b) === 0;
}
