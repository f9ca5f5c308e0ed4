/**
 * The result buffers of `get` besides a fresh array: a caller's `options.out`, checked,
 * and a result on shared memory for worker pools. Loaded only when one is needed.
 */
import type { DataArray, DataType } from "@zarr/spec";
import { memoryStorage, type TypedArrayConstructor } from "./engine/memory-storage.js";
import { ZarrError } from "./up-front.js";

/** `options.out`, checked to be an array `get` can fill: the storage class and element count of the selection. */
export function checkedOut(out: DataArray, dataType: DataType, elements: number): DataArray {
  const expected = dataType.allocate(0).constructor;
  if (out === null || typeof out !== "object" || out.constructor !== expected) {
    const got = out === null || typeof out !== "object" ? typeof out : out.constructor.name;
    throw new ZarrError("INVALID_ARGUMENT", `options.out must be a ${expected.name} for data type ${dataType.name}, got ${got}`);
  }
  if (out.length !== elements * dataType.width) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `options.out has ${out.length} elements; the selection needs ${elements * dataType.width} (${elements} values)`,
    );
  }
  return out;
}

/**
 * An array of `elements` values of `dataType`'s storage class on a SharedArrayBuffer: a
 * result (or an `out` buffer for `get`) that the threads of a worker pool write into.
 * `UNSUPPORTED` for data types not stored as plain memory (strings, objects, structs).
 *
 * @example
 * ```ts
 * import { allocateShared, createWorkerPool } from "@zarr/core/workers";
 * const out = allocateShared(arr.dataType, 256 * 512);
 * await get(arr, [slice(0, 256)], { out, workers: createWorkerPool() });
 * ```
 */
export function allocateShared(dataType: DataType, elements: number): DataArray {
  const Storage: TypedArrayConstructor | undefined = memoryStorage(dataType);
  if (Storage === undefined) {
    throw new ZarrError("UNSUPPORTED", `Values of data type ${dataType.name} are not plain memory: they cannot live on a SharedArrayBuffer`);
  }
  return new Storage(new SharedArrayBuffer(elements * dataType.width * Storage.BYTES_PER_ELEMENT));
}

