/**
 * What object stores without a batch delete (Azure Blob Storage, the GCS XML API) build
 * the same way on their own listing and delete: `deletePrefix` (list, then delete) and
 * `list` (everything under `""`).
 */
import { type StoreRequestOptions, validatePrefix } from "@zarr/spec";
import { deleteListed } from "./listing-request.js";

/** How many deletes `deletePrefix` keeps in flight. */
const DELETE_CONCURRENCY = 8;

/**
 * The base of an object store whose `deletePrefix` and `list` are its own `listPrefix`
 * and `delete`: subclasses implement those two and `assertWritable`.
 *
 * @example
 * ```ts
 * class BucketStore extends ListingObjectStore {
 *   async *listPrefix(prefix) { yield* listBucket(prefix); }
 *   async delete(key) { await deleteObject(key); }
 *   protected assertWritable(key) { if (this.readOnly) throw new ZarrError("STORE_READ_ONLY", `Cannot modify ${key}`); }
 * }
 * ```
 */
export abstract class ListingObjectStore {
  /** Every key starting with the string `prefix`. */
  abstract listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string>;
  /** Deletes `key`; a missing key is fine. */
  abstract delete(key: string, options?: StoreRequestOptions): Promise<void>;
  /** Throws `STORE_READ_ONLY` naming `key` when the store may not be modified. */
  protected abstract assertWritable(key: string): void;

  /** Deletes every key under `prefix` (`""` or ending in `/`): lists them, then deletes them, 8 at a time. */
  async deletePrefix(prefix: string, options?: StoreRequestOptions): Promise<void> {
    this.assertWritable(prefix);
    validatePrefix(prefix);
    await deleteListed(this, prefix, options, DELETE_CONCURRENCY);
  }

  /** Every key of the store. */
  list(options?: StoreRequestOptions): AsyncIterable<string> {
    return this.listPrefix("", options);
  }
}
