/**
 * Writing pointwise selections (NumPy's `a[rows, cols] = v` and `a[mask] = v`,
 * zarr-python's `set_coordinate_selection` and `set_mask_selection`). The points are
 * grouped by chunk and each touched chunk is read, modified and written once, however
 * many points fall in it. Of repeated points the last one wins, as in NumPy.
 */
import {
  asZarrError,
  type ChunkSpec,
  copyRegion,
  cStrides,
  type DataArray,
  type DataType,
  describeJson,
  fillRegion,
  fullSelection,
  isWritable,
  mapConcurrent,
  memorySource,
  type NdArray,
  type Scalar,
  type Store,
  shapeSize,
  throwIfAborted,
  ZarrError,
} from "@zarr/spec";
import { type ChunkLocker, chunkLocker } from "./chunk-lock.js";
import { takeChunkBuffer } from "./engine/chunk-buffer.js";
import { createExecutor, type Executor } from "./engine/executor.js";
import { storeSource } from "./engine/store-source.js";
import type { ZarrArray } from "./nodes.js";
import { DEFAULT_CONCURRENCY } from "./plan.js";
import { blockSelection, blockShape, groupPointsByChunk, type PointChunk } from "./point-chunks.js";
import { type BooleanMask, type CoordinateSelection, type ResolvedPoints, resolveCoordinates, resolveMask } from "./points.js";
import type { SetValue, SetValueOf } from "./set-value.js";
import { adoptData, deleteKey, isDataArray, isInputArray, type SetOptions, writeKey } from "./write.js";

/**
 * Writes `value` to the points `coordinates` names (one integer index array per
 * dimension, broadcast like NumPy's; see {@link getCoordinates}). `value` is a scalar, a
 * flat array holding one element per point (C order of the selection's shape), or an
 * `{ data, shape, stride? }` array broadcast to the selection's shape. Of repeated points
 * the last one wins, as in NumPy. Each chunk holding points is read, modified and
 * written once. Options as for `set` (`writeEmptyChunks`, `lock`, `signal`, ...); the
 * value is typed by the array's data type as `set`'s is ({@link SetValueOf}).
 *
 * @example
 * ```ts
 * await setCoordinates(arr, [[0, 1, 2], [0, 1, 2]], 1);                          // the diagonal
 * await setCoordinates(arr, [[0, 0], [3, 3]], new Float32Array([5, 6]));          // [0, 3] ends up 6
 * ```
 */
export async function setCoordinates<N extends string>(
  array: ZarrArray<N>,
  coordinates: CoordinateSelection,
  value: NoInfer<SetValueOf<N>>,
  options: SetOptions = {},
): Promise<void> {
  throwIfAborted(options.signal);
  await writePoints(array, resolveCoordinates(coordinates, array.shape, array.dimensionNames), value as SetValue, options);
}

/**
 * Writes `value` to the elements where `mask` (`{ data, shape }` of the array's full
 * shape) is true: a scalar, or one element per true mask element in C order (zarr-python's
 * `set_mask_selection`). A mask of another shape throws `INVALID_SELECTION`. The value is
 * typed by the array's data type as `set`'s is ({@link SetValueOf}).
 *
 * @example
 * ```ts
 * await setMask(arr, { data: values.map((v) => Number.isNaN(v)), shape: arr.shape }, 0);
 * ```
 */
export async function setMask<N extends string>(
  array: ZarrArray<N>,
  mask: BooleanMask,
  value: NoInfer<SetValueOf<N>>,
  options: SetOptions = {},
): Promise<void> {
  throwIfAborted(options.signal);
  await writePoints(array, resolveMask(mask, array.shape), value as SetValue, options);
}

/** The value to write: one element per point (in the data type's storage), or one scalar for all. */
type PointValue = { values: NdArray } | { scalar: Scalar };

/** What the chunk writes of one call share. */
interface PointJob {
  array: ZarrArray;
  executor: Executor;
  value: PointValue;
  writeEmpty: boolean;
  signal: AbortSignal | undefined;
}

async function writePoints(array: ZarrArray, resolved: ResolvedPoints, value: SetValue, options: SetOptions): Promise<void> {
  const { signal, onProgress } = options;
  const { chunkStore: store, dataType } = array;
  if (!isWritable(store)) {
    const through = store === array.store ? "" : " through its storage transformers";
    throw new ZarrError("STORE_READ_ONLY", `Cannot write array "${array.path}": the store is not writable${through}`);
  }
  const job: PointJob = {
    array,
    executor: await createExecutor(array, { ...options, bypassCache: options.lock === true }),
    value: pointValue(value, resolved.shape, dataType),
    writeEmpty: options.writeEmptyChunks ?? array.config.writeEmptyChunks,
    signal,
  };
  const chunks = groupPointsByChunk(resolved, array.chunkGrid, array.shape);
  const unlocked: ChunkLocker = (_key, write) => write(undefined);
  const holding = options.lock === true ? chunkLocker(store, array.path, signal) : unlocked;
  /** The job writing through a locker's view of the store (as `set` does: empty chunks are written). */
  const through = async (viewStore: Store): Promise<PointJob> => {
    const viaView = Object.create(array, { chunkStore: { value: viewStore } }) as ZarrArray;
    return { ...job, array: viaView, executor: await createExecutor(viaView, { ...options, bypassCache: true }), writeEmpty: true };
  };
  let done = 0;
  await mapConcurrent(
    chunks,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (chunk) => {
      const key = array.chunkKey(chunk.coords);
      const spec = array.chunkSpec(chunk.coords);
      await holding(key, async (viewStore) => {
        const j = viewStore === undefined ? job : await through(viewStore);
        return array.codecs.encodePartial !== undefined ? writeShardPoints(j, key, spec, chunk) : writeChunkPoints(j, key, spec, chunk);
      });
      done++;
      onProgress?.({ done, total: chunks.length });
    },
    { signal },
  );
}

/** `value` as one element per point of a selection of `shape`, or a scalar. */
function pointValue(value: SetValue, shape: number[], dataType: DataType): PointValue {
  const count = shapeSize(shape);
  if (isInputArray(value)) return { values: broadcastValue(value.data, value.shape, value.stride, value.offset, shape, dataType) };
  if (isDataArray(value, dataType)) return { values: flat(adoptData(value, dataType, count)) };
  try {
    return { scalar: dataType.coerce(value) };
  } catch (error) {
    throw asZarrError(error, "INVALID_ARGUMENT", `Cannot write ${describeJson(value)} to a ${dataType.name} array`);
  }
}

function flat(data: DataArray): NdArray {
  return { data, shape: [data.length], stride: [1] };
}

/** Copies an `{ data, shape, stride?, offset? }` value, broadcast like NumPy's, into one element per point. */
function broadcastValue(
  data: DataArray,
  vshape: number[],
  stride: number[] | undefined,
  offset: number | undefined,
  target: number[],
  dataType: DataType,
): NdArray {
  const cannot = (): never => {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `Cannot broadcast a value of shape ${JSON.stringify(vshape)} to the selection's shape ${JSON.stringify(target)}`,
    );
  };
  if (!Array.isArray(vshape) || vshape.length > target.length) cannot();
  let source = data;
  let strides = stride ?? cStrides(vshape);
  let start = offset ?? 0;
  if (data.constructor !== dataType.allocate(0).constructor) {
    // Foreign storage (numbers for a float32 array, ...) is converted; it must be C order.
    const contiguous = start === 0 && strides.every((s, d) => vshape[d] <= 1 || s === cStrides(vshape)[d]);
    if (!contiguous) {
      throw new ZarrError("INVALID_ARGUMENT", `A strided value must use the data type's own storage (${dataType.allocate(0).constructor.name})`);
    }
    source = adoptData(data, dataType, shapeSize(vshape));
    strides = cStrides(vshape);
    start = 0;
  } else if (stride === undefined) adoptData(data, dataType, shapeSize(vshape)); // checks the length
  const lead = target.length - vshape.length;
  const viewStride = target.map((n, d) => {
    if (d < lead) return 0;
    const v = vshape[d - lead];
    if (v === n) return strides[d - lead];
    return v === 1 ? 0 : cannot();
  });
  const count = shapeSize(target);
  const out: NdArray = { data: dataType.allocate(count), shape: target, stride: cStrides(target) };
  const whole = fullSelection(target);
  copyRegion({ data: source, shape: target, stride: viewStride, offset: start }, whole, out, whole, dataType.width);
  return flat(out.data);
}

/** Puts the chunk's points of `value` at `positions` (one per point, in the order of `chunk.points`) of `into`. */
function scatter(value: PointValue, chunk: PointChunk, into: NdArray, positions: Float64Array, dataType: DataType): void {
  const flatInto: NdArray = { data: into.data, shape: [into.data.length / dataType.width], stride: [1] };
  // copyRegion and fillRegion walk an index list in order: of repeated positions the last point wins.
  if ("values" in value) copyRegion(value.values, [{ indices: chunk.points }], flatInto, [{ indices: positions }], dataType.width);
  else fillRegion(flatInto, [{ indices: positions }], value.scalar, dataType);
}

/** Elements of the chunk at `coords` inside the array (fewer than the chunk's at the array's far edges). */
function inArrayCount(array: ZarrArray, coords: readonly number[], chunkShape: readonly number[]): number {
  let n = 1;
  for (let d = 0; d < coords.length; d++) {
    const start = array.chunkGrid.dims[d].start(coords[d]);
    n *= Math.min(chunkShape[d], array.shape[d] - start);
  }
  return n;
}

/** True when the points name every in-array element of the chunk, so its stored elements need not be read. */
function pointsCoverChunk(chunk: PointChunk, chunkSize: number, inArray: number): boolean {
  if (chunk.inChunk.length < inArray) return false;
  const seen = new Uint8Array(chunkSize);
  let distinct = 0;
  for (const c of chunk.inChunk) {
    if (seen[c] === 0) {
      seen[c] = 1;
      distinct++;
    }
  }
  return distinct === inArray;
}

/** Read-modify-write of one chunk: read whole (unless every element is written), points set, encoded, written. */
async function writeChunkPoints(job: PointJob, key: string, spec: ChunkSpec, chunk: PointChunk): Promise<void> {
  const { array, executor, value, writeEmpty, signal } = job;
  const { dataType, fillValue } = array;
  const n = shapeSize(spec.shape);
  const inArray = inArrayCount(array, chunk.coords, spec.shape);
  const covers = pointsCoverChunk(chunk, n, inArray);
  const buffer = await takeChunkBuffer(dataType, spec, array.config.maxChunkBytes, executor.wantsSharedResult);
  const target = buffer.chunk;
  try {
    let stored = false;
    if (!covers) {
      const whole = fullSelection(spec.shape);
      stored = await executor.read({ key, spec, target: { out: target, src: whole, dst: whole }, covers: true });
    }
    // Elements nobody wrote (a missing chunk, or the part of an edge chunk outside the array) hold the fill value.
    if (!stored && (!covers || inArray < n)) dataType.fill(target.data, fillValue, 0, n);
    scatter(value, chunk, target, chunk.inChunk, dataType);
    throwIfAborted(signal);
    if (!writeEmpty && dataType.allEqual(target.data, fillValue, 0, n)) {
      if (stored || covers) await deleteKey(array, key, signal);
      return;
    }
    const bytes = await executor.encode({ key, spec, chunk: target });
    throwIfAborted(signal);
    await writeKey(array, key, bytes, signal);
  } finally {
    buffer.release();
  }
}

/**
 * One shard's points: the shard is read once, whole (a partial update copies its
 * untouched inner chunks, so it needs all of it anyway); the block of its points is
 * decoded from those bytes, the points set in it, and the block written back through the
 * codec's partial encoder, which re-encodes only the inner chunks the block touches.
 */
async function writeShardPoints(job: PointJob, key: string, spec: ChunkSpec, chunk: PointChunk): Promise<void> {
  const { array, value, writeEmpty, signal } = job;
  const { chunkStore, dataType, fillValue, codecs } = array;
  const bytes = await storeSource(chunkStore, key, signal).get(undefined, signal);
  throwIfAborted(signal);
  // A snapshot of the whole shard: the codec takes it whole and consults no cached index
  // (which could be of another version than these bytes).
  const source = memorySource(bytes, { rangesAreCheap: false });
  const shape = blockShape(chunk);
  const selection = blockSelection(chunk);
  const block: NdArray = { data: dataType.allocate(shapeSize(shape)), shape, stride: cStrides(shape) };
  const ctx = { key, signal };
  const found = bytes !== undefined && (await codecs.decodePartialInto(source, spec, { out: block, src: selection, dst: fullSelection(shape) }, ctx));
  if (!found) dataType.fill(block.data, fillValue, 0, shapeSize(shape));
  scatter(value, chunk, block, chunk.inBlock, dataType);
  const encodePartial = codecs.encodePartial as NonNullable<typeof codecs.encodePartial>;
  const updated = await encodePartial(source, { selection, value: { array: block }, writeEmpty }, spec, ctx);
  throwIfAborted(signal);
  if (updated === null) await deleteKey(array, key, signal);
  else await writeKey(array, key, updated, signal);
}
