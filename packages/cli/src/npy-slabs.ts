/**
 * `zarr get` of a whole large array as .npy, in slabs: runs of whole chunk rows along the
 * first dimension (inner chunk rows of a sharded array: a shard row is often larger than a
 * slab should be), each read into one of two reused buffers and written out as soon as it
 * is complete, while the next slab is read. A .npy body in C order is the slabs one after
 * the other, so the output is the same bytes as one read of the whole array; memory stays
 * at two slabs whatever the array's size (an array larger than memory can be written),
 * and the pages of a whole result are never faulted in.
 */
import { type ArrayData, get, slice, type ZarrArray } from "@zarr/core";
import type { DataArray, TypedArray, WorkerPool } from "@zarr/spec";
import { dataTypeToDescr } from "./npy-dtypes.js";
import { formatNpyHeader } from "./npy-header.js";

/** Bytes a slab aims at: enough chunks per slab to keep a worker pool busy, little memory. */
export const SLAB_BYTES = 32 * 1024 * 1024;

/** How an array is read in slabs: `slabRows` rows of the first dimension at a time (whole chunk rows). */
export interface SlabPlan {
  slabRows: number;
  /** Elements in one row (the product of the other dimensions). */
  rowElements: number;
}

/** The parts `array`'s chunks are read in: a shard container's inner chunks (its `innerChunkShape`), else the chunks. */
function readChunkShape(array: ZarrArray): readonly number[] | undefined {
  if (array.codecs.shardContainer) {
    for (const codec of array.codecs.codecs) if (codec.kind === "array_to_bytes" && codec.innerChunkShape !== undefined) return codec.innerChunkShape;
  }
  return array.chunkShape;
}

/**
 * The slabs of a whole-array .npy read of `array`, or `undefined` when one read is the
 * better way: arrays no larger than two slabs, a chunk grid that is not regular, and data
 * types whose .npy body is not their memory (variable-length strings and bytes, structs).
 * `slabBytes` is the size a slab aims at; a slab is at least one chunk row. Chunks read in
 * parts (shards: the array→bytes codec's `innerChunkShape`) count by their parts: slabs of whole
 * shard rows were up to a shard row each (64 MiB for 2048² float32 shards), so a 256 MiB array
 * was read in 4 slabs, twice the memory, each slab's shards read and faulted in whole.
 *
 * @example
 * ```ts
 * const plan = npySlabPlan(array); // { slabRows: 1024, rowElements: 8192 } for 8192² float32 in 512² chunks (or 512² inner chunks)
 * ```
 */
export function npySlabPlan(array: ZarrArray, slabBytes: number = SLAB_BYTES): SlabPlan | undefined {
  const { shape, dataType } = array;
  const chunkRows = readChunkShape(array)?.[0];
  const itemBytes = dataType.byteSize;
  if (shape.length === 0 || chunkRows === undefined || chunkRows <= 0 || itemBytes === undefined) return undefined;
  if (dataType.bytesAreMemory !== true || dataType.toBytes === undefined || !ArrayBuffer.isView(dataType.allocate(0))) return undefined;
  const rowElements = shape.slice(1).reduce((a, b) => a * b, 1);
  const chunkRowBytes = chunkRows * rowElements * itemBytes;
  if (chunkRowBytes === 0) return undefined;
  const slabRows = chunkRows * Math.max(1, Math.floor(slabBytes / chunkRowBytes));
  if (shape[0] <= 2 * slabRows) return undefined;
  return { slabRows, rowElements };
}

/**
 * Writes the whole of `array` as a .npy file through `write`, slab by slab (`plan`): the
 * header, then each slab's bytes in order. Two slabs are in flight: the next is read while
 * the last one read is written. Reads use `workers` when given, and stop with `signal`.
 *
 * @example
 * ```ts
 * const plan = npySlabPlan(array);
 * if (plan) await writeNpySlabs(array, plan, workers, (piece) => file.write(piece));
 * ```
 */
export async function writeNpySlabs(
  array: ZarrArray,
  plan: SlabPlan,
  workers: WorkerPool | undefined,
  write: (piece: Uint8Array) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const { shape, dataType } = array;
  const rows = shape[0];
  const { slabRows, rowElements } = plan;
  const rest = shape.slice(1).map((n) => slice(0, n));
  // With a pool, on shared memory: its workers write into the slabs.
  const allocate = workers === undefined ? (n: number) => dataType.allocate(n) : (await import("@zarr/core/workers")).allocateShared.bind(null, dataType);
  // npySlabPlan admits only data types stored in a typed array.
  const buffers = [0, 1].map(() => allocate(slabRows * rowElements) as TypedArray);
  const read = (k: number): Promise<ArrayData> => {
    const start = k * slabRows;
    const stop = Math.min(rows, start + slabRows);
    const out: DataArray = buffers[k % 2].subarray(0, (stop - start) * rowElements * dataType.width);
    return get(array, [slice(start, stop), ...rest], { workers, out, signal });
  };
  const slabs = Math.ceil(rows / slabRows);
  await write(formatNpyHeader(dataTypeToDescr(dataType), shape));
  let pending = read(0);
  for (let k = 0; k < slabs; k++) {
    const next = k + 1 < slabs ? read(k + 1) : undefined;
    // Awaited on the next turn; until then a failure must not count as unhandled.
    next?.catch(() => {});
    try {
      const slab = await pending;
      await write((dataType.toBytes as NonNullable<typeof dataType.toBytes>)(slab.data, true));
    } catch (error) {
      await next?.catch(() => {}); // no read left running into a buffer after the command ends
      throw error;
    }
    if (next !== undefined) pending = next;
  }
}
