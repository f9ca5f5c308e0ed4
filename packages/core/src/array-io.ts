/**
 * Reading and writing array elements: `get` and `set` over NumPy-style orthogonal
 * selections, with bounded concurrency, progress and cancellation.
 */
import {
  asZarrError,
  type ByteSource,
  type ChunkUpdate,
  indexerLength,
  type WorkerPool,
  workerModuleUrl,
  type WritableStore,
  type ChunkSpec,
  type CodecCallContext,
  type TypedArray,
  cStrides,
  copyRegion,
  type DataArray,
  type DataType,
  type DimIndexer,
  fillRegion,
  fullSelection,
  isWritable,
  mapConcurrent,
  type NdArray,
  type Scalar,
  type Store,
  shapeSize,
  supportsRanges,
  throwIfAborted,
  ZarrError,
} from "@zarr/spec";
import { type ChunkCache, invalidateChunkCaches } from "./chunk-cache.js";
import { canReadDirect, scatterRanges } from "./direct-read.js";
import { Pipeline } from "./pipeline.js";
import type { DecodeIntoTask } from "./workers/chunk-task.js";
import { type ChunkProjection, chunkProjections, countChunks, projectDimension } from "./indexer.js";
import type { ZarrArray } from "./nodes.js";
import { type ResolvedDim, resolvedLength, resolveSelection, type Selection } from "./selection.js";

/** Default number of chunks read, decoded or written at once. */
export const DEFAULT_CONCURRENCY = 16;

/** Progress of a multi-chunk operation. */
export interface Progress {
  /** Chunks finished. */
  done: number;
  /** Chunks in the operation. */
  total: number;
}

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
   * a decode; chunks read are added. Not used for sharded arrays.
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

/** Options of `set`. */
export interface SetOptions extends GetOptions {
  /** Store chunks whose elements all equal the fill value (default: the array's setting, normally false). */
  writeEmptyChunks?: boolean;
}

/** The result of `get`: a C-contiguous N-dimensional array and its data type. */
export interface ArrayData<A extends DataArray = DataArray> extends NdArray<A> {
  dataType: DataType;
}

interface Plan {
  resolved: ResolvedDim[];
  /** Shape with a size-1 dimension for every integer-selected dimension. */
  internalShape: number[];
  /** Shape of the result (integer-selected dimensions dropped). */
  outShape: number[];
  projections: () => Generator<ChunkProjection>;
  total: number;
}

function plan(array: ZarrArray, selection: Selection | null | undefined): Plan {
  const resolved = resolveSelection(selection, array.shape);
  const perDim = resolved.map((r, d) => projectDimension(r, array.chunkGrid.dims[d], array.shape[d]));
  const internalShape = resolved.map(resolvedLength);
  const outShape = resolved.filter((r) => r.kind !== "int").map(resolvedLength);
  return { resolved, internalShape, outShape, projections: () => chunkProjections(perDim), total: countChunks(perDim) };
}

function isZeroFill(dataType: DataType, fill: Scalar): boolean {
  return dataType.allEqual(dataType.allocate(1), fill, 0, 1);
}

async function readKey(store: Store, key: string, signal: AbortSignal | undefined): Promise<Uint8Array | undefined> {
  try {
    return await store.get(key, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
  }
}

async function deleteKey(array: ZarrArray, key: string, signal: AbortSignal | undefined): Promise<void> {
  array.codecs.invalidate(key);
  try {
    await (array.store as WritableStore).delete(key, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not delete "${key}"`, key);
  } finally {
    invalidateChunkCaches(array.store, key);
  }
}

async function writeKey(store: WritableStore, key: string, bytes: Uint8Array, signal: AbortSignal | undefined): Promise<void> {
  try {
    await store.set(key, bytes, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not write "${key}"`, key);
  } finally {
    invalidateChunkCaches(store, key);
  }
}

function byteSource(store: Store, key: string, signal: AbortSignal | undefined): ByteSource {
  return {
    rangesAreCheap: supportsRanges(store),
    async get(range, rangeSignal) {
      const s = rangeSignal ?? signal;
      try {
        if (range === undefined) return await store.get(key, { signal: s });
        if (store.getRange) return await store.getRange(key, range, { signal: s });
        // No range support: slice the whole value.
        const whole = await store.get(key, { signal: s });
        if (whole === undefined) return undefined;
        if ("suffixLength" in range) return whole.subarray(Math.max(0, whole.length - range.suffixLength));
        return whole.subarray(range.offset, range.length === undefined ? undefined : range.offset + range.length);
      } catch (error) {
        throw asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
      }
    },
  };
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

/**
 * Reads the elements `selection` picks. A selection holds one entry per dimension:
 * an integer (drops the dimension), `slice(start, stop, step)`, `null` (everything),
 * an array of indices, or a boolean mask; `"..."` stands for as many `null`s as needed.
 * Missing chunks read as the fill value. Only the chunks the selection touches are read.
 *
 * @example
 * ```ts
 * const week = await get(t2m, [slice(0, 7), 360, slice(null, null, 4)], { signal });
 * week.shape;  // [7, 360]
 * week.data;   // Float32Array, C order
 * ```
 */
export async function get(
  array: ZarrArray,
  selection?: Selection | null,
  options: GetOptions = {},
): Promise<ArrayData> {
  const { signal, onProgress } = options;
  throwIfAborted(signal);
  const p = plan(array, selection);
  const { dataType, fillValue, store, codecs } = array;
  const width = dataType.width;
  const size = shapeSize(p.internalShape);
  const given = options.out === undefined ? undefined : checkedOut(options.out, dataType, size);
  const shared = given === undefined || (ArrayBuffer.isView(given) && given.buffer instanceof SharedArrayBuffer);
  // Chunks stored as raw bytes are read straight into the result: workers have nothing to do.
  const directable = canReadDirect(array);
  const fused = shared && !directable ? await fusedDecoding(array, options.workers, signal) : undefined;
  const out: NdArray = {
    data: given ?? (fused ? sharedAllocate(dataType, size) : dataType.allocate(size)),
    shape: p.internalShape,
    stride: cStrides(p.internalShape),
  };
  // A fresh result already holds zeros; a caller's buffer holds whatever it held before.
  const fillIsZero = given === undefined && isZeroFill(dataType, fillValue);
  const partial = codecs.decodePartial;
  const direct = directable && ArrayBuffer.isView(out.data);
  const itemBytes = dataType.byteSize ?? 0;
  const cache = partial === undefined ? (options.chunkCache ?? array.config.chunkCache) : undefined;
  let done = 0;
  await mapConcurrent(
    p.projections(),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (proj) => {
      const key = array.chunkKey(proj.coords);
      const spec = array.chunkSpec(proj.coords);
      const ctx = { key, signal, workers: options.workers };
      if (cache !== undefined) {
        await readThroughCache(cache, array, proj, spec, out, fillIsZero, ctx);
      } else if (partial !== undefined) {
        const [src, dst] = ascending(proj.src, proj.dst);
        const part = await partial(byteSource(store, key, signal), src, spec, ctx);
        if (part === undefined) {
          if (!fillIsZero) fillRegion(out, dst, fillValue, dataType);
        } else {
          copyRegion(part, fullSelection(part.shape), out, dst, width);
        }
      } else if (direct && (await readDirect(array, proj, spec.shape, out, itemBytes, fillIsZero, signal))) {
        // done: the chunk's bytes went straight into the result
      } else if (fused?.reads === true && shapeSize(spec.shape) * itemBytes >= WORKER_READ_MIN_BYTES) {
        if (!(await fused.readDecodeInto(spec, proj, out, ctx)) && !fillIsZero) fillRegion(out, proj.dst, fillValue, dataType);
      } else {
        const bytes = await readKey(store, key, signal);
        throwIfAborted(signal);
        if (bytes === undefined) {
          if (!fillIsZero) fillRegion(out, proj.dst, fillValue, dataType);
        } else if (fused !== undefined && bytes.length >= FUSED_MIN_BYTES) {
          await fused.decodeInto(bytes, spec, proj, out, ctx);
        } else {
          const chunk = await codecs.decode(bytes, spec, ctx);
          copyRegion(chunk, proj.src, out, proj.dst, width);
        }
      }
      done++;
      onProgress?.({ done, total: p.total });
    },
    { signal },
  );
  return { data: out.data, shape: p.outShape, stride: cStrides(p.outShape), dataType };
}

/**
 * Reads one chunk through a chunk cache: copies a cached chunk into `out`, or reads,
 * decodes and copies it, keeping a private C-order copy in the cache when it fits.
 */
async function readThroughCache(
  cache: ChunkCache,
  array: ZarrArray,
  proj: ChunkProjection,
  spec: ChunkSpec,
  out: NdArray,
  fillIsZero: boolean,
  ctx: CodecCallContext,
): Promise<void> {
  const { store, dataType, fillValue } = array;
  const width = dataType.width;
  const key = ctx.key;
  const hit = cache.lookup(store, key, spec);
  if (hit !== undefined) {
    if (hit.data !== undefined) copyRegion({ data: hit.data, shape: spec.shape, stride: cStrides(spec.shape) }, proj.src, out, proj.dst, width);
    else if (!fillIsZero) fillRegion(out, proj.dst, fillValue, dataType);
    return;
  }
  const epoch = cache.begin(store);
  const bytes = await readKey(store, key, ctx.signal);
  throwIfAborted(ctx.signal);
  if (bytes === undefined) {
    if (!fillIsZero) fillRegion(out, proj.dst, fillValue, dataType);
    cache.insert(store, key, spec, undefined, epoch);
    return;
  }
  const decoded = await array.codecs.decode(bytes, spec, ctx);
  if (!cache.fits(spec)) {
    copyRegion(decoded, proj.src, out, proj.dst, width);
    return;
  }
  // The decoded chunk may be a view of the store's bytes: the cache keeps its own copy.
  const own: NdArray = { data: dataType.allocate(shapeSize(spec.shape)), shape: spec.shape, stride: cStrides(spec.shape) };
  copyRegion(decoded, fullSelection(spec.shape), own, fullSelection(spec.shape), width);
  cache.insert(store, key, spec, own.data, epoch);
  copyRegion(own, proj.src, out, proj.dst, width);
}

/**
 * Tries the scatter-read path for one chunk; false when it does not apply or the stored
 * value has an unexpected size (the normal path then reads it and reports the problem).
 */
async function readDirect(
  array: ZarrArray,
  proj: ChunkProjection,
  chunkShape: number[],
  out: NdArray,
  itemBytes: number,
  fillIsZero: boolean,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const ranges = scatterRanges(chunkShape, proj.src, out, proj.dst, itemBytes);
  if (ranges === undefined) return false;
  const key = array.chunkKey(proj.coords);
  let size: number | undefined;
  try {
    size = await (array.store.readInto as NonNullable<Store["readInto"]>)(key, ranges, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
  }
  if (size === undefined) {
    if (!fillIsZero) fillRegion(out, proj.dst, array.fillValue, array.dataType);
    return true;
  }
  return size === shapeSize(chunkShape) * itemBytes;
}

/** `options.out`, checked to be an array `get` can fill: the storage class and element count of the selection. */
function checkedOut(out: DataArray, dataType: DataType, elements: number): DataArray {
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

/** Encoded chunks smaller than this are decoded here: a worker round trip would cost more. */
const FUSED_MIN_BYTES = 16 * 1024;
const CHUNK_TASK = workerModuleUrl(import.meta.url, "workers/chunk-task.js");

/** A typed array of the data type's storage class, on a SharedArrayBuffer (workers write into it). */
function sharedAllocate(dataType: DataType, elements: number): DataArray {
  const Ctor = dataType.allocate(0).constructor as unknown as { new (b: SharedArrayBuffer): TypedArray; BYTES_PER_ELEMENT: number };
  return new Ctor(new SharedArrayBuffer(elements * dataType.width * Ctor.BYTES_PER_ELEMENT));
}

/**
 * Chunks whose decoded size is at least this are read by the workers themselves when the
 * store allows it; smaller ones are not worth a round trip to a worker whatever their codec.
 */
const WORKER_READ_MIN_BYTES = 64 * 1024;

interface FusedDecoding {
  /** Whether the store lets workers read chunks themselves (`readDecodeInto`). */
  reads: boolean;
  decodeInto(bytes: Uint8Array, spec: ChunkSpec, proj: ChunkProjection, out: NdArray, ctx: CodecCallContext): Promise<void>;
  /** Reads, decodes and copies one chunk in a worker; false when the chunk is missing. */
  readDecodeInto(spec: ChunkSpec, proj: ChunkProjection, out: NdArray, ctx: CodecCallContext): Promise<boolean>;
}

/**
 * Whether chunks of `array` can be decoded entirely in worker threads, each worker copying
 * its chunk straight into a shared result (see `Pipeline.workerPlan`).
 */
async function fusedDecoding(array: ZarrArray, workers: WorkerPool | undefined, signal: AbortSignal | undefined): Promise<FusedDecoding | undefined> {
  const { codecs, dataType, store } = array;
  if (workers === undefined || !(codecs instanceof Pipeline) || typeof SharedArrayBuffer === "undefined") return undefined;
  if (!ArrayBuffer.isView(dataType.allocate(0))) return undefined;
  const probeCtx = { key: "", signal, workers };
  const first = array.chunkSpec(array.shape.map(() => 0));
  if ((await codecs.workerPlan(first, probeCtx)) === undefined) return undefined;
  const arrayType = dataType.allocate(0).constructor.name;
  const owned = store.ownsReturnedBuffers === true;
  const task = async (
    source: DecodeIntoTask["bytes"],
    spec: ChunkSpec,
    proj: ChunkProjection,
    out: NdArray,
    ctx: CodecCallContext,
  ): Promise<DecodeIntoTask> => {
    const plan = await codecs.workerPlan(spec, ctx);
    if (plan === undefined) throw new ZarrError("UNSUPPORTED", `Chunk "${ctx.key}" cannot be decoded in a worker`);
    return {
      key: ctx.key,
      bytes: source,
      stages: plan.stages,
      expectedBytes: plan.expectedBytes,
      arrayType,
      width: dataType.width,
      chunkStride: plan.chunkStride,
      chunkOffset: plan.chunkOffset,
      src: proj.src,
      dst: proj.dst,
      out: { data: out.data as TypedArray, stride: out.stride, offset: out.offset ?? 0 },
    };
  };
  const fused: FusedDecoding = {
    reads: store.workerRead !== undefined,
    async decodeInto(bytes, spec, proj, out, ctx) {
      // Move the bytes to the worker when nobody else holds their buffer; else move a copy.
      const mine = owned && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      await workers.run(CHUNK_TASK, "decodeInto", [await task(mine, spec, proj, out, ctx)], [mine.buffer as ArrayBuffer]);
    },
    async readDecodeInto(spec, proj, out, ctx) {
      const read = (store.workerRead as NonNullable<Store["workerRead"]>)(ctx.key);
      if (read === undefined) {
        const bytes = await readKey(store, ctx.key, ctx.signal);
        if (bytes === undefined) return false;
        await fused.decodeInto(bytes, spec, proj, out, ctx);
        return true;
      }
      return await workers.run<boolean>(CHUNK_TASK, "decodeInto", [await task(read, spec, proj, out, ctx)]);
    },
  };
  return fused;
}

/** A value for `set`: a scalar, a flat array in C order, or an N-dimensional array to broadcast. */
export type SetValue = Scalar | DataArray | InputArray;

/** An N-dimensional input: `stride` defaults to C order, `offset` to 0. */
export interface InputArray {
  data: DataArray;
  shape: number[];
  stride?: number[];
  offset?: number;
}

function isInputArray(value: unknown): value is InputArray {
  return (
    typeof value === "object" &&
    value !== null &&
    !ArrayBuffer.isView(value) &&
    !Array.isArray(value) &&
    "data" in value &&
    "shape" in value
  );
}

function isDataArray(value: unknown, dataType: DataType): value is DataArray {
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
function adoptData(data: DataArray, dataType: DataType, elements: number): DataArray {
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
 * Writes `value` into the elements `selection` picks (see {@link get} for selections).
 * `value` is a scalar, a flat array in C order holding every selected element, or an
 * `{data, shape, stride?}` array broadcast to the selection's shape. Partially covered
 * chunks are read, modified and written back; chunks that end up all fill value are
 * deleted instead of written (unless `writeEmptyChunks`).
 *
 * @example
 * ```ts
 * await set(arr, [slice(0, 2), null], 0);                    // a scalar
 * await set(arr, null, new Float32Array(arr.shape[0] * arr.shape[1])); // everything
 * await set(arr, [0], { data: row, shape: [1, 100] });       // broadcast
 * ```
 */
export async function set(
  array: ZarrArray,
  selection: Selection | null | undefined,
  value: SetValue,
  options: SetOptions = {},
): Promise<void> {
  const { signal, onProgress } = options;
  throwIfAborted(signal);
  const { store, dataType, fillValue, codecs } = array;
  if (!isWritable(store)) {
    throw new ZarrError("STORE_READ_ONLY", `Cannot write array "${array.path}": the store is not writable`);
  }
  const p = plan(array, selection);
  const width = dataType.width;
  let view: NdArray | undefined;
  let scalar: Scalar | undefined;
  if (isInputArray(value)) view = valueView(value, p, dataType);
  else if (isDataArray(value, dataType)) {
    const data = adoptData(value, dataType, shapeSize(p.outShape));
    view = valueView({ data, shape: p.outShape, stride: cStrides(p.outShape) }, p, dataType);
  } else {
    try {
      scalar = dataType.coerce(value);
    } catch (error) {
      throw asZarrError(error, "INVALID_ARGUMENT", `Cannot write ${String(value)} to a ${dataType.name} array`);
    }
  }
  const writeEmpty = options.writeEmptyChunks ?? array.config.writeEmptyChunks;
  const fillIsZero = isZeroFill(dataType, fillValue);
  let done = 0;
  await mapConcurrent(
    p.projections(),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (proj) => {
      const key = array.chunkKey(proj.coords);
      const spec = array.chunkSpec(proj.coords);
      const ctx = { key, signal, workers: options.workers };
      const n = shapeSize(spec.shape);
      if (!proj.covers && codecs.encodePartial !== undefined) {
        // The codec (e.g. sharding) rewrites only what the update touches.
        const [src, dst] = ascending(proj.src, proj.dst);
        let value: ChunkUpdate["value"];
        if (view !== undefined) {
          const lengths = src.map(indexerLength);
          const part: NdArray = { data: dataType.allocate(shapeSize(lengths)), shape: lengths, stride: cStrides(lengths) };
          copyRegion(view, dst, part, fullSelection(lengths), width);
          value = { array: part };
        } else value = { scalar: scalar as Scalar };
        const updated = await codecs.encodePartial(byteSource(store, key, signal), { selection: src, value, writeEmpty }, spec, ctx);
        throwIfAborted(signal);
        if (updated === null) await deleteKey(array, key, signal);
        else await writeKey(store, key, updated, signal);
        done++;
        onProgress?.({ done, total: p.total });
        return;
      }
      const chunk: NdArray = { data: dataType.allocate(n), shape: spec.shape, stride: cStrides(spec.shape) };
      const existing = proj.covers ? undefined : await readKey(store, key, signal);
      if (existing !== undefined) {
        // Decode into a private copy: a decoded chunk may be a view of the store's memory.
        const decoded = await codecs.decode(existing, spec, ctx);
        copyRegion(decoded, fullSelection(spec.shape), chunk, fullSelection(spec.shape), width);
      } else if (!fillIsZero) {
        dataType.fill(chunk.data, fillValue, 0, n);
      }
      if (view !== undefined) copyRegion(view, proj.dst, chunk, proj.src, width);
      else fillRegion(chunk, proj.src, scalar as Scalar, dataType);
      throwIfAborted(signal);
      if (!writeEmpty && dataType.allEqual(chunk.data, fillValue, 0, n)) {
        if (existing !== undefined || proj.covers) await deleteKey(array, key, signal);
      } else {
        const bytes = await codecs.encode(chunk, spec, ctx);
        throwIfAborted(signal);
        await writeKey(store, key, bytes, signal);
      }
      done++;
      onProgress?.({ done, total: p.total });
    },
    { signal },
  );
}
