/**
 * Pointwise (vectorised) selections, resolved against an array's shape: integer
 * coordinate arrays that broadcast against each other like NumPy's fancy indexing, or a
 * boolean mask of the array's full shape. Either becomes one flat list of points (one
 * index per dimension for each) and the shape of the result.
 */
import { shapeSize, ZarrError } from "@zarr/spec";

/**
 * An N-dimensional integer index array: `data` in C order, `shape` its dimensions.
 * A plain list or typed array is a 1-D one.
 */
export interface IndexArray {
  readonly data: ArrayLike<number | bigint>;
  readonly shape: readonly number[];
}

/**
 * The indices along one dimension of a coordinate selection: an integer (broadcast to
 * every point), a list or typed array of integers, or an N-dimensional {@link IndexArray}.
 * Negative indices count from the end.
 */
export type CoordinateArray = number | bigint | ArrayLike<number | bigint> | IndexArray;

/** A coordinate selection: one {@link CoordinateArray} per dimension of the array. */
export type CoordinateSelection = readonly CoordinateArray[];

/** A boolean mask over the whole array: `data` (booleans or 0/1) in C order, `shape` the array's. */
export interface BooleanMask {
  readonly data: ArrayLike<boolean | number>;
  readonly shape: readonly number[];
}

/** Points selected from an array: `coords[d][p]` is point `p`'s index along dimension `d`. */
export interface ResolvedPoints {
  /** Shape of the selection's result (its element count is the number of points). */
  readonly shape: number[];
  /** One list per array dimension, each as long as there are points; in-bounds, non-negative. */
  readonly coords: Float64Array[];
  readonly count: number;
}

function invalid(message: string): never {
  throw new ZarrError("INVALID_SELECTION", message);
}

/** "dimension 1" or "dimension 1 (lat)". */
export function dimLabel(d: number, names: readonly (string | null)[] | undefined): string {
  const name = names?.[d];
  return typeof name === "string" ? `dimension ${d} (${name})` : `dimension ${d}`;
}

/** One dimension's indices as an N-dimensional array (a scalar is 0-dimensional). */
function asIndexArray(entry: CoordinateArray, label: string): IndexArray {
  if (typeof entry === "number" || typeof entry === "bigint") return { data: [entry], shape: [] };
  if (typeof entry === "object" && entry !== null) {
    if (ArrayBuffer.isView(entry) || Array.isArray(entry)) {
      const list = entry as ArrayLike<number | bigint>;
      return { data: list, shape: [list.length] };
    }
    if ("data" in entry && "shape" in entry) {
      const { data, shape } = entry as IndexArray;
      if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n >= 0)) {
        invalid(`The index array for ${label} has an invalid shape ${JSON.stringify(shape)}`);
      }
      if (data === null || typeof data !== "object" || typeof data.length !== "number") {
        invalid(`The index array for ${label} has no data array`);
      }
      if (data.length !== shapeSize(shape)) {
        invalid(`The index array for ${label} holds ${data.length} indices, but its shape ${JSON.stringify(shape)} needs ${shapeSize(shape)}`);
      }
      return { data, shape };
    }
  }
  return invalid(`Cannot select ${label} pointwise with ${describe(entry)}: give an integer, a list of integers or { data, shape }`);
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (typeof v === "object") return v.constructor?.name ?? "an object";
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

/** NumPy's broadcast of `shapes` (aligned at their last dimension), or INVALID_SELECTION. */
export function broadcastShapes(shapes: readonly (readonly number[])[]): number[] {
  const ndim = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(ndim).fill(1);
  for (const s of shapes) {
    for (let k = 0; k < s.length; k++) {
      const d = ndim - s.length + k;
      if (s[k] === out[d] || s[k] === 1) continue;
      if (out[d] === 1) out[d] = s[k];
      else invalid(`Index arrays of shapes ${shapes.map((x) => JSON.stringify(x)).join(", ")} do not broadcast together`);
    }
  }
  return out;
}

/** Strides (in elements) reading an array of `shape` as if broadcast to `target`: 0 along broadcast dimensions. */
function broadcastStrides(shape: readonly number[], target: readonly number[]): number[] {
  const lead = target.length - shape.length;
  const strides = new Array<number>(target.length).fill(0);
  let s = 1;
  for (let k = shape.length - 1; k >= 0; k--) {
    if (shape[k] !== 1) strides[lead + k] = s;
    s *= shape[k];
  }
  return strides;
}

/**
 * Resolves a coordinate selection against an array of `shape`: broadcasts the index
 * arrays, wraps negative indices and checks bounds (`OUT_OF_BOUNDS`, like an integer
 * index of an orthogonal selection, naming the dimension and the index).
 */
export function resolveCoordinates(
  selection: CoordinateSelection,
  shape: readonly number[],
  names?: readonly (string | null)[],
): ResolvedPoints {
  if (!Array.isArray(selection)) invalid("A coordinate selection must be an array with one index array per dimension");
  if (selection.length !== shape.length) {
    invalid(`A coordinate selection needs one index array per dimension: the array has ${shape.length}, the selection ${selection.length}`);
  }
  const arrays = selection.map((entry, d) => asIndexArray(entry, dimLabel(d, names)));
  const outShape = broadcastShapes(arrays.map((a) => a.shape));
  const count = shapeSize(outShape);
  const coords = arrays.map((a, d) => gatherIndices(a, outShape, count, shape[d], dimLabel(d, names)));
  return { shape: outShape, coords, count };
}

/** One dimension's indices for every point of the broadcast result, checked and wrapped. */
function gatherIndices(a: IndexArray, outShape: readonly number[], count: number, length: number, label: string): Float64Array {
  const out = new Float64Array(count);
  const strides = broadcastStrides(a.shape, outShape);
  const ndim = outShape.length;
  const counter = new Array<number>(ndim).fill(0);
  let offset = 0;
  for (let p = 0; p < count; p++) {
    out[p] = checkedIndex(a.data[offset], length, label);
    // Advance the C-order odometer over the result, moving the source offset along.
    for (let d = ndim - 1; d >= 0; d--) {
      if (++counter[d] < outShape[d]) {
        offset += strides[d];
        break;
      }
      offset -= strides[d] * (outShape[d] - 1);
      counter[d] = 0;
    }
  }
  return out;
}

function checkedIndex(v: number | bigint, length: number, label: string): number {
  const i = typeof v === "bigint" ? Number(v) : v;
  if (typeof i !== "number" || !Number.isInteger(i)) invalid(`Index arrays must hold integers: found ${describe(v)} for ${label}`);
  const j = i < 0 ? i + length : i;
  if (j < 0 || j >= length) throw new ZarrError("OUT_OF_BOUNDS", `Index ${i} is out of bounds for ${label} of length ${length}`);
  return j;
}

/**
 * Resolves a boolean mask of the array's full shape: its true elements, in C order, are
 * the points (the result is 1-D). A mask of another shape is `INVALID_SELECTION`.
 */
export function resolveMask(mask: BooleanMask, shape: readonly number[]): ResolvedPoints {
  if (mask === null || typeof mask !== "object" || !("data" in mask) || !("shape" in mask)) {
    invalid("A mask selection must be { data, shape } with the array's shape");
  }
  const { data } = mask;
  const mshape = mask.shape;
  const sameShape = Array.isArray(mshape) && mshape.length === shape.length && mshape.every((n, d) => n === shape[d]);
  if (!sameShape) {
    invalid(`The mask has shape ${JSON.stringify(mshape)}, but the array has shape ${JSON.stringify(shape)}`);
  }
  const size = shapeSize(shape);
  if (data === null || typeof data !== "object" || data.length !== size) {
    invalid(`The mask's data must hold ${size} elements (shape ${JSON.stringify(shape)}), got ${data?.length ?? describe(data)}`);
  }
  let count = 0;
  for (let i = 0; i < size; i++) if (data[i]) count++;
  const coords = shape.map(() => new Float64Array(count));
  const ndim = shape.length;
  const counter = new Array<number>(ndim).fill(0);
  for (let i = 0, p = 0; i < size; i++) {
    if (data[i]) {
      for (let d = 0; d < ndim; d++) coords[d][p] = counter[d];
      p++;
    }
    for (let d = ndim - 1; d >= 0; d--) {
      if (++counter[d] < shape[d]) break;
      counter[d] = 0;
    }
  }
  return { shape: [count], coords, count };
}
