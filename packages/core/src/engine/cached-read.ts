/**
 * Reading one chunk through a chunk cache: a cached chunk is copied into the target with
 * no store request and no decode; a chunk read is decoded once (here or in a worker) into
 * a private C-order copy the cache keeps (when it fits) and copied from there.
 */
import {
  type ChunkSpec,
  type CodecCallContext,
  type CodecPipeline,
  copyRegion,
  type DataArray,
  cStrides,
  type DecodeTarget,
  fillRegion,
  fullSelection,
  type NdArray,
  type ReturnedBytes,
  type Store,
  shapeSize,
  throwIfAborted,
} from "@zarr/spec";
import type { ChunkCache } from "../chunk-cache.js";
import { storeSource } from "../up-front.js";

/**
 * Decodes a chunk's stored bytes whole into C-order elements of their own: on this thread
 * ({@link decodeHere}) or in a worker. `returned` is what the store that resolved the
 * bytes declares about them (`Store.returnedBytes`): whether they may be moved or shared.
 */
export type DecodeWhole = (bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext, returned?: ReturnedBytes) => Promise<DataArray>;

/** Decoding on the calling thread, into a fresh array (a decoded chunk may otherwise be a view of the store's bytes). */
export function decodeHere(pipeline: CodecPipeline): DecodeWhole {
  return async (bytes, spec, ctx) => {
    const own: NdArray = { data: spec.dataType.allocate(shapeSize(spec.shape)), shape: spec.shape, stride: cStrides(spec.shape) };
    const whole = fullSelection(spec.shape);
    await pipeline.decodeInto(bytes, spec, { out: own, src: whole, dst: whole }, ctx);
    return own.data;
  };
}

/**
 * A chunk being read into a cache, and the reads waiting for it: it has a signal of its
 * own, aborted only when every one of them has been cancelled.
 */
interface InFlight {
  /** Its elements, or `undefined` when it is not stored. */
  chunk: Promise<DataArray | undefined>;
  readers: number;
  controller: AbortController;
}

/**
 * Chunk reads in flight per cache and store, by key: reads of one chunk that start while
 * another is under way (neighbouring map tiles, requested together) wait for it instead
 * of fetching and decoding it again.
 */
const inFlight = new WeakMap<ChunkCache, WeakMap<Store, Map<string, InFlight>>>();

function readsOf(cache: ChunkCache, store: Store): Map<string, InFlight> {
  let byStore = inFlight.get(cache);
  if (byStore === undefined) inFlight.set(cache, (byStore = new WeakMap()));
  let reads = byStore.get(store);
  if (reads === undefined) byStore.set(store, (reads = new Map()));
  return reads;
}

/**
 * Waits for `read` as one of its readers: rejects with `ABORTED` as soon as `signal`
 * aborts, and the last reader to leave that way stops the read (`onStop` forgets it).
 */
function follow(read: InFlight, signal: AbortSignal | undefined, onStop: () => void): Promise<DataArray | undefined> {
  throwIfAborted(signal);
  read.readers++;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      if (--read.readers === 0) {
        onStop();
        read.controller.abort();
      }
      try {
        throwIfAborted(signal);
      } catch (e) {
        reject(e);
      }
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    read.chunk.then(resolve, reject).finally(() => signal?.removeEventListener("abort", onAbort));
  });
}

/**
 * Reads the chunk at `ctx.key` into `target` through `cache`; false when it is not stored.
 * Entries are filed under `store` (the array's own store, which writes invalidate); the
 * bytes are read from `readFrom` (the store behind the array's storage transformers) and
 * decoded by `decodeWhole` (default on this thread; the pool executor's sends large chunks
 * to a worker). A read of a chunk another read is fetching waits for that one; cancelling
 * a read stops the fetch and decode only when no other read is waiting for them.
 */
export async function readThroughCache(
  cache: ChunkCache,
  store: Store,
  readFrom: Store,
  pipeline: CodecPipeline,
  spec: ChunkSpec,
  target: DecodeTarget,
  ctx: CodecCallContext,
  decodeWhole: DecodeWhole = decodeHere(pipeline),
): Promise<boolean> {
  const key = ctx.key;
  const hit = cache.lookup(store, key, spec);
  if (hit !== undefined) return copyChunk(hit.data, spec, target);
  if (!cache.fits(spec)) {
    // Never kept, so never shared: decoded straight into the target. The epoch is taken
    // before the read, so a write meanwhile keeps "not stored" out of the cache.
    const epoch = cache.begin(store);
    const bytes = await storeSource(readFrom, key, ctx.signal).get(undefined, ctx.signal);
    throwIfAborted(ctx.signal);
    if (bytes === undefined) {
      cache.insert(store, key, spec, undefined, epoch);
      return false;
    }
    await pipeline.decodeInto(bytes, spec, target, ctx);
    return true;
  }
  // A read cancelled already starts nothing (a read without readers would never stop).
  throwIfAborted(ctx.signal);
  const reads = readsOf(cache, store);
  let read = reads.get(key);
  if (read === undefined) {
    const controller = new AbortController();
    const started: InFlight = { chunk: fetchAndDecode(cache, store, readFrom, spec, { ...ctx, signal: controller.signal }, decodeWhole), readers: 0, controller };
    const forget = () => {
      if (reads.get(key) === started) reads.delete(key);
    };
    started.chunk.then(forget, forget);
    reads.set(key, (read = started));
  }
  const joined = read;
  return copyChunk(await follow(joined, ctx.signal, () => reads.get(key) === joined && reads.delete(key)), spec, target);
}

/** Reads and decodes a chunk and files it in the cache (unless a write invalidated it meanwhile). */
async function fetchAndDecode(cache: ChunkCache, store: Store, readFrom: Store, spec: ChunkSpec, ctx: CodecCallContext, decodeWhole: DecodeWhole): Promise<DataArray | undefined> {
  const epoch = cache.begin(store);
  const bytes = await storeSource(readFrom, ctx.key, ctx.signal).get(undefined, ctx.signal);
  throwIfAborted(ctx.signal);
  const data = bytes === undefined ? undefined : await decodeWhole(bytes, spec, ctx, readFrom.returnedBytes);
  cache.insert(store, ctx.key, spec, data, epoch);
  return data;
}

/** Copies a whole chunk's selected region into the target; false for a chunk that is not stored. */
function copyChunk(data: DataArray | undefined, spec: ChunkSpec, target: DecodeTarget): boolean {
  if (data === undefined) return false;
  copyRegion({ data, shape: spec.shape, stride: cStrides(spec.shape) }, target.src, target.out, target.dst, spec.dataType.width);
  return true;
}

/** Fills the target's region with the fill value (unless it already holds zeros and the fill is zero). */
export function fillTarget(target: DecodeTarget, spec: ChunkSpec, fillIsZero: boolean): void {
  if (!(fillIsZero && target.outIsZero === true)) fillRegion(target.out, target.dst, spec.fillValue, spec.dataType);
}
