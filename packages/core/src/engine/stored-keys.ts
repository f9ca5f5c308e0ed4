/**
 * The executor's decision for reads that touch very many chunks: when the store can list
 * the keys under the chunks' common prefix cheaply (`listStoredKeys`, a local directory
 * walk), they are listed once, and a chunk not listed is answered as missing on the spot,
 * synchronously, without a system call or request. A read of millions of mostly missing
 * chunks then costs little more than filling its result.
 */
import type { Store } from "@zarr/spec";
import type { ZarrArray } from "../nodes.js";
import type { ChunkReadTask } from "./chunk-tasks.js";

/**
 * The most keys a listing may hold (a few MiB of strings); a prefix holding more is read key
 * by key. Also at most twice the read's chunks, so a small read of a large, full array does
 * not pay for listing all of it.
 */
export const MAX_LISTED_KEYS = 1 << 17;

/** Reads one chunk: `false` when it is not stored. */
export type ChunkRead = (task: ChunkReadTask) => boolean | Promise<boolean>;

/**
 * `read`, answering chunks the store does not list as missing, once the listing is taken.
 * For an `array` whose store can list cheaply (`listStoredKeys`), in an operation of `tasks`
 * reads: the executor decides that (executor.ts `LISTING_MIN_TASKS`) and loads this module
 * for it, before the first read. Should the listing fail or be incomplete, resolves to `read`
 * itself: every chunk is read as before (the reads report any real problem, naming their key).
 */
export async function skippingUnlisted(array: ZarrArray, read: ChunkRead, tasks: number, signal: AbortSignal | undefined): Promise<ChunkRead> {
  const store: Store = array.chunkStore;
  const prefix = chunkKeysPrefix(array);
  let keys: Iterable<string> | undefined;
  try {
    keys = await (store.listStoredKeys as NonNullable<Store["listStoredKeys"]>).call(store, prefix, Math.min(MAX_LISTED_KEYS, 2 * tasks), { signal });
  } catch {
    // read key by key
  }
  if (keys === undefined) return read;
  const listed = new Set(keys);
  return (task) => (task.key.startsWith(prefix) && !listed.has(task.key) ? false : read(task));
}

/**
 * The longest prefix ending in `/` (or `""`) shared by the keys of the grid's first and last
 * chunks: the directory holding the array's chunks (`temperature/c/`, or a v2 array's own
 * `temperature/`). Only keys under it are answered from the listing; others are read.
 */
export function chunkKeysPrefix(array: ZarrArray): string {
  const grid = array.chunkGrid.gridShape;
  const first = array.chunkKey(grid.map(() => 0));
  const last = array.chunkKey(grid.map((n) => Math.max(0, n - 1)));
  let n = 0;
  while (n < first.length && n < last.length && first[n] === last[n]) n++;
  return n === 0 ? "" : first.slice(0, first.lastIndexOf("/", n - 1) + 1);
}
