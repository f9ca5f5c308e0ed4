/**
 * The opt-in lock of `set(…, { lock: true })`. Each chunk (or shard) write holds the key
 * in this process first (a `KeyMutex` per store, so concurrent `set` calls queue per chunk),
 * then across writers in one of two ways, whichever the store offers:
 *
 * - a lock (`store.lock`, e.g. a lock file of a directory store), held around the write;
 * - conditional writes (`getVersioned` + `setIfVersion`, e.g. S3 `If-Match`): the write
 *   goes through a view pinned to the version it read, and the whole read-modify-write is
 *   retried when another writer got in between (`STORE_CHANGED`).
 */
import {
  asZarrError,
  type Store,
  type StoreLock,
  supportsConditionalWrites,
  supportsLocks,
  ZarrError,
} from "@zarr/spec";
import { invalidateChunkCaches } from "./chunk-cache.js";
import { KeyMutex } from "./key-mutex.js";
import { type ConditionalStore, pinnedStore } from "./pinned-store.js";

/** Attempts of one optimistic read-modify-write before giving up with `STORE_CHANGED`. */
export const MAX_CONDITIONAL_ATTEMPTS = 100;

const processMutexes = new WeakMap<object, KeyMutex>();

/** The in-process mutex of `store` (one per store object, shared by every array on it). */
function processMutex(store: Store): KeyMutex {
  let mutex = processMutexes.get(store);
  if (mutex === undefined) {
    mutex = new KeyMutex();
    processMutexes.set(store, mutex);
  }
  return mutex;
}

/**
 * Runs one chunk write while holding its key. `write` gets the store to write through:
 * `undefined` for the array's own store, or a view of it that it must read and write the
 * chunk through (and may be called again with a fresh view, from the start).
 */
export type ChunkLocker = <T>(key: string, write: (through: Store | undefined) => Promise<T>) => Promise<T>;

/**
 * The locker for writes of the array at `path` to `store`. Throws `UNSUPPORTED` before
 * anything is written when the store can neither lock keys nor write conditionally (a
 * lock of this process alone would silently not protect against other writers).
 */
export function chunkLocker(store: Store, path: string, signal: AbortSignal | undefined): ChunkLocker {
  const mutex = processMutex(store);
  if (supportsLocks(store)) {
    return async (key, write) => {
      const releaseHere = await mutex.acquire(key, signal);
      try {
        let held: StoreLock;
        try {
          held = await store.lock(key, { signal });
        } catch (error) {
          throw asZarrError(error, "STORE_FAILED", `Could not lock "${key}"`, key);
        }
        try {
          return await write(undefined);
        } finally {
          await held.release();
        }
      } finally {
        releaseHere();
      }
    };
  }
  if (supportsConditionalWrites(store) && typeof store.delete === "function") {
    const conditional = store as ConditionalStore;
    return async (key, write) => {
      const releaseHere = await mutex.acquire(key, signal);
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            return await write(pinnedStore(conditional, key));
          } catch (error) {
            const changed = error instanceof ZarrError && error.code === "STORE_CHANGED";
            if (!changed || attempt >= MAX_CONDITIONAL_ATTEMPTS) throw error;
            // Another writer got in: back off a little (randomly, so two do not collide again).
            await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, 50)));
          } finally {
            // Writes through the view did not drop the chunk from caches of the real store.
            invalidateChunkCaches(store, key);
          }
        }
      } finally {
        releaseHere();
      }
    };
  }
  throw new ZarrError(
    "UNSUPPORTED",
    `Cannot write array "${path}" with lock: true: the store can neither lock keys (lock) nor write conditionally (getVersioned and setIfVersion)`,
  );
}
