/**
 * The opt-in lock of `set(…, { lock: true })`: each chunk (or shard) write holds the key
 * in this process first (a `KeyMutex` per store), then in the store (`store.lock`, e.g. a
 * lock file), so a read-modify-write never interleaves with another locked one.
 */
import { asZarrError, type Store, supportsLocks, ZarrError } from "@zarr/spec";
import { KeyMutex } from "./key-mutex.js";

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

/** Runs one chunk write while holding its key. */
export type ChunkLocker = <T>(key: string, write: () => Promise<T>) => Promise<T>;

/**
 * The locker for writes of the array at `path` to `store`. Throws `UNSUPPORTED` before
 * anything is written when the store cannot lock keys (a lock of this process alone
 * would silently not protect against other writers).
 */
export function chunkLocker(store: Store, path: string, signal: AbortSignal | undefined): ChunkLocker {
  if (!supportsLocks(store)) {
    throw new ZarrError(
      "UNSUPPORTED",
      `Cannot write array "${path}" with lock: true: the store cannot lock keys (it has no lock method)`,
    );
  }
  const mutex = processMutex(store);
  return async (key, write) => {
    const releaseHere = await mutex.acquire(key, signal);
    try {
      let held: Awaited<ReturnType<typeof store.lock>>;
      try {
        held = await store.lock(key, { signal });
      } catch (error) {
        throw asZarrError(error, "STORE_FAILED", `Could not lock "${key}"`, key);
      }
      try {
        return await write();
      } finally {
        await held.release();
      }
    } finally {
      releaseHere();
    }
  };
}
