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

/** Reads touching fewer chunks ask for each: listing would cost about as much as it saves. */
export const LISTING_MIN_TASKS = 8192;

/**
 * The most keys a listing may hold (a few MiB of strings); a prefix holding more is read key
 * by key. Also at most twice the read's chunks, so a small read of a large, full array does
 * not pay for listing all of it.
 */
export const MAX_LISTED_KEYS = 1 << 17;

/** Reads one chunk: `false` when it is not stored. */
export type ChunkRead = (task: ChunkReadTask) => boolean | Promise<boolean>;

/**
 * `read`, answering chunks the store does not list as missing, when `array`'s store can list
 * cheaply and the operation runs at least {@link LISTING_MIN_TASKS} reads; else `read` itself.
 * The listing is taken with the first read. Should it fail or be incomplete, every chunk is
 * read as before (the reads report any real problem, naming their key).
 */
export function skippingUnlisted(array: ZarrArray, read: ChunkRead, tasks: number, signal: AbortSignal | undefined): ChunkRead {
  const store: Store = array.chunkStore;
  if (store.listStoredKeys === undefined || tasks < LISTING_MIN_TASKS) return read;
  const prefix = chunkKeysPrefix(array);
  const limit = Math.min(MAX_LISTED_KEYS, 2 * tasks);
  let listed: Set<string> | undefined;
  let listing: Promise<void> | undefined;
  let settled = false;
  const decide = (task: ChunkReadTask): boolean | Promise<boolean> =>
    listed !== undefined && task.key.startsWith(prefix) && !listed.has(task.key) ? false : read(task);
  return (task) => {
    if (settled) return decide(task);
    listing ??= (store.listStoredKeys as NonNullable<Store["listStoredKeys"]>)
      .call(store, prefix, limit, { signal })
      .then(
        (keys) => {
          listed = keys === undefined ? undefined : new Set(keys);
        },
        () => {}, // read key by key
      )
      .finally(() => {
        settled = true;
      });
    return listing.then(() => decide(task));
  };
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
