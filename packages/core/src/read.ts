/**
 * Reading array elements: `get` over NumPy-style orthogonal selections. Every chunk the
 * selection touches is one task of the executor, which reads it and decodes its selected
 * elements straight into the result, on this thread or in a worker pool.
 */
import {
  cStrides,
  type DataArray,
  type DataType,
  fillRegion,
  forEachConcurrent,
  type NdArray,
  shapeSize,
  throwIfAborted,
  type WorkerPool,
} from "@zarr/spec";
import type { ChunkCache } from "./chunk-cache.js";
import type { ArrayOf } from "./data-type-map.js";
import { createExecutor } from "./engine/executor.js";
import type { ChunkProjection } from "./indexer.js";
import type { NamedSelection } from "./named-selection.js";
import type { ZarrArray } from "./nodes.js";
import { DEFAULT_CONCURRENCY, isZeroFill, type Progress, plan } from "./plan.js";
import type { Selection } from "./selection.js";

/** Options of `get`. */
export interface GetOptions {
  /** Cancels the operation; pending chunk reads stop and the call rejects with `ABORTED`. */
  signal?: AbortSignal;
  /** Chunks in flight at once (default 16). */
  concurrency?: number;
  /** Called after each chunk. */
  onProgress?: (progress: Progress) => void;
  /**
   * Worker threads for CPU-heavy codecs (`createWorkerPool` from `@zarr/core/workers`):
   * large chunks are then decompressed on several cores at once.
   */
  workers?: WorkerPool;
  /**
   * Decoded chunks to reuse (`createChunkCache`); default: the array's own, given to
   * `open`/`openArray`/`createArray`. Cached chunks are copied without a store request or
   * a decode; chunks read are added. Not used for sharded arrays. With `workers`, the
   * cache's misses are decoded in the pool and kept here.
   */
  chunkCache?: ChunkCache;
  /**
   * Read into this array instead of allocating a new one (like zarr-python's `out=`): an
   * array of the data type's storage class (`dataType.allocate`'s) holding exactly the
   * selected elements in C order. Every element is overwritten. Reusing one buffer for
   * repeated reads (animation frames, tiles) saves allocating and page-faulting a fresh
   * result each time. With `workers`, pass one on a `SharedArrayBuffer` so workers can
   * write into it directly. Only `get` reads it.
   */
  out?: DataArray;
}

/**
 * The result of `get`: a C-contiguous N-dimensional array and its data type. `A` is the
 * storage array: `Float32Array` when `get` read a `ZarrArray<"float32">`, the general
 * `DataArray` for an array whose data type the type checker does not know.
 */
export interface ArrayData<A extends DataArray = DataArray> extends NdArray<A> {
  dataType: DataType;
}

/**
 * Reads the elements `selection` picks. A selection holds one entry per dimension:
 * an integer (drops the dimension), `slice(start, stop, step)`, `null` (everything),
 * an array of indices, or a boolean mask; `"..."` stands for as many `null`s as needed.
 * Missing chunks read as the fill value. Only the chunks the selection touches are read.
 * On arrays with `dimension_names`, a selection may name dimensions instead
 * (`{ time: slice(0, 10), lat: 5 }`): dimensions not named are selected whole.
 * Pointwise selections are {@link getCoordinates} and {@link getMask}.
 *
 * The result's `data` is typed by the array's data type when that is known: a
 * `Float32Array` for a `ZarrArray<"float32">` (from `openArray(…, { dataType })`,
 * `arr.is("float32")`, or `createArray` with a literal data type), `DataArray` otherwise.
 *
 * @example
 * ```ts
 * const week = await get(t2m, [slice(0, 7), 360, slice(null, null, 4)], { signal });
 * week.shape;  // [7, 360]
 * week.data;   // Float32Array, C order
 * ```
 */
export async function get<N extends string>(
  array: ZarrArray<N>,
  selection?: Selection | NamedSelection | null,
  options: GetOptions = {},
): Promise<ArrayData<ArrayOf<N>>> {
  const { signal, onProgress } = options;
  throwIfAborted(signal);
  const p = await plan(array, await positional(array, selection));
  // The untyped view: the engine works on any data type.
  const { dataType, fillValue } = array as ZarrArray;
  const size = shapeSize(p.internalShape);
  const executor = await createExecutor(array, { ...options, readTasks: p.total });
  // A caller's buffer and a shared result are less common: their code loads when asked for (bundle size).
  const special = options.out !== undefined || executor.wantsSharedResult ? await import("./read-out.js") : undefined;
  const given = options.out === undefined ? undefined : special?.checkedOut(options.out, dataType, size);
  const out: NdArray = {
    data: given ?? (special !== undefined && executor.wantsSharedResult ? special.allocateShared(dataType, size) : dataType.allocate(size)),
    shape: p.internalShape,
    stride: cStrides(p.internalShape),
  };
  // A fresh result already holds zeros; a caller's buffer holds whatever it held before.
  const outIsZero = given === undefined;
  const skipFill = outIsZero && isZeroFill(dataType, fillValue);
  let done = 0;
  const settle = (dst: ChunkProjection["dst"], found: boolean): void => {
    if (!found && !skipFill) fillRegion(out, dst, fillValue, dataType);
    done++;
    onProgress?.({ done, total: p.total });
  };
  // A stream of tasks: projections are made as runners take them, and a chunk the executor
  // knows to be missing settles synchronously (no promise), so memory and time per chunk stay small.
  await forEachConcurrent(
    p.projections(),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    (proj) => {
      const found = executor.read({
        key: array.chunkKey(proj.coords),
        spec: array.chunkSpec(proj.coords),
        target: { out, src: proj.src, dst: proj.dst, outIsZero },
        covers: proj.covers,
      });
      if (typeof found === "boolean") settle(proj.dst, found);
      else return found.then((stored) => settle(proj.dst, stored));
    },
    { signal },
  );
  // The data type allocated `out.data` (or `checkedOut` matched its class): it is ArrayOf<N>.
  return { data: out.data as ArrayOf<N>, shape: p.outShape, stride: cStrides(p.outShape), dataType };
}

/**
 * `selection` in the positional form: a selection by dimension name is translated by a
 * module loaded only when one is given (positional reads never load it).
 */
export async function positional(array: ZarrArray, selection: Selection | NamedSelection | null | undefined): Promise<Selection | null | undefined> {
  if (selection == null || Array.isArray(selection)) return selection as Selection | null | undefined;
  return (await import("./named-selection.js")).positionalSelection(array, selection);
}

