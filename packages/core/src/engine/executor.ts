/**
 * The one executor: every chunk task of a `get` runs here, on the calling thread or in a
 * worker pool. Which one is decided per chunk from what the codec entries declare
 * (`CodecEntry.worker`, `lightweight`) and the chunk's size; the task itself, reading a
 * chunk and decoding it into the caller's result, is the same code in both places
 * (`readChunk`, and `worker-task.ts` around it).
 */
import {
  type ChunkSpec,
  type CodecCallContext,
  type DecodeTarget,
  shapeSize,
  type Store,
  type TypedArray,
  type WorkerPool,
  type WorkerStoreRecipe,
} from "@zarr/spec";
import type { ChunkCache } from "../chunk-cache.js";
import type { ZarrArray } from "../nodes.js";
import { readThroughCache } from "./cached-read.js";
import { storeSource } from "./store-source.js";
import { ENGINE_TASK_MODULE } from "./task-name.js";
import type { WorkerArray, WorkerChunkRead } from "./worker-task.js";

/** Chunks that decode to fewer bytes than this stay on the calling thread: the trip would cost more. */
export const WORKER_MIN_BYTES = 64 * 1024;

/** By name, not URL: bundled apps register it in their worker script (`serveWorkerCalls`). */
const WORKER_TASK = ENGINE_TASK_MODULE;

/** One chunk to read: its key, its representation, and where its selected elements go. */
export interface ChunkReadTask {
  key: string;
  spec: ChunkSpec;
  target: DecodeTarget;
  /** The selection takes every element of the chunk. */
  covers: boolean;
}

/** What the executor of one operation may use. */
export interface ExecutorOptions {
  workers?: WorkerPool;
  chunkCache?: ChunkCache;
  signal?: AbortSignal;
}

/** Runs the chunk tasks of one operation on one array. */
export interface Executor {
  /**
   * True when tasks may run in workers, which can write only into memory they share with
   * the calling thread: the result should then live on a `SharedArrayBuffer`.
   */
  readonly wantsSharedResult: boolean;
  /** Reads one chunk into its target; false when the chunk is not stored (the caller fills). */
  read(task: ChunkReadTask): Promise<boolean>;
}

/** The executor for one `get` of `array`. */
export function createExecutor(array: ZarrArray, options: ExecutorOptions): Executor {
  const { store, codecs } = array;
  const signal = options.signal;
  // A cache holds whole decoded chunks: chains that read shards in parts keep doing so.
  const cache = codecs.partialReads ? undefined : (options.chunkCache ?? array.config.chunkCache);
  const pool = cache === undefined ? offloadPool(array, options.workers) : undefined;
  const local = (task: ChunkReadTask): Promise<boolean> => {
    const ctx: CodecCallContext = { key: task.key, signal };
    if (cache !== undefined) return readThroughCache(cache, store, codecs, task.spec, task.target, ctx);
    return codecs.decodePartialInto(storeSource(store, task.key, signal), task.spec, task.target, ctx);
  };
  if (pool === undefined) return { wantsSharedResult: false, read: local };
  const workerArray = describeArray(array);
  const recipe = store.workerStore?.();
  const itemBytes = array.dataType.byteSize ?? 0;
  return {
    wantsSharedResult: true,
    read(task) {
      const out = task.target.out.data;
      const shared = ArrayBuffer.isView(out) && out.buffer instanceof SharedArrayBuffer;
      if (!shared || shapeSize(task.spec.shape) * itemBytes < WORKER_MIN_BYTES) return local(task);
      // Without a store of their own, workers get the bytes from here; a shard is then read
      // whole, which pays only when the selection needs all of it.
      if (recipe === undefined && codecs.partialReads && !task.covers) return local(task);
      return readInWorker(pool, workerArray, store, recipe, task, signal);
    },
  };
}

/** The pool, when chunks of `array` can and should be decoded in it. */
function offloadPool(array: ZarrArray, workers: WorkerPool | undefined): WorkerPool | undefined {
  if (workers === undefined || typeof SharedArrayBuffer === "undefined") return undefined;
  const { codecs, dataType } = array;
  if (codecs.workerModules === undefined || !codecs.worthOffloading) return undefined;
  // Workers write into a shared typed array: only data types whose elements are memory.
  if (dataType.bytesAreMemory !== true || dataType.byteSize === undefined) return undefined;
  return workers;
}

/** What a worker needs to build the same codec chain. */
function describeArray(array: ZarrArray): WorkerArray {
  const { metadata, dataType, fillValue, codecs } = array;
  return {
    codecs: metadata.codecs,
    modules: [...(codecs.workerModules ?? [])],
    dataType: dataType.toJSON(),
    fillValue: dataType.fillValueToJson(fillValue),
    buildShape: array.chunkGrid.chunkShape(array.shape.map(() => 0)),
  };
}

async function readInWorker(
  pool: WorkerPool,
  array: WorkerArray,
  store: Store,
  recipe: WorkerStoreRecipe | undefined,
  task: ChunkReadTask,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  let source: WorkerChunkRead["source"];
  const transfer: ArrayBuffer[] = [];
  if (recipe !== undefined) source = { store: recipe };
  else {
    const bytes = await storeSource(store, task.key, signal).get(undefined, signal);
    if (bytes === undefined) return false;
    // The worker gets a private copy: the store may hold on to the bytes it returned.
    const copy = bytes.slice();
    source = { bytes: copy };
    transfer.push(copy.buffer);
  }
  const { out, src, dst, outIsZero } = task.target;
  const call: WorkerChunkRead = {
    array,
    source,
    key: task.key,
    shape: task.spec.shape,
    out: { data: out.data as TypedArray, stride: out.stride, offset: out.offset ?? 0 },
    src: src as WorkerChunkRead["src"],
    dst: dst as WorkerChunkRead["dst"],
    outIsZero: outIsZero === true,
  };
  return pool.run<boolean>(WORKER_TASK, "readChunk", [call], transfer);
}
