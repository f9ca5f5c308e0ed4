/**
 * Strided N-dimensional views over flat element storage, and the one routine every
 * package uses to move elements between them. Copies move whole contiguous runs with
 * `TypedArray.set` wherever the layouts allow, and fall back to a tight strided loop
 * only where they do not.
 */
import type { DataArray, DataType, Scalar, TypedArray } from "./data-type.js";

/**
 * An N-dimensional view: element `(i0, i1, …)` is element
 * `offset + Σ ik * stride[k]` of `data` (in elements; an element spans `width` slots).
 */
export interface NdArray<A extends DataArray = DataArray> {
  data: A;
  shape: number[];
  stride: number[];
  /** Element offset of index `(0, …, 0)`; 0 when absent. */
  offset?: number;
}

/**
 * How one dimension is selected: an arithmetic progression (`step` may be negative,
 * never 0) or an explicit list of indices.
 */
export type DimIndexer = { start: number; step: number; count: number } | { indices: ArrayLike<number> };

/** Number of positions a dimension indexer selects. */
export function indexerLength(sel: DimIndexer): number {
  return "indices" in sel ? sel.indices.length : sel.count;
}

/** Row-major (C order) strides, in elements, for `shape`. */
export function cStrides(shape: readonly number[]): number[] {
  const stride = new Array<number>(shape.length);
  let s = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    stride[d] = s;
    s *= shape[d];
  }
  return stride;
}

/** Product of a shape (1 for 0-d). */
export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const s of shape) n *= s;
  return n;
}

function isTyped(a: DataArray): a is TypedArray {
  return ArrayBuffer.isView(a);
}

interface PreparedDim {
  count: number;
  srcStep: number; // in elements, for ranges
  dstStep: number;
  srcList: Float64Array | undefined; // absolute element offsets for lists
  dstList: Float64Array | undefined;
}

function prepare(
  sel: DimIndexer,
  stride: number,
): { base: number; step: number; list: Float64Array | undefined; count: number } {
  if ("indices" in sel) {
    const n = sel.indices.length;
    const list = new Float64Array(n);
    for (let i = 0; i < n; i++) list[i] = sel.indices[i] * stride;
    return { base: 0, step: 0, list, count: n };
  }
  return { base: sel.start * stride, step: sel.step * stride, list: undefined, count: sel.count };
}

/**
 * Copies the elements `src[srcSel]` into `dst[dstSel]`. Both selections have one
 * indexer per dimension of their array, and selections of equal dimension select the
 * same number of positions. `width` is the data type's slots per element.
 *
 * @example
 * ```ts
 * // copy a 2×2 block from the top-left of a 4×4 array into the bottom-right of another
 * copyRegion(src, [{start: 0, step: 1, count: 2}, {start: 0, step: 1, count: 2}],
 *            dst, [{start: 2, step: 1, count: 2}, {start: 2, step: 1, count: 2}]);
 * ```
 */
export function copyRegion(
  src: NdArray,
  srcSel: readonly DimIndexer[],
  dst: NdArray,
  dstSel: readonly DimIndexer[],
  width = 1,
): void {
  const ndim = srcSel.length;
  if (dstSel.length !== ndim) throw new RangeError("copyRegion: selections differ in dimensionality");
  let srcBase = src.offset ?? 0;
  let dstBase = dst.offset ?? 0;
  let dims: PreparedDim[] = [];
  for (let d = 0; d < ndim; d++) {
    const s = prepare(srcSel[d], src.stride[d]);
    const t = prepare(dstSel[d], dst.stride[d]);
    if (s.count !== t.count) throw new RangeError(`copyRegion: dimension ${d} selects ${s.count} and ${t.count}`);
    if (s.count === 0) return;
    srcBase += s.base;
    dstBase += t.base;
    if (s.count === 1 && s.list === undefined && t.list === undefined) continue; // size-1 dims add nothing
    dims.push({ count: s.count, srcStep: s.step, dstStep: t.step, srcList: s.list, dstList: t.list });
  }
  // Merge adjacent range dimensions that are contiguous in both arrays into one.
  const merged: PreparedDim[] = [];
  for (const dim of dims) {
    const prev = merged[merged.length - 1];
    if (
      prev !== undefined &&
      prev.srcList === undefined &&
      prev.dstList === undefined &&
      dim.srcList === undefined &&
      dim.dstList === undefined &&
      prev.srcStep === dim.srcStep * dim.count &&
      prev.dstStep === dim.dstStep * dim.count
    ) {
      prev.count *= dim.count;
      prev.srcStep = dim.srcStep;
      prev.dstStep = dim.dstStep;
    } else {
      merged.push({ ...dim });
    }
  }
  dims = merged;
  // Move float elements as integer bits: a float passed through a JS number can have a
  // signalling NaN quieted, and Zarr data must survive bit for bit.
  let srcData = src.data;
  let dstData = dst.data;
  if ((srcData instanceof Float32Array || srcData instanceof Float64Array) && srcData.constructor === dstData.constructor) {
    if (srcData instanceof Float64Array) width *= 2;
    srcData = asUint32(srcData);
    dstData = asUint32(dstData as Float32Array | Float64Array);
  }
  if (dims.length === 0) {
    copyElements(srcData, srcBase, 1, dstData, dstBase, 1, 1, width);
    return;
  }
  const inner = dims[dims.length - 1];
  const outer = dims.slice(0, -1);
  const counters = new Array<number>(outer.length).fill(0);
  for (;;) {
    let so = srcBase;
    let to = dstBase;
    for (let k = 0; k < outer.length; k++) {
      const o = outer[k];
      const i = counters[k];
      so += o.srcList === undefined ? i * o.srcStep : o.srcList[i];
      to += o.dstList === undefined ? i * o.dstStep : o.dstList[i];
    }
    if (inner.srcList === undefined && inner.dstList === undefined) {
      copyElements(srcData, so, inner.srcStep, dstData, to, inner.dstStep, inner.count, width);
    } else {
      copyListed(srcData, so, inner, dstData, to, width);
    }
    // odometer over the outer dimensions
    let k = outer.length - 1;
    for (; k >= 0; k--) {
      if (++counters[k] < outer[k].count) break;
      counters[k] = 0;
    }
    if (k < 0) return;
  }
}

function asUint32(a: Float32Array | Float64Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);
}

function copyElements(
  src: DataArray,
  srcOffset: number,
  srcStep: number,
  dst: DataArray,
  dstOffset: number,
  dstStep: number,
  count: number,
  width: number,
): void {
  if (srcStep === 1 && dstStep === 1 && isTyped(src) && isTyped(dst)) {
    const a = srcOffset * width;
    // biome-ignore lint/suspicious/noExplicitAny: same element type on both sides by construction
    (dst as any).set(src.subarray(a, a + count * width), dstOffset * width);
    return;
  }
  if (width === 1) {
    // biome-ignore lint/suspicious/noExplicitAny: generic element move
    const s = src as any;
    // biome-ignore lint/suspicious/noExplicitAny: generic element move
    const t = dst as any;
    for (let i = 0, a = srcOffset, b = dstOffset; i < count; i++, a += srcStep, b += dstStep) t[b] = s[a];
    return;
  }
  // biome-ignore lint/suspicious/noExplicitAny: generic element move
  const s = src as any;
  // biome-ignore lint/suspicious/noExplicitAny: generic element move
  const t = dst as any;
  for (let i = 0, a = srcOffset * width, b = dstOffset * width; i < count; i++) {
    for (let w = 0; w < width; w++) t[b + w] = s[a + w];
    a += srcStep * width;
    b += dstStep * width;
  }
}

function copyListed(src: DataArray, so: number, dim: PreparedDim, dst: DataArray, to: number, width: number): void {
  // biome-ignore lint/suspicious/noExplicitAny: generic element move
  const s = src as any;
  // biome-ignore lint/suspicious/noExplicitAny: generic element move
  const t = dst as any;
  for (let i = 0; i < dim.count; i++) {
    const a = (so + (dim.srcList === undefined ? i * dim.srcStep : dim.srcList[i])) * width;
    const b = (to + (dim.dstList === undefined ? i * dim.dstStep : dim.dstList[i])) * width;
    for (let w = 0; w < width; w++) t[b + w] = s[a + w];
  }
}

/**
 * Calls `run(start, count, step)` for every run of elements of `arr[sel]`, where a run
 * is `count` elements starting at element `start` spaced `step` apart. Used for
 * fills and comparisons without per-element index arithmetic.
 */
export function forEachRun(
  arr: NdArray,
  sel: readonly DimIndexer[],
  run: (start: number, count: number, step: number) => void,
): void {
  if (sel.some((s) => indexerLength(s) === 0)) return;
  const ndim = sel.length;
  if (ndim === 0) {
    run(arr.offset ?? 0, 1, 1);
    return;
  }
  const lastSel = sel[ndim - 1];
  const counters = new Array<number>(ndim - 1).fill(0);
  for (;;) {
    let base = arr.offset ?? 0;
    for (let k = 0; k < ndim - 1; k++) {
      const s = sel[k];
      base += ("indices" in s ? s.indices[counters[k]] : s.start + counters[k] * s.step) * arr.stride[k];
    }
    const st = arr.stride[ndim - 1];
    if ("indices" in lastSel) {
      for (let i = 0; i < lastSel.indices.length; i++) run(base + lastSel.indices[i] * st, 1, 1);
    } else {
      run(base + lastSel.start * st, lastSel.count, lastSel.step * st);
    }
    let k = ndim - 2;
    for (; k >= 0; k--) {
      if (++counters[k] < indexerLength(sel[k])) break;
      counters[k] = 0;
    }
    if (k < 0) return;
  }
}

/** Sets every element of `arr[sel]` to `value`. */
export function fillRegion<S extends Scalar>(
  arr: NdArray,
  sel: readonly DimIndexer[],
  value: S,
  dataType: DataType<S>,
): void {
  forEachRun(arr, sel, (start, count, step) => {
    if (step === 1) dataType.fill(arr.data, value, start, start + count);
    else for (let i = 0; i < count; i++) dataType.setItem(arr.data, start + i * step, value);
  });
}

/** Indexers selecting the whole of `shape`. */
export function fullSelection(shape: readonly number[]): DimIndexer[] {
  return shape.map((n) => ({ start: 0, step: 1, count: n }));
}
