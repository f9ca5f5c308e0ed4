/**
 * Reading one chunk through a chunk cache: a cached chunk is copied into the target with
 * no store request and no decode; a chunk read is decoded once into a private C-order
 * copy the cache keeps (when it fits) and copied from there.
 */
import {
  type ChunkSpec,
  type CodecCallContext,
  type CodecPipeline,
  copyRegion,
  cStrides,
  type DecodeTarget,
  fillRegion,
  fullSelection,
  type NdArray,
  type Store,
  shapeSize,
  throwIfAborted,
} from "@zarr/spec";
import type { ChunkCache } from "../chunk-cache.js";
import { storeSource } from "../up-front.js";

/**
 * Reads the chunk at `ctx.key` into `target` through `cache`; false when it is not stored.
 * Entries are filed under `store` (the array's own store, which writes invalidate); the
 * bytes are read from `readFrom` (the store behind the array's storage transformers).
 */
export async function readThroughCache(
  cache: ChunkCache,
  store: Store,
  readFrom: Store,
  pipeline: CodecPipeline,
  spec: ChunkSpec,
  target: DecodeTarget,
  ctx: CodecCallContext,
): Promise<boolean> {
  const { dataType } = spec;
  const width = dataType.width;
  const key = ctx.key;
  const hit = cache.lookup(store, key, spec);
  if (hit !== undefined) {
    if (hit.data === undefined) return false;
    copyRegion({ data: hit.data, shape: spec.shape, stride: cStrides(spec.shape) }, target.src, target.out, target.dst, width);
    return true;
  }
  const epoch = cache.begin(store);
  const bytes = await storeSource(readFrom, key, ctx.signal).get(undefined, ctx.signal);
  throwIfAborted(ctx.signal);
  if (bytes === undefined) {
    cache.insert(store, key, spec, undefined, epoch);
    return false;
  }
  if (!cache.fits(spec)) {
    await pipeline.decodeInto(bytes, spec, target, ctx);
    return true;
  }
  // The cache keeps its own copy: a decoded chunk may be a view of the store's bytes.
  const own: NdArray = { data: dataType.allocate(shapeSize(spec.shape)), shape: spec.shape, stride: cStrides(spec.shape) };
  const whole = fullSelection(spec.shape);
  await pipeline.decodeInto(bytes, spec, { out: own, src: whole, dst: whole }, ctx);
  cache.insert(store, key, spec, own.data, epoch);
  copyRegion(own, target.src, target.out, target.dst, width);
  return true;
}

/** Fills the target's region with the fill value (unless it already holds zeros and the fill is zero). */
export function fillTarget(target: DecodeTarget, spec: ChunkSpec, fillIsZero: boolean): void {
  if (!(fillIsZero && target.outIsZero === true)) fillRegion(target.out, target.dst, spec.fillValue, spec.dataType);
}
