/**
 * The read a worker thread makes itself (`FileSystemStore.workerRead`): blocking calls,
 * because a worker has nothing else to do meanwhile, and no hand-off to libuv's thread
 * pool or back. The bytes go into the worker's spare buffer when they fit, so a pool
 * reading many chunks allocates (and page-faults) no input buffer per chunk.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { asZarrError, type ZarrError } from "@zarr/spec";
import { allocExact, isNotAFile, READ_FLAGS } from "./fs-calls.js";

/**
 * Reads the whole file at `path` (the value of `key`): a view of `spare` when the file
 * fits, else a buffer of its own; `undefined` when there is no regular file there. A file
 * truncated by someone else while it is read gives what exists, as `get` does.
 */
export function readWhole(spare: Uint8Array, path: string, key: string, root: string): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if (isNotAFile(error)) return undefined;
    throw failed(error, key, root);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const size = stats.size;
    const into = size <= spare.length ? spare.subarray(0, size) : allocExact(size);
    let done = 0;
    while (done < size) {
      const n = readSync(fd, into, done, size - done, done);
      if (n === 0) break;
      done += n;
    }
    return done === size ? into : into.subarray(0, done);
  } catch (error) {
    if (isNotAFile(error)) return undefined;
    throw failed(error, key, root);
  } finally {
    // A read-only descriptor has nothing to flush: a close error cannot lose data.
    try {
      closeSync(fd);
    } catch {}
  }
}

/** The same error `FileSystemStore.get` gives. */
function failed(error: unknown, key: string, root: string): ZarrError {
  return asZarrError(error, "STORE_FAILED", `Failed to read key ${JSON.stringify(key)} in ${root}`, key);
}
