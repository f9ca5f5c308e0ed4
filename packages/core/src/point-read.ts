/**
 * Reading pointwise selections (NumPy's fancy indexing, zarr-python's
 * `get_coordinate_selection` and `get_mask_selection`). The points are grouped by chunk;
 * each touched chunk is one task of the executor, which decodes the block of the chunk
 * its points span into a scratch buffer (in a worker when the chunk is worth it), and
 * the points are gathered from there into the result.
 */
import { copyRegion, cStrides, fillRegion, fullSelection, mapConcurrent, type NdArray, throwIfAborted } from "@zarr/spec";
import type { ArrayOf } from "./data-type-map.js";
import { takeChunkBuffer } from "./engine/chunk-buffer.js";
import { createExecutor } from "./engine/executor.js";
import type { ZarrArray } from "./nodes.js";
import { DEFAULT_CONCURRENCY, isZeroFill } from "./plan.js";
import { blockSelection, blockShape, groupPointsByChunk, type PointChunk } from "./point-chunks.js";
import { type BooleanMask, type CoordinateSelection, type ResolvedPoints, resolveCoordinates, resolveMask } from "./points.js";
import type { ArrayData, GetOptions } from "./read.js";

/**
 * Reads the elements at the points `coordinates` names: one integer index array per
 * dimension, broadcast against each other like NumPy's (`a[rows, cols]`,
 * zarr-python's `get_coordinate_selection`). Element `i` of the result is the array's
 * element at `[rows[i], cols[i]]`; the result has the broadcast shape of the index arrays
 * (an `{ data, shape }` index array is N-dimensional, a number broadcasts to every point).
 * Negative indices count from the end; indices outside the array throw `OUT_OF_BOUNDS`.
 * Each chunk holding points is read once, however many points fall in it. Options as for
 * `get` (`signal`, `concurrency`, `onProgress`, `workers`, `chunkCache`, `out`).
 *
 * @example
 * ```ts
 * const diagonal = await getCoordinates(arr, [[0, 1, 2], [0, 1, 2]]); // shape [3]
 * const corners = await getCoordinates(arr, [{ data: [0, 0, -1, -1], shape: [2, 2] }, [0, -1]]); // shape [2, 2]
 * ```
 */
export async function getCoordinates<N extends string>(
  array: ZarrArray<N>,
  coordinates: CoordinateSelection,
  options: GetOptions = {},
): Promise<ArrayData<ArrayOf<N>>> {
  throwIfAborted(options.signal);
  const resolved = resolveCoordinates(coordinates, array.shape, array.dimensionNames);
  return readPoints(array, resolved, options);
}

/**
 * Reads the elements where `mask` (`{ data, shape }`, booleans or 0/1 in C order, of the
 * array's full shape) is true, as a 1-D array in C order (NumPy's `a[mask]`,
 * zarr-python's `get_mask_selection`). A mask of another shape throws
 * `INVALID_SELECTION`. Only chunks holding selected elements are read, each once.
 *
 * @example
 * ```ts
 * const hot = await getMask(t2m, { data: t2mValues.map((v) => v > 300), shape: t2m.shape });
 * ```
 */
export async function getMask<N extends string>(
  array: ZarrArray<N>,
  mask: BooleanMask,
  options: GetOptions = {},
): Promise<ArrayData<ArrayOf<N>>> {
  throwIfAborted(options.signal);
  return readPoints(array, resolveMask(mask, array.shape), options);
}

async function readPoints<N extends string>(
  array: ZarrArray<N>,
  resolved: ResolvedPoints,
  options: GetOptions,
): Promise<ArrayData<ArrayOf<N>>> {
  const { signal, onProgress } = options;
  const { dataType, fillValue } = array as ZarrArray;
  const width = dataType.width;
  // Loaded only when a caller gives `out` (as `get` does).
  const given = options.out === undefined ? undefined : (await import("./read-out.js")).checkedOut(options.out, dataType, resolved.count);
  const data = given ?? dataType.allocate(resolved.count);
  // The result as a 1-D array of its points; its shape is only the caller's view of it.
  const flat: NdArray = { data, shape: [resolved.count], stride: [1] };
  const skipFill = given === undefined && isZeroFill(dataType, fillValue);
  const chunks = groupPointsByChunk(resolved, array.chunkGrid, array.shape);
  const executor = await createExecutor(array, options);
  let done = 0;
  await mapConcurrent(
    chunks,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (chunk: PointChunk) => {
      const key = array.chunkKey(chunk.coords);
      const spec = array.chunkSpec(chunk.coords);
      const shape = blockShape(chunk);
      // The scratch block comes from the executor: on shared memory when workers may decode into it.
      const buffer = await takeChunkBuffer(array.dataType, { ...spec, shape }, array.config.maxChunkBytes, executor.wantsSharedResult);
      try {
        const block = buffer.chunk;
        const found = await executor.read({
          key,
          spec,
          target: { out: block, src: blockSelection(chunk), dst: fullSelection(shape) },
          covers: chunk.covers,
        });
        const dst = [{ indices: chunk.points }];
        if (found) {
          const blockFlat: NdArray = { data: block.data, shape: [block.data.length / width], stride: [1] };
          copyRegion(blockFlat, [{ indices: chunk.inBlock }], flat, dst, width);
        } else if (!skipFill) fillRegion(flat, dst, fillValue, dataType);
      } finally {
        buffer.release();
      }
      done++;
      onProgress?.({ done, total: chunks.length });
    },
    { signal },
  );
  // The data type allocated `data` (or `checkedOut` matched its class): it is ArrayOf<N>.
  return { data: data as ArrayOf<N>, shape: resolved.shape, stride: cStrides(resolved.shape), dataType };
}
