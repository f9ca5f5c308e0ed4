/**
 * One optimistic read-modify-write of one key, for stores that write conditionally
 * (`setIfVersion`) instead of locking: a view of the store whose reads of that key all come
 * from the version the first one saw, and whose write of it succeeds only if the key still
 * has that version (or is still absent). Any change in between rejects with
 * `STORE_CHANGED`, and the caller retries the whole read-modify-write.
 */
import {
  type ByteRange,
  type ReadableStore,
  type Store,
  type StoreRequestOptions,
  storeChanged,
  type VersionedBytes,
  type VersionedReadOptions,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";

/** A store that reads versions and writes conditionally. */
export type ConditionalStore = Store &
  Required<Pick<ReadableStore, "getVersioned">> &
  Required<Pick<WritableStore, "setIfVersion" | "set" | "delete">>;

/** What the view has seen of the key: nothing yet, or the version it read (`null`: absent). */
type Seen = { read: false } | { read: true; version: string | null };

const ABSENT = "(absent)";

/**
 * The view of `store` for one read-modify-write of `key`. Other keys pass straight
 * through. Without reads of `key` (a whole-chunk write) its write is unconditional: a blind
 * overwrite, ordered like any other write.
 */
export function pinnedStore(store: ConditionalStore, key: string): Store {
  let seen: Seen = { read: false };
  const versioned = async (range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> => {
    const pinned = seen.read ? seen.version : undefined;
    const ifVersion = options?.ifVersion ?? pinned ?? undefined;
    const got = await store.getVersioned(key, range, { signal: options?.signal, ifVersion });
    if (got === undefined) {
      if (seen.read && seen.version !== null) throw storeChanged(key, seen.version, ABSENT);
      seen = { read: true, version: null };
      return undefined;
    }
    if (got.version === undefined) {
      throw new ZarrError("UNSUPPORTED", `Cannot write "${key}" conditionally: the store gave no version (ETag) for it`, { key });
    }
    if (seen.read && seen.version === null) throw storeChanged(key, ABSENT, got.version);
    if (!seen.read) seen = { read: true, version: got.version };
    return got;
  };
  const view: Store = {
    async get(k: string, options?: StoreRequestOptions) {
      if (k !== key) return store.get(k, options);
      return (await versioned(undefined, options))?.bytes;
    },
    async getRange(k: string, range: ByteRange, options?: StoreRequestOptions) {
      if (k !== key) return (store.getRange as NonNullable<Store["getRange"]>).call(store, k, range, options);
      return (await versioned(range, options))?.bytes;
    },
    async getVersioned(k: string, range: ByteRange | undefined, options?: VersionedReadOptions) {
      if (k !== key) return store.getVersioned(k, range, options);
      return versioned(range, options);
    },
    async set(k: string, value: Uint8Array, options?: StoreRequestOptions) {
      if (k !== key || !seen.read) return store.set(k, value, options);
      return store.setIfVersion(k, value, seen.version, options);
    },
    delete: (k: string, options?: StoreRequestOptions) => store.delete(k, options),
  };
  // Without ranges in the store, the view reads whole values too.
  if (store.getRange === undefined) delete view.getRange;
  return view;
}
