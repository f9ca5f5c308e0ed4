/**
 * Writing array elements: `set` over NumPy-style orthogonal selections, with
 * read-modify-write only for partially covered chunks.
 */
import {
  asZarrError,
  type ChunkSpec,
  type ChunkUpdate,
  copyRegion,
  cStrides,
  type DataArray,
  type DataType,
  type DimIndexer,
  describeJson,
  fillRegion,
  forEachConcurrent,
  fullSelection,
  indexerLength,
  isWritable,
  type NdArray,
  type Scalar,
  type Store,
  shapeSize,
  type TypedArray,
  throwIfAborted,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";
import { invalidateChunkCaches } from "./chunk-cache.js";
import { type ChunkLocker, chunkLocker } from "./chunk-lock.js";
import { type ChunkBuffer, takeChunkBuffer } from "./engine/chunk-buffer.js";
import { createExecutor, type Executor } from "./engine/executor.js";
import { storeSource } from "./engine/store-source.js";
import type { ChunkProjection } from "./indexer.js";
import type { NamedSelection } from "./named-selection.js";
import type { ZarrArray } from "./nodes.js";
import { DEFAULT_CONCURRENCY, type Plan, plan } from "./plan.js";
import { type GetOptions, positional } from "./read.js";
import type { Selection } from "./selection.js";
import type { InputArray, SetValue, SetValueOf } from "./set-value.js";

/** Options of `set`. */
export interface SetOptions extends GetOptions {
  /** Store chunks whose elements all equal the fill value (default: the array's setting, normally false). */
  writeEmptyChunks?: boolean;
  /**
   * Hold each chunk's key while writing it (default `false`): in this process (concurrent
   * `set` calls queue per chunk) and in the store (`store.lock`: a lock file next to the
   * chunk in a directory store), so read-modify-writes of partial chunks and shards by
   * several writers never lose each other's elements. Every writer of a chunk must lock.
   * Partially covered chunks are then read from the store, never from a chunk cache.
   * Throws `UNSUPPORTED` when the store cannot lock.
   */
  lock?: boolean;
}

/** Deletes a chunk (or shard) that now holds only the fill value, dropping what caches hold of it. */
export async function deleteKey(array: ZarrArray, key: string, signal: AbortSignal | undefined): Promise<void> {
  array.codecs.invalidate(key);
  try {
    await (array.chunkStore as WritableStore).delete(key, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not delete "${key}"`, key);
  } finally {
    invalidateChunkCaches(array.store, key);
  }
}

/** Writes a chunk through the array's chunk store; caches are invalidated under its own store (where they file chunks). */
export async function writeKey(array: ZarrArray, key: string, bytes: Uint8Array, signal: AbortSignal | undefined): Promise<void> {
  try {
    await (array.chunkStore as WritableStore).set(key, bytes, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not write "${key}"`, key);
  } finally {
    invalidateChunkCaches(array.store, key);
  }
}

/** Turns negative-step ranges into ascending ones (partial decoders expect positive steps). */
function ascending(src: DimIndexer[], dst: DimIndexer[]): [DimIndexer[], DimIndexer[]] {
  const s2 = src.slice();
  const d2 = dst.slice();
  for (let d = 0; d < src.length; d++) {
    const s = src[d];
    const t = dst[d];
    if ("step" in s && s.step < 0 && "step" in t) {
      s2[d] = { start: s.start + (s.count - 1) * s.step, step: -s.step, count: s.count };
      d2[d] = { start: t.start + (s.count - 1) * t.step, step: -t.step, count: s.count };
    }
  }
  return [s2, d2];
}

export function isInputArray(value: unknown): value is InputArray {
  return (
    typeof value === "object" &&
    value !== null &&
    !ArrayBuffer.isView(value) &&
    !Array.isArray(value) &&
    "data" in value &&
    "shape" in value
  );
}

export function isDataArray(value: unknown, dataType: DataType): value is DataArray {
  if (ArrayBuffer.isView(value)) {
    // A Uint8Array is a scalar for raw and bytes types, data otherwise.
    return !(value instanceof Uint8Array && (dataType.kind === "raw" || dataType.kind === "bytes"));
  }
  if (!Array.isArray(value)) return false;
  // [re, im] is a complex scalar; a struct is an object, never an array.
  return !(dataType.kind === "complex" && value.length === 2 && typeof value[0] === "number");
}

/**
 * Returns `data` (holding `elements` elements) in the data type's own storage:
 * as-is when it already is (e.g. a Float32Array for float32), else converted element by
 * element (a Float64Array or number[] for a float32 array, numbers for int64, ...).
 */
export function adoptData(data: DataArray, dataType: DataType, elements: number): DataArray {
  const own = dataType.allocate(0);
  const typedComplex = dataType.kind === "complex" && ArrayBuffer.isView(data);
  const perElement = data.constructor === own.constructor || typedComplex ? dataType.width : 1;
  if (data.length !== elements * perElement) {
    throw new ZarrError("INVALID_ARGUMENT", `The value holds ${data.length / perElement} elements, but ${elements} are selected`);
  }
  if (data.constructor === own.constructor) return data;
  const out = dataType.allocate(elements);
  const generic = data as ArrayLike<unknown>;
  for (let i = 0; i < elements; i++) {
    const v = typedComplex ? [generic[2 * i], generic[2 * i + 1]] : generic[i];
    try {
      dataType.setItem(out, i, dataType.coerce(v));
    } catch (error) {
      throw asZarrError(error, "INVALID_ARGUMENT", `Element ${i} of the value does not fit ${dataType.name}`);
    }
  }
  return out;
}

/** Builds a view of `value` with the internal (full-dimensional) selection shape, broadcasting like NumPy. */
function valueView(value: InputArray, plan: Plan, dataType: DataType): NdArray {
  const target = plan.outShape;
  const vshape = value.shape;
  const cannot = (): never => {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `Cannot broadcast a value of shape ${JSON.stringify(vshape)} to the selection's shape ${JSON.stringify(target)}`,
    );
  };
  if (!Array.isArray(vshape) || vshape.length > target.length) cannot();
  let data = value.data;
  let stride = value.stride ?? cStrides(vshape);
  let offset = value.offset ?? 0;
  if (data.constructor !== dataType.allocate(0).constructor) {
    // Foreign storage is converted; give it C order first if it is strided.
    const size = shapeSize(vshape);
    const contiguous = offset === 0 && stride.every((s, d) => vshape[d] <= 1 || s === cStrides(vshape)[d]);
    if (!contiguous) {
      throw new ZarrError("INVALID_ARGUMENT", `A strided value must use the data type's own storage (${dataType.allocate(0).constructor.name})`);
    }
    data = adoptData(data, dataType, size);
    stride = cStrides(vshape);
    offset = 0;
  } else if (value.stride === undefined) {
    adoptData(data, dataType, shapeSize(vshape)); // length check
  }
  const outStride: number[] = [];
  const lead = target.length - vshape.length;
  for (let d = 0; d < target.length; d++) {
    if (d < lead) outStride.push(0);
    else if (vshape[d - lead] === target[d]) outStride.push(stride[d - lead]);
    else if (vshape[d - lead] === 1) outStride.push(0);
    else cannot();
  }
  // Re-insert size-1 dimensions for integer-selected dimensions.
  const fullStride: number[] = [];
  let k = 0;
  for (const r of plan.resolved) fullStride.push(r.kind === "int" ? 0 : outStride[k++]);
  return { data, shape: plan.internalShape, stride: fullStride, offset };
}

/**
 * Writes `value` into the elements `selection` picks (see {@link get} for selections,
 * by position or by dimension name; pointwise writes are {@link setCoordinates} and
 * {@link setMask}).
 * `value` is a scalar, a flat array in C order holding every selected element, or an
 * `{data, shape, stride?}` array broadcast to the selection's shape. Partially covered
 * chunks are read, modified and written back; chunks that end up all fill value are
 * deleted instead of written (unless `writeEmptyChunks`).
 *
 * `value` is typed by the array's data type when that is known, as `get`'s result is
 * ({@link SetValueOf}): a `ZarrArray<"float32">` takes numbers, `number[]`, a
 * `Float32Array` or `{ data, shape }` of those, and an `Int32Array` or a string is a type
 * error. On an array whose data type is not known, any value compiles and the data type
 * converts it at run time or throws `INVALID_ARGUMENT`.
 *
 * @example
 * ```ts
 * await set(arr, [slice(0, 2), null], 0);                    // a scalar
 * await set(arr, null, new Float32Array(arr.shape[0] * arr.shape[1])); // everything
 * await set(arr, [0], { data: row, shape: [1, 100] });       // broadcast
 * ```
 */
export async function set<N extends string>(
  array: ZarrArray<N>,
  selection: Selection | NamedSelection | null | undefined,
  value: NoInfer<SetValueOf<N>>,
  options: SetOptions = {},
): Promise<void> {
  const { signal, onProgress } = options;
  throwIfAborted(signal);
  // The untyped view: the engine writes any data type; `value`'s type only guards callers.
  const { chunkStore: store, dataType, codecs } = array as ZarrArray;
  if (!isWritable(store)) {
    const through = store === array.store ? "" : " through its storage transformers";
    throw new ZarrError("STORE_READ_ONLY", `Cannot write array "${array.path}": the store is not writable${through}`);
  }
  const p = await plan(array, await positional(array, selection));
  let view: NdArray | undefined;
  let scalar: Scalar | undefined;
  const given = value as SetValue;
  if (isInputArray(given)) view = valueView(given, p, dataType);
  else if (isDataArray(given, dataType)) {
    const data = adoptData(given, dataType, shapeSize(p.outShape));
    view = valueView({ data, shape: p.outShape, stride: cStrides(p.outShape) }, p, dataType);
  } else {
    try {
      scalar = dataType.coerce(given);
    } catch (error) {
      throw asZarrError(error, "INVALID_ARGUMENT", `Cannot write ${describeJson(given)} to a ${dataType.name} array`);
    }
  }
  const writeEmpty = options.writeEmptyChunks ?? array.config.writeEmptyChunks;
  const locked = options.lock === true ? chunkLocker(store, array.path, signal) : undefined;
  // Under a lock another process may have written since a chunk was cached.
  const executor = await createExecutor(array, { ...options, bypassCache: locked !== undefined });
  const job: WriteJob = { array, executor, view, scalar, writeEmpty, signal };
  const unlocked: ChunkLocker = (_key, write) => write(undefined);
  const holding = locked ?? unlocked;
  /** The job for writing a chunk through another store (a locker's pinned view). */
  const through = async (viewStore: Store): Promise<WriteJob> => {
    const viaView = Object.create(array, { chunkStore: { value: viewStore } }) as ZarrArray;
    // A conditional write cannot delete conditionally: chunks that end up empty are written.
    return { ...job, array: viaView, executor: await createExecutor(viaView, { ...options, bypassCache: true }), writeEmpty: true };
  };
  let done = 0;
  // A stream: nothing is kept per chunk, so a write over millions of chunks runs in constant memory.
  await forEachConcurrent(
    p.projections(),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (proj) => {
      const key = array.chunkKey(proj.coords);
      const spec = array.chunkSpec(proj.coords);
      await holding(key, async (viewStore) => {
        const j = viewStore === undefined ? job : await through(viewStore);
        return !proj.covers && codecs.encodePartial !== undefined ? writePartial(j, key, spec, proj) : writeChunk(j, key, spec, proj);
      });
      done++;
      onProgress?.({ done, total: p.total });
    },
    { signal },
  );
}

/** What every chunk write of one `set` shares: the array, the value (an array view or a scalar) and the options. */
interface WriteJob {
  array: ZarrArray;
  executor: Executor;
  view: NdArray | undefined;
  scalar: Scalar | undefined;
  writeEmpty: boolean;
  signal: AbortSignal | undefined;
}

/**
 * Writes one chunk: its elements are assembled once (in a reused buffer, or taken straight
 * from the caller's memory when the chunk is one contiguous run of it), then encoded by
 * the executor and written with no further copy.
 */
async function writeChunk(job: WriteJob, key: string, spec: ChunkSpec, proj: ChunkProjection): Promise<void> {
  const { array, executor, view, scalar, writeEmpty, signal } = job;
  const { dataType, fillValue } = array;
  const n = shapeSize(spec.shape);
  // A chunk at the array's edge is covered when every element inside the array is
  // selected; its elements outside the array still need a value (the fill value).
  const whole = proj.covers && proj.src.every((s, d) => indexerLength(s) === spec.shape[d]);
  // Workers encode only from shared memory, which the caller's value is not.
  const direct =
    whole && view !== undefined && !executor.wantsSharedResult && proj.src.every(isIdentity)
      ? contiguousChunk(view, proj.dst, spec.shape, dataType.width)
      : undefined;
  const buffer = direct === undefined ? await takeChunkBuffer(dataType, spec, array.config.maxChunkBytes, executor.wantsSharedResult) : undefined;
  const chunk = direct ?? (buffer as ChunkBuffer).chunk;
  try {
    let stored = false;
    if (direct === undefined) {
      if (!proj.covers) {
        // Read-modify-write: the stored chunk (or the fill value) first, then the update.
        const full = fullSelection(spec.shape);
        stored = await executor.read({ key, spec, target: { out: chunk, src: full, dst: full }, covers: true });
        if (!stored) dataType.fill(chunk.data, fillValue, 0, n);
      } else if (!whole) dataType.fill(chunk.data, fillValue, 0, n);
      if (view !== undefined) copyRegion(view, proj.dst, chunk, proj.src, dataType.width);
      else fillRegion(chunk, proj.src, scalar as Scalar, dataType);
    }
    throwIfAborted(signal);
    if (!writeEmpty && dataType.allEqual(chunk.data, fillValue, 0, n)) {
      if (stored || proj.covers) await deleteKey(array, key, signal);
      return;
    }
    const bytes = await executor.encode({ key, spec, chunk });
    throwIfAborted(signal);
    await writeKey(array, key, bytes, signal);
  } finally {
    buffer?.release();
  }
}

/** True when a chunk-side indexer takes positions 0, 1, 2, … in order. */
function isIdentity(sel: DimIndexer): boolean {
  return "step" in sel && sel.start === 0 && (sel.step === 1 || sel.count <= 1);
}

/**
 * The chunk `dst` selects from `view` as an array over the caller's memory, when those
 * elements are one C-ordered run of it (e.g. a chunk spanning whole rows); else undefined.
 */
function contiguousChunk(view: NdArray, dst: DimIndexer[], shape: number[], width: number): NdArray | undefined {
  let first = view.offset ?? 0;
  let run = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    const sel = dst[d];
    if (!("step" in sel)) return undefined;
    first += sel.start * view.stride[d];
    if (sel.count > 1 && (sel.step !== 1 || view.stride[d] !== run)) return undefined;
    run *= sel.count;
  }
  const data = view.data;
  if (!ArrayBuffer.isView(data)) return undefined;
  const typed = data as TypedArray;
  return { data: typed.subarray(first * width, (first + run) * width), shape, stride: cStrides(shape) };
}

/** Writes the part of a chunk a selection touches through the codec's own partial encoder (sharding). */
async function writePartial(job: WriteJob, key: string, spec: ChunkSpec, proj: ChunkProjection): Promise<void> {
  const { array, view, scalar, writeEmpty, signal } = job;
  const { chunkStore, dataType, codecs } = array;
  const [src, dst] = ascending(proj.src, proj.dst);
  let value: ChunkUpdate["value"];
  if (view !== undefined) {
    const lengths = src.map(indexerLength);
    const part: NdArray = { data: dataType.allocate(shapeSize(lengths)), shape: lengths, stride: cStrides(lengths) };
    copyRegion(view, dst, part, fullSelection(lengths), dataType.width);
    value = { array: part };
  } else value = { scalar: scalar as Scalar };
  const ctx = { key, signal };
  const encodePartial = codecs.encodePartial as NonNullable<typeof codecs.encodePartial>;
  const updated = await encodePartial(storeSource(chunkStore, key, signal), { selection: src, value, writeEmpty }, spec, ctx);
  throwIfAborted(signal);
  if (updated === null) await deleteKey(array, key, signal);
  else await writeKey(array, key, updated, signal);
}
