/**
 * The worker-pool half of the executor: which chunk tasks go to the pool, and the calls
 * that send them. Loaded when an operation is given a pool (`createExecutor`), so apps
 * that never use workers do not load it.
 */
import {
  type ChunkSpec,
  type DataArray,
  type Store,
  shapeSize,
  type TypedArray,
  type WorkerPool,
  type WorkerStoreRecipe,
} from "@zarr/spec";
import type { ZarrArray } from "../nodes.js";
import { storeSource } from "../up-front.js";
import { type DecodeWhole, decodeHere } from "./cached-read.js";
import { handOver, SpareBuffers } from "./chunk-handover.js";
import type { ChunkEncodeTask, ChunkReadTask, Executor } from "./chunk-tasks.js";
import type { ChunkRead } from "./stored-keys.js";
// By name, not URL: bundled apps register it in their worker script (`serveWorkerCalls`).
import { ENGINE_TASK_MODULE } from "./task-name.js";
import type { WorkerArray, WorkerChunkDecode, WorkerChunkEncode, WorkerChunkRead, WorkerReadAnswer } from "./worker-task.js";

/**
 * Calls in a pool that keep every worker busy: two per worker, as `createWorkerPool`'s
 * pools hand out (the next call waits in a worker's queue while it runs the current one).
 */
const CALLS_PER_WORKER = 2;

/** Chunks that decode to fewer bytes than this stay on the calling thread: the trip would cost more. */
export const WORKER_MIN_BYTES = 64 * 1024;

/** The task runners of an executor with a pool; `local` and `encodeLocal` run a task on this thread. */
export interface PoolRunners {
  read(task: ChunkReadTask): Promise<boolean>;
  encode(task: ChunkEncodeTask): Promise<Uint8Array>;
}

/** What `createExecutor` built for the calling thread, which the pool's executor falls back on. */
export interface LocalParts {
  /** The executor without the pool. */
  here: Executor;
  /** Reads a task here; with a chunk cache, its misses decoded by `decodeWhole` when given. */
  local: (task: ChunkReadTask, decodeWhole?: DecodeWhole) => Promise<boolean>;
  encodeLocal: (task: ChunkEncodeTask) => Promise<Uint8Array>;
  checkRead: (task: ChunkReadTask) => Promise<void>;
  /** Wraps a read so that chunks a listing shows missing are skipped. */
  skipping: (read: ChunkRead) => ChunkRead;
  /** Reads go through a chunk cache. */
  cached: boolean;
}

/**
 * The executor of an operation given `pool`: chunks of `array` large enough go to the
 * pool when its chain and data type can be decoded there, else `parts.here`.
 */
export function poolExecutor(array: ZarrArray, pool: WorkerPool, signal: AbortSignal | undefined, parts: LocalParts): Executor {
  if (!decodableInWorkers(array)) return parts.here;
  const shared = typeof SharedArrayBuffer !== "undefined";
  const runners = shared ? poolRunners(array, pool, signal, parts.local, parts.encodeLocal, parts.checkRead) : undefined;
  if (parts.cached) {
    // The cache keeps decoded chunks on this thread: its misses are decoded whole in the
    // pool and moved back (no shared memory needed), hits are copied without a worker.
    const decodeWhole = poolDecoder(array, pool);
    return { wantsSharedResult: shared, read: parts.skipping((task) => parts.local(task, decodeWhole)), encode: runners?.encode ?? parts.encodeLocal };
  }
  if (runners === undefined) return parts.here;
  return { wantsSharedResult: true, read: parts.skipping(runners.read), encode: runners.encode };
}

/** True when chunks of `array` can and should be decoded in a pool. */
function decodableInWorkers(array: ZarrArray): boolean {
  const { codecs, dataType } = array;
  if (codecs.workerModules === undefined || !codecs.worthOffloading) return false;
  // Workers hand back typed arrays: only data types whose elements are memory.
  return dataType.bytesAreMemory === true && dataType.byteSize !== undefined;
}

/**
 * The spare buffers of each pool's chunk copies (see `chunk-handover.ts`): kept with the
 * pool, so that the next operation on it copies into memory already mapped too.
 */
const sparesOfPools = new WeakMap<WorkerPool, SpareBuffers>();

function sparesOf(pool: WorkerPool): SpareBuffers {
  let spares = sparesOfPools.get(pool);
  if (spares === undefined) sparesOfPools.set(pool, (spares = new SpareBuffers(pool.size * CALLS_PER_WORKER + 1)));
  return spares;
}

/**
 * Whole-chunk decoding for a chunk cache's misses: chunks large enough go to the pool's
 * `decodeChunk` (their bytes moved or shared there when the store allows it, else a
 * private copy moved; the decoded elements come back moved too), smaller ones are
 * decoded here.
 */
function poolDecoder(array: ZarrArray, pool: WorkerPool): DecodeWhole {
  const here = decodeHere(array.codecs);
  const workerArray = describeArray(array);
  const itemBytes = array.dataType.byteSize ?? 0;
  const share = new CallerShare(pool);
  return (bytes, spec, ctx, returned) => {
    if (shapeSize(spec.shape) * itemBytes < WORKER_MIN_BYTES) return here(bytes, spec, ctx);
    return share.run(
      () => here(bytes, spec, ctx),
      () => {
        // A private copy unless the store lets the bytes go as they are (its `returnedBytes`).
        const sent = handOver(bytes, returned);
        const call: WorkerChunkDecode = { array: workerArray, bytes: sent.bytes, key: ctx.key, shape: [...spec.shape] };
        return pool.run<DataArray>(ENGINE_TASK_MODULE, "decodeChunk", [call], sent.transfer, { signal: ctx.signal });
      },
    );
  };
}

/**
 * Runners that send large enough chunks of `array` to `pool` and run the others with
 * `local`/`encodeLocal`. `checkRead` bounds a chunk before it is read.
 */
export function poolRunners(
  array: ZarrArray,
  pool: WorkerPool,
  signal: AbortSignal | undefined,
  local: (task: ChunkReadTask) => Promise<boolean>,
  encodeLocal: (task: ChunkEncodeTask) => Promise<Uint8Array>,
  checkRead: (task: ChunkReadTask) => Promise<void>,
): PoolRunners {
  const { store, codecs } = array;
  const workerArray = describeArray(array);
  const recipe = store.workerStore?.();
  const itemBytes = array.dataType.byteSize ?? 0;
  const share = new CallerShare(pool);
  // Workers see only shared memory, and small chunks are not worth the trip.
  const worthSending = (data: unknown, spec: ChunkSpec): boolean =>
    ArrayBuffer.isView(data) && data.buffer instanceof SharedArrayBuffer && shapeSize(spec.shape) * itemBytes >= WORKER_MIN_BYTES;
  return {
    async read(task) {
      if (!worthSending(task.target.out.data, task.spec)) return local(task);
      await checkRead(task);
      // Without a store of their own, workers get the bytes from here; a shard is then read
      // whole, which pays only when the selection needs all of it.
      if (recipe === undefined && codecs.shardContainer && !task.covers) return local(task);
      return share.run(
        () => local(task),
        () => readInWorker(pool, workerArray, store, recipe, task, signal),
      );
    },
    encode(task) {
      if (!worthSending(task.chunk.data, task.spec)) return encodeLocal(task);
      const call: WorkerChunkEncode = { array: workerArray, key: task.key, shape: task.spec.shape, data: task.chunk.data as TypedArray };
      return share.run(
        () => encodeLocal(task),
        () => pool.run<Uint8Array>(ENGINE_TASK_MODULE, "encodeChunk", [call], [], { signal }),
      );
    },
  };
}

/**
 * Where a task worth sending runs: in the pool, or on the calling thread when the pool
 * lets it take part (`callerTakesPart`), every worker is busy and the calling thread runs
 * no other task. One task at a time on the calling thread: it also reads, dispatches and
 * answers the workers.
 */
class CallerShare {
  /** Tasks sent to the pool and not settled (queued in it or running). */
  private sent = 0;
  private onCaller = false;

  constructor(private readonly pool: WorkerPool) {}

  async run<T>(here: () => Promise<T>, there: () => Promise<T>): Promise<T> {
    if (this.pool.callerTakesPart === true && !this.onCaller && this.sent >= this.pool.size * CALLS_PER_WORKER) {
      this.onCaller = true;
      try {
        return await here();
      } finally {
        this.onCaller = false;
      }
    }
    this.sent++;
    try {
      return await there();
    } finally {
      this.sent--;
    }
  }
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
    maxDecodeRatio: array.config.maxDecodeRatio,
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
  let transfer: ArrayBuffer[] = [];
  const spares = sparesOf(pool);
  if (recipe !== undefined) source = { store: recipe };
  else {
    const bytes = await storeSource(store, task.key, signal).get(undefined, signal);
    if (bytes === undefined) return false;
    // Moved or shared when the store allows it (its `returnedBytes`), else a private copy
    // on a spare buffer that the worker gives back.
    const sent = handOver(bytes, store.returnedBytes, spares);
    source = sent.spare ? { bytes: sent.bytes, giveBack: true } : { bytes: sent.bytes };
    transfer = sent.transfer;
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
  // The signal takes the call out of the pool's queue, or stops the worker mid-read.
  const answer = await pool.run<boolean | WorkerReadAnswer>(ENGINE_TASK_MODULE, "readChunk", [call], transfer, { signal });
  if (typeof answer === "boolean") return answer;
  spares.give(answer.spare.buffer as ArrayBuffer);
  return answer.stored;
}
