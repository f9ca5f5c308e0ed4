/**
 * The one executor: every chunk task of a `get` or `set` runs here, on the calling thread or in a
 * worker pool. Which one is decided per chunk from what the codec entries declare
 * (`CodecEntry.worker`, `lightweight`) and the chunk's size; the task itself, reading a
 * chunk and decoding it into the caller's result, is the same code in both places
 * (`readChunk`, and `worker-task.ts` around it).
 */
import {
  type ChunkSpec,
  type CodecCallContext,
  cStrides,
  type DataType,
  type DecodeTarget,
  type NdArray,
  type Store,
  shapeSize,
  type TypedArray,
  type WorkerPool,
  type WorkerStoreRecipe,
} from "@zarr/spec";
import type { ChunkCache } from "../chunk-cache.js";
import { checkChunkMemory } from "../limits.js";
import type { ZarrArray } from "../nodes.js";
import { readThroughCache } from "./cached-read.js";
import { giveScratch, takeScratch } from "./scratch.js";
import { storeSource } from "./store-source.js";
// By name, not URL: bundled apps register it in their worker script (`serveWorkerCalls`).
import { ENGINE_TASK_MODULE } from "./task-name.js";
import type { WorkerArray, WorkerChunkEncode, WorkerChunkRead } from "./worker-task.js";

/** Chunks that decode to fewer bytes than this stay on the calling thread: the trip would cost more. */
export const WORKER_MIN_BYTES = 64 * 1024;


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
  /** Read every chunk from the store, whatever cache the options or the array name. */
  bypassCache?: boolean;
  signal?: AbortSignal;
}

/** One chunk to encode: its key, its representation, and its elements (C order). */
export interface ChunkEncodeTask {
  key: string;
  spec: ChunkSpec;
  chunk: NdArray;
}

/** Runs the chunk tasks of one operation on one array. */
export interface Executor {
  /**
   * True when tasks may run in workers, which can read and write only memory they share
   * with the calling thread: results and chunk buffers should then live on a
   * `SharedArrayBuffer` (see {@link Executor.chunkBuffer}).
   */
  readonly wantsSharedResult: boolean;
  /** Reads one chunk into its target; false when the chunk is not stored (the caller fills). */
  read(task: ChunkReadTask): Promise<boolean>;
  /**
   * Encodes one chunk. The encoded bytes may share memory with `task.chunk` (the `bytes`
   * codec encodes little-endian data as a view): keep the chunk unchanged until they are
   * written.
   */
  encode(task: ChunkEncodeTask): Promise<Uint8Array>;
  /**
   * A reused buffer for the elements of one chunk of `spec`'s shape, in C order, with
   * undefined contents; on shared memory when workers may encode it. Give it back with
   * `release` once nothing reads it any more (its encoded bytes are written).
   */
  chunkBuffer(spec: ChunkSpec): ChunkBuffer;
}

/** A chunk-sized array from {@link Executor.chunkBuffer}. */
export interface ChunkBuffer {
  chunk: NdArray;
  release(): void;
}

/** The executor for one `get` or `set` of `array`. */
export function createExecutor(array: ZarrArray, options: ExecutorOptions): Executor {
  // Chunks are read through the array's storage transformers; caches file them under the array's own store.
  const { store: cacheStore, chunkStore: store, codecs } = array;
  const signal = options.signal;
  // A cache holds whole decoded chunks: chains that read shards in parts keep doing so.
  const cache = codecs.partialReads || options.bypassCache ? undefined : (options.chunkCache ?? array.config.chunkCache);
  const pool = cache === undefined ? offloadPool(array, options.workers) : undefined;
  const { maxChunkBytes } = array.config;
  // A shard is read in parts, never whole: its inner chunks are bounded by the inner chain.
  const checkRead = (task: ChunkReadTask) => {
    if (!codecs.partialReads) checkChunkMemory(task.spec, task.key, maxChunkBytes);
  };
  const encodeLocal = (task: ChunkEncodeTask): Promise<Uint8Array> =>
    codecs.encode(task.chunk, task.spec, { key: task.key, signal });
  const chunkBuffer = (spec: ChunkSpec) => {
    checkChunkMemory(spec, "(chunk buffer)", maxChunkBytes);
    return takeChunkBuffer(array.dataType, spec.shape, pool !== undefined);
  };
  const local = async (task: ChunkReadTask): Promise<boolean> => {
    // Before anything is read or allocated for it (the decoders bound themselves by the same sizes).
    checkRead(task);
    const ctx: CodecCallContext = { key: task.key, signal };
    if (cache !== undefined) return readThroughCache(cache, cacheStore, store, codecs, task.spec, task.target, ctx);
    return codecs.decodePartialInto(storeSource(store, task.key, signal), task.spec, task.target, ctx);
  };
  if (pool === undefined) return { wantsSharedResult: false, read: local, encode: encodeLocal, chunkBuffer };
  const workerArray = describeArray(array);
  const recipe = store.workerStore?.();
  const itemBytes = array.dataType.byteSize ?? 0;
  // Workers see only shared memory, and small chunks are not worth the trip.
  const worthSending = (data: unknown, spec: ChunkSpec): boolean =>
    ArrayBuffer.isView(data) && data.buffer instanceof SharedArrayBuffer && shapeSize(spec.shape) * itemBytes >= WORKER_MIN_BYTES;
  return {
    wantsSharedResult: true,
    async read(task) {
      if (!worthSending(task.target.out.data, task.spec)) return local(task);
      checkRead(task);
      // Without a store of their own, workers get the bytes from here; a shard is then read
      // whole, which pays only when the selection needs all of it.
      if (recipe === undefined && codecs.partialReads && !task.covers) return local(task);
      return readInWorker(pool, workerArray, store, recipe, task, signal);
    },
    encode(task) {
      if (!worthSending(task.chunk.data, task.spec)) return encodeLocal(task);
      const call: WorkerChunkEncode = { array: workerArray, key: task.key, shape: task.spec.shape, data: task.chunk.data as TypedArray };
      return pool.run<Uint8Array>(ENGINE_TASK_MODULE, "encodeChunk", [call]);
    },
    chunkBuffer,
  };
}

/**
 * A chunk-sized array of `dataType`'s storage over a reused buffer. Data types whose
 * elements are not plain memory (strings, objects) get a fresh array.
 */
function takeChunkBuffer(dataType: DataType, shape: number[], onShared: boolean): ChunkBuffer {
  const n = shapeSize(shape);
  const stride = cStrides(shape);
  const Storage = memoryStorage(dataType);
  if (Storage === undefined) return { chunk: { data: dataType.allocate(n), shape, stride }, release() {} };
  const bytes = takeScratch(n * dataType.width * Storage.BYTES_PER_ELEMENT, onShared);
  const data = new Storage(bytes.buffer, 0, n * dataType.width);
  return { chunk: { data, shape, stride }, release: () => giveScratch(bytes) };
}

/** A typed-array class, as `memoryStorage` gives it. */
export interface TypedArrayConstructor {
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): TypedArray;
  BYTES_PER_ELEMENT: number;
}

/**
 * The typed-array class of `dataType`'s storage when its elements are plain memory (so a
 * view over any buffer, shared or reused, can hold them); undefined for strings, objects.
 */
export function memoryStorage(dataType: DataType): TypedArrayConstructor | undefined {
  const empty = dataType.allocate(0);
  return dataType.bytesAreMemory === true && ArrayBuffer.isView(empty) ? (empty.constructor as unknown as TypedArrayConstructor) : undefined;
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
    maxChunkBytes: array.config.maxChunkBytes,
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
  return pool.run<boolean>(ENGINE_TASK_MODULE, "readChunk", [call], transfer);
}
