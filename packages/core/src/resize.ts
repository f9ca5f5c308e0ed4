/** Changing an array's shape. */
import {
  type ArrayMetadata,
  asZarrError,
  type ChunkGridResizeOptions,
  copyRegion,
  cStrides,
  type DimIndexer,
  fillRegion,
  fullSelection,
  isListable,
  isWritable,
  mapConcurrent,
  shapeSize,
  throwIfAborted,
  ZarrError,
} from "@zarr/spec";
import { invalidateChunkCaches } from "./chunk-cache.js";
import { writeNodeMetadata } from "./metadata-io.js";
import { resolveArray, type ZarrArray } from "./nodes.js";
import { nodePrefix } from "./paths.js";
import { DEFAULT_CONCURRENCY, type Progress } from "./plan.js";

/** Options of `resize`. */
export interface ResizeOptions extends ChunkGridResizeOptions {
  signal?: AbortSignal;
  concurrency?: number;
  onProgress?: (progress: Progress) => void;
}

/**
 * Changes an array's shape and returns the resized array (the old value keeps the old
 * shape). Chunks entirely outside the new shape are deleted; chunks cut by the new edge
 * have the cut-off part reset to the fill value, so growing the array again shows fill
 * values there, never stale data.
 *
 * On a `rectilinear` grid the existing chunks keep their edges: shrinking drops the edges
 * of chunks wholly outside the new shape (the last kept chunk may overhang the edge),
 * growing appends edges once the existing ones no longer cover the array: by default one
 * chunk spanning the added extent (as zarr-python does), or `options.newChunkEdges[d]` (a
 * list of edges, or one edge length repeated). The metadata is written with runs
 * (`[edge, count]`) where that is shorter.
 *
 * @example
 * ```ts
 * const bigger = await resize(arr, [arr.shape[0] * 2, arr.shape[1]]);
 * const daily = await resize(series, [series.shape[0] + 30], { newChunkEdges: [1] }); // 30 chunks of 1
 * ```
 */
export async function resize<N extends string>(
  array: ZarrArray<N>,
  shape: readonly number[],
  options: ResizeOptions = {},
): Promise<ZarrArray<N>> {
  // Chunks are listed, read and deleted through the storage transformers; the metadata goes to the store itself.
  const { store, chunkStore } = array;
  throwIfAborted(options.signal);
  if (!isWritable(store) || !isWritable(chunkStore)) throw new ZarrError("STORE_READ_ONLY", `Cannot resize "${array.path}": the store is not writable`);
  if (array.format !== undefined && array.format.writeArrayMetadata === undefined) {
    throw new ZarrError("UNSUPPORTED", `Resizing "${array.path || "/"}" (format ${array.format.name}) is not supported`);
  }
  if (!Array.isArray(shape) || shape.length !== array.ndim) {
    throw new ZarrError("INVALID_ARGUMENT", `New shape must have ${array.ndim} dimensions, got ${JSON.stringify(shape)}`);
  }
  for (const n of shape) {
    if (!Number.isSafeInteger(n) || n < 0) throw new ZarrError("INVALID_ARGUMENT", `Invalid new shape ${JSON.stringify(shape)}`);
  }
  if (shapeSize(shape) > Number.MAX_SAFE_INTEGER) throw new ZarrError("INVALID_ARGUMENT", "New shape is too large");
  const grid = array.chunkGrid.resize(shape, { newChunkEdges: options.newChunkEdges });
  const newGridShape = grid.gridShape;
  const shrinking = shape.some((n, d) => n < array.shape[d]);
  if (shrinking) {
    const outside: string[] = [];
    const cut: number[][] = [];
    const consider = (coords: number[], key: string) => {
      if (coords.some((c, d) => c >= newGridShape[d])) outside.push(key);
      else if (coords.some((c, d) => grid.dims[d].start(c) + grid.dims[d].size(c) > shape[d] && shape[d] < array.shape[d])) cut.push(coords);
    };
    const prefix = nodePrefix(array.path);
    if (isListable(chunkStore)) {
      for await (const key of chunkStore.listPrefix(prefix, { signal: options.signal })) {
        const coords = array.chunkKeyEncoding.decode(key.slice(prefix.length), array.ndim);
        if (coords !== undefined) consider(coords, key);
      }
    } else {
      // Without listing, visit every chunk position of the old grid.
      const old = array.chunkGrid.gridShape;
      const total = shapeSize(old);
      const strides = cStrides(old as number[]);
      for (let i = 0; i < total; i++) {
        const coords = old.map((_, d) => Math.floor(i / strides[d]) % old[d]);
        consider(coords, array.chunkKey(coords));
      }
    }
    let done = 0;
    const total = outside.length + cut.length;
    await mapConcurrent(outside, options.concurrency ?? DEFAULT_CONCURRENCY, async (key) => {
      array.codecs.invalidate(key);
      await chunkStore.delete(key, { signal: options.signal });
      options.onProgress?.({ done: ++done, total });
    }, { signal: options.signal });
    // Reset the part of each cut chunk that now lies outside the array.
    await mapConcurrent(cut, options.concurrency ?? DEFAULT_CONCURRENCY, async (coords) => {
      const key = array.chunkKey(coords);
      const bytes = await chunkStore.get(key, { signal: options.signal });
      if (bytes !== undefined) {
        const spec = array.chunkSpec(coords);
        const decoded = await array.codecs.decode(bytes, spec, { key, signal: options.signal });
        const n = shapeSize(spec.shape);
        const chunk = { data: array.dataType.allocate(n), shape: spec.shape, stride: cStrides(spec.shape) };
        copyRegion(decoded, fullSelection(spec.shape), chunk, fullSelection(spec.shape), array.dataType.width);
        // Elements at or beyond the new edge along any dimension go back to the fill value.
        for (let d = 0; d < array.ndim; d++) {
          const start = grid.dims[d].start(coords[d]);
          const keep = Math.max(0, Math.min(spec.shape[d], shape[d] - start));
          if (keep >= spec.shape[d]) continue;
          const sel: DimIndexer[] = spec.shape.map((s, k) => (k === d ? { start: keep, step: 1, count: s - keep } : { start: 0, step: 1, count: s }));
          fillRegion(chunk, sel, array.fillValue, array.dataType);
        }
        if (!array.config.writeEmptyChunks && array.dataType.allEqual(chunk.data, array.fillValue, 0, n)) {
          array.codecs.invalidate(key);
          await chunkStore.delete(key, { signal: options.signal });
        } else {
          try {
            await chunkStore.set(key, await array.codecs.encode(chunk, spec, { key, signal: options.signal }), { signal: options.signal });
          } catch (error) {
            throw asZarrError(error, "STORE_FAILED", `Could not write "${key}"`, key);
          }
        }
      }
      options.onProgress?.({ done: ++done, total });
    }, { signal: options.signal });
  }
  // Chunks were deleted or rewritten above: cached decoded chunks of this array are stale.
  invalidateChunkCaches(store, array.format?.chunkPrefix?.(array.path) ?? nodePrefix(array.path), { prefix: true });
  const metadata: ArrayMetadata = { ...array.metadata, shape: [...shape], chunk_grid: grid.toJSON() };
  const { format } = array;
  if (format === undefined) await writeNodeMetadata(store, array.path, metadata, options.signal);
  else if (format.writeArrayMetadata !== undefined) await format.writeArrayMetadata(array, metadata, options);
  const resized = await resolveArray(store, array.path, metadata, {
    registry: array.registry,
    writeEmptyChunks: array.config.writeEmptyChunks,
    chunkCache: array.config.chunkCache,
    maxChunkBytes: array.config.maxChunkBytes,
    maxDecodeRatio: array.config.maxDecodeRatio,
    zarrFormat: array.zarrFormat,
    format,
  });
  // Same data type as `array` (only the shape and grid changed): still a ZarrArray<N>.
  return resized as ZarrArray<N>;
}
