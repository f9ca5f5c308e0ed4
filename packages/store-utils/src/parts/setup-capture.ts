/**
 * `SetupCapture`: a target store seen through an in-memory layer that holds a job's setup
 * writes (metadata documents and other small objects). While capturing, writes and
 * deletes stay in memory and reads see them first, so a job can create its arrays without
 * touching the target; once sealed, writes go through to the target (the units' chunks)
 * while reads still see the captured setup.
 */
import {
  addToDirListing,
  type ByteRange,
  type DirListing,
  isListable,
  isWritable,
  type ListDirOptions,
  type ReadableStore,
  type Store,
  type StoreRequestOptions,
  ZarrError,
} from "@zarr/spec";

export class SetupCapture implements ReadableStore {
  /** Setup objects written while capturing, by key. */
  readonly captured = new Map<string, Uint8Array>();
  /** Keys and prefixes (ending in `/`) the setup deleted: hidden from reads while capturing. */
  readonly #hidden = new Set<string>();
  #sealed = false;
  readonly #target: Store;

  constructor(target: Store) {
    this.#target = target;
    if (typeof target.getSize === "function") this.getSize = (key, options) => this.#sizeOf(key, options);
    if (typeof target.getRange === "function") this.getRange = (key, range, options) => this.#range(key, range, options);
    if (isListable(target)) {
      this.list = (options) => this.#listPrefix("", options);
      this.listPrefix = (prefix, options) => this.#listPrefix(prefix, options);
      this.listDir = (prefix, options) => this.#listDir(prefix, options);
    }
  }

  /** Ends the setup: from now on writes go to the target. */
  seal(): void {
    this.#sealed = true;
  }

  getSize?: (key: string, options?: StoreRequestOptions) => Promise<number | undefined>;
  getRange?: (key: string, range: ByteRange, options?: StoreRequestOptions) => Promise<Uint8Array | undefined>;
  list?: (options?: StoreRequestOptions) => AsyncIterable<string>;
  listPrefix?: (prefix: string, options?: StoreRequestOptions) => AsyncIterable<string>;
  listDir?: (prefix: string, options?: ListDirOptions) => Promise<DirListing>;

  #isHidden(key: string): boolean {
    if (this.#sealed || this.#hidden.size === 0) return false;
    if (this.#hidden.has(key)) return true;
    for (let cut = key.lastIndexOf("/"); cut >= 0; cut = key.lastIndexOf("/", cut - 1)) {
      if (this.#hidden.has(key.slice(0, cut + 1))) return true;
    }
    return this.#hidden.has("");
  }

  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const own = this.captured.get(key);
    if (own !== undefined) return own;
    return this.#isHidden(key) ? undefined : this.#target.get(key, options);
  }

  async #sizeOf(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    const own = this.captured.get(key);
    if (own !== undefined) return own.length;
    return this.#isHidden(key) ? undefined : (this.#target.getSize as NonNullable<Store["getSize"]>)(key, options);
  }

  async #range(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const own = this.captured.get(key);
    if (own !== undefined) {
      if ("suffixLength" in range) return own.subarray(Math.max(0, own.length - range.suffixLength));
      return own.subarray(range.offset, range.length === undefined ? undefined : range.offset + range.length);
    }
    return this.#isHidden(key) ? undefined : (this.#target.getRange as NonNullable<Store["getRange"]>)(key, range, options);
  }

  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    if (!this.#sealed) {
      this.captured.set(key, value.slice());
      return;
    }
    if (this.captured.has(key)) {
      throw new ZarrError("INVALID_ARGUMENT", `A unit of the job writes "${key}", which the job's setup writes too`, { key });
    }
    await this.#writable().set(key, value, options);
  }

  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    if (!this.#sealed) {
      this.captured.delete(key);
      this.#hidden.add(key);
      return;
    }
    await this.#writable().delete(key, options);
  }

  async deletePrefix(prefix: string, options?: StoreRequestOptions): Promise<void> {
    if (!this.#sealed) {
      for (const key of [...this.captured.keys()]) if (key.startsWith(prefix)) this.captured.delete(key);
      this.#hidden.add(prefix);
      return;
    }
    const target = this.#writable();
    if (typeof target.deletePrefix !== "function") {
      throw new ZarrError("UNSUPPORTED", `The target store cannot delete the prefix "${prefix}"`, { key: prefix });
    }
    await target.deletePrefix(prefix, options);
  }

  #writable() {
    if (!isWritable(this.#target)) throw new ZarrError("STORE_READ_ONLY", "The job's target store is read-only");
    return this.#target;
  }

  async *#listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    const seen = new Set<string>();
    for (const key of this.captured.keys()) {
      if (key.startsWith(prefix)) {
        seen.add(key);
        yield key;
      }
    }
    const target = this.#target as Required<Pick<Store, "listPrefix">>;
    for await (const key of target.listPrefix(prefix, options)) if (!seen.has(key) && !this.#isHidden(key)) yield key;
  }

  async #listDir(prefix: string, options?: ListDirOptions): Promise<DirListing> {
    const target = this.#target as Required<Pick<Store, "listDir">>;
    const listed = await target.listDir(prefix, options);
    const keys = new Set(listed.keys.filter((k) => !this.#isHidden(prefix + k)));
    const prefixes = new Set(listed.prefixes.filter((p) => !this.#isHidden(`${prefix}${p}/`)));
    for (const key of this.captured.keys()) {
      if (key.startsWith(prefix)) addToDirListing(key.slice(prefix.length), keys, prefixes);
    }
    return { keys: [...keys], prefixes: [...prefixes] };
  }
}
