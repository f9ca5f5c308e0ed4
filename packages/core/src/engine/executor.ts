/**
 * The one executor: every chunk task of a `get` or `set` runs here, on the calling thread or in a
 * worker pool. Which one is decided per chunk from what the codec entries declare
 * (`CodecEntry.worker`, `lightweight`) and the chunk's size; the task itself, reading a
 * chunk and decoding it into the caller's result, is the same code in both places
 * (`readChunk`, and `worker-task.ts` around it).
 */
import type { CodecCallContext, WorkerPool } from "@zarr/spec";
import type { ChunkCache } from "../chunk-cache.js";
import type { DecodeWhole } from "./cached-read.js";
import { checkChunkFits } from "../limits.js";
import type { ZarrArray } from "../nodes.js";
import type { ChunkEncodeTask, ChunkReadTask, Executor } from "./chunk-tasks.js";
import { storeSource } from "./store-source.js";
import type { ChunkRead } from "./stored-keys.js";

export type { ChunkEncodeTask, ChunkReadTask, Executor } from "./chunk-tasks.js";

/**
 * Reads touching fewer chunks ask for each: listing the stored ones (stored-keys.ts) would
 * cost about as much as it saves.
 */
export const LISTING_MIN_TASKS = 8192;

/** What the executor of one operation may use. */
export interface ExecutorOptions {
  workers?: WorkerPool;
  chunkCache?: ChunkCache;
  /** Read every chunk from the store, whatever cache the options or the array name. */
  bypassCache?: boolean;
  signal?: AbortSignal;
  /**
   * How many chunks the operation reads, when known (`get`): reads of very many chunks
   * may list the stored ones first and skip the rest (see stored-keys.ts).
   */
  readTasks?: number;
}

/**
 * The executor for one `get` or `set` of `array`: on the calling thread, or, when
 * `options.workers` is given, a promise of one that may send chunks to the pool (its half
 * loads then, so apps that never pass `workers` never load it). With a chunk cache too,
 * the pool decodes the cache's misses whole and the cache keeps them on this thread.
 */
export function createExecutor(array: ZarrArray, options: ExecutorOptions): Executor | Promise<Executor> {
  // Chunks are read through the array's storage transformers; caches file them under the array's own store.
  const { store: cacheStore, chunkStore: store, codecs } = array;
  const { signal, workers } = options;
  // A cache holds whole decoded chunks: chains that read shards in parts keep doing so.
  const cache = codecs.shardContainer || options.bypassCache ? undefined : (options.chunkCache ?? array.config.chunkCache);
  const { maxChunkBytes } = array.config;
  // A shard is read in parts, never whole: its inner chunks are bounded by the inner chain.
  const checkRead = async (task: ChunkReadTask): Promise<void> => {
    if (!codecs.shardContainer) await checkChunkFits(task.spec, task.key, maxChunkBytes);
  };
  const encodeLocal = (task: ChunkEncodeTask): Promise<Uint8Array> =>
    codecs.encode(task.chunk, task.spec, { key: task.key, signal });
  // Through the cache, its misses decoded by `decodeWhole` (default here; the pool executor's sends them to workers).
  const local = async (task: ChunkReadTask, decodeWhole?: DecodeWhole): Promise<boolean> => {
    // Before anything is read or allocated for it (the decoders bound themselves by the same sizes).
    await checkRead(task);
    const ctx: CodecCallContext = { key: task.key, signal };
    if (cache !== undefined) {
      // Loaded with the first cached read: apps without a chunk cache never load it.
      const { readThroughCache } = await import("./cached-read.js");
      return readThroughCache(cache, cacheStore, store, codecs, task.spec, task.target, ctx, decodeWhole);
    }
    return codecs.decodePartialInto(storeSource(store, task.key, signal), task.spec, task.target, ctx);
  };
  const tasks = options.readTasks ?? 0;
  // stored-keys.ts loads with the first read of very many chunks: plain reads never load it
  // (bundle size). Once it has listed, it is called directly (it never answers nullish), so
  // chunks it knows to be missing settle synchronously.
  let skip: ChunkRead | undefined;
  let loading: Promise<void> | undefined;
  const skipping = (read: ChunkRead): ChunkRead =>
    store.listStoredKeys === undefined || tasks < LISTING_MIN_TASKS
      ? read
      : (task) =>
          skip?.(task) ??
          (loading ??= import("./stored-keys.js").then(async (m) => {
            skip = await m.skippingUnlisted(array, read, tasks, signal);
          })).then(() => (skip as ChunkRead)(task));
  const here: Executor = { wantsSharedResult: false, read: skipping(local), encode: encodeLocal };
  if (workers === undefined) return here;
  return import("./pool-executor.js").then((m) => m.poolExecutor(array, workers, signal, { here, local, encodeLocal, checkRead, skipping, cached: cache !== undefined }));
}
