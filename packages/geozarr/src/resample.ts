/**
 * Block-reducing kernels for pyramid levels: each output pixel summarises a
 * `fy × fx` block of input pixels (a partial block at the bottom and right edges
 * summarises what is there). The loops run over typed arrays with precomputed strides
 * and no per-pixel allocation.
 */
import { type DataArray, type TypedArray, ZarrError } from "@zarr/spec";

/**
 * The resampling methods the pyramid builder implements:
 * - `average`: mean of the valid pixels (NaN and `nodata` skipped); integers rounded half away from zero;
 * - `nearest`: the pixel whose centre is nearest the output pixel's centre, i.e. offset
 *   ⌊f/2⌋ in the block (row ⌊(i + ½)·f⌋ of output row i). With an even f the centre is the
 *   corner four pixels share: the one below and right of it (larger row and column) is taken.
 *   In a partial edge block whose centre lies outside the data, the last row/column is taken
 *   (the nearest pixel that exists);
 * - `mode`: the most frequent valid value; ties go to the smallest value, so the result
 *   does not depend on the order of the pixels;
 * - `min`, `max`: of the valid pixels;
 * - `sum`: of the valid pixels, saturating at the data type's range;
 * - `or`: 1 when any valid pixel is non-zero, else 0 (masks).
 * A block with no valid pixel becomes `nodata` (or NaN for floats, 0 for integers, when there is none).
 */
export type ResamplingMethod = "average" | "nearest" | "mode" | "min" | "max" | "sum" | "or";

/** Every {@link ResamplingMethod}. */
export const RESAMPLING_METHODS: readonly ResamplingMethod[] = ["average", "nearest", "mode", "min", "max", "sum", "or"];

/** Parses a method name (`logical_or` is accepted for `or`). */
export function parseResampling(name: string): ResamplingMethod {
  const n = name === "logical_or" || name === "logical-or" ? "or" : name;
  if ((RESAMPLING_METHODS as readonly string[]).includes(n)) return n as ResamplingMethod;
  throw new ZarrError("INVALID_ARGUMENT", `Unknown resampling method "${name}"; use one of ${RESAMPLING_METHODS.join(", ")}`);
}

/** A strided 2-D plane inside a flat array. */
export interface Plane {
  data: TypedArray;
  offset: number;
  /** Rows and columns. */
  height: number;
  width: number;
  rowStride: number;
  colStride: number;
}

/** How values are interpreted while reducing. */
export interface ReduceOptions {
  method: ResamplingMethod;
  fy: number;
  fx: number;
  /** A value that marks missing data (skipped, and written for empty blocks). */
  nodata?: number;
  /** Integer output: rounding and saturation to `[min, max]`. */
  integer?: { min: number; max: number };
  /** Scratch space of at least fy*fx numbers for `mode`. */
  scratch?: Float64Array;
}

/** Integer range of a typed array type (undefined for floats and 64-bit integers). */
export function integerRange(data: DataArray): { min: number; max: number } | undefined {
  if (data instanceof Uint8Array || data instanceof Uint8ClampedArray) return { min: 0, max: 255 };
  if (data instanceof Int8Array) return { min: -128, max: 127 };
  if (data instanceof Uint16Array) return { min: 0, max: 65535 };
  if (data instanceof Int16Array) return { min: -32768, max: 32767 };
  if (data instanceof Uint32Array) return { min: 0, max: 4294967295 };
  if (data instanceof Int32Array) return { min: -2147483648, max: 2147483647 };
  return undefined;
}

/**
 * Reduces `src` (an `H × W` plane) into `dst` (`⌈H/fy⌉ × ⌈W/fx⌉`). Only numeric typed
 * arrays of up to 32 bits (and float64) are reduced; 64-bit integers support `nearest`.
 */
export function reducePlane(src: Plane, dst: Plane, options: ReduceOptions): void {
  const { method, fy, fx } = options;
  const oh = Math.ceil(src.height / fy);
  const ow = Math.ceil(src.width / fx);
  if (dst.height !== oh || dst.width !== ow) {
    throw new ZarrError("INVALID_ARGUMENT", `reducePlane: output is ${dst.height}×${dst.width}, expected ${oh}×${ow}`);
  }
  if (src.data instanceof BigInt64Array || src.data instanceof BigUint64Array) {
    if (method !== "nearest") throw new ZarrError("UNSUPPORTED", `Resampling "${method}" of 64-bit integers is not supported (use "nearest")`);
    nearestBig(src, dst, fy, fx);
    return;
  }
  switch (method) {
    case "nearest":
      nearest(src, dst, fy, fx);
      break;
    case "average":
    case "sum":
      sumOrMean(src, dst, options, method === "average");
      break;
    case "min":
    case "max":
      extreme(src, dst, options, method === "max");
      break;
    case "or":
      anyNonZero(src, dst, options);
      break;
    case "mode":
      mode(src, dst, options);
      break;
  }
}

function emptyValue(options: ReduceOptions): number {
  return options.nodata ?? (options.integer === undefined ? Number.NaN : 0);
}

function nearest(src: Plane, dst: Plane, fy: number, fx: number): void {
  const s = src.data as Float64Array;
  const d = dst.data as Float64Array;
  const cy = Math.floor(fy / 2);
  const cx = Math.floor(fx / 2);
  for (let oy = 0; oy < dst.height; oy++) {
    const y0 = oy * fy;
    const rowBase = src.offset + (y0 + Math.min(cy, src.height - 1 - y0)) * src.rowStride;
    let di = dst.offset + oy * dst.rowStride;
    for (let ox = 0; ox < dst.width; ox++, di += dst.colStride) {
      const x0 = ox * fx;
      d[di] = s[rowBase + (x0 + Math.min(cx, src.width - 1 - x0)) * src.colStride];
    }
  }
}

function nearestBig(src: Plane, dst: Plane, fy: number, fx: number): void {
  const s = src.data as BigInt64Array;
  const d = dst.data as BigInt64Array;
  const cy = Math.floor(fy / 2);
  const cx = Math.floor(fx / 2);
  for (let oy = 0; oy < dst.height; oy++) {
    const y0 = oy * fy;
    const y = y0 + Math.min(cy, src.height - 1 - y0);
    for (let ox = 0; ox < dst.width; ox++) {
      const x0 = ox * fx;
      const x = x0 + Math.min(cx, src.width - 1 - x0);
      d[dst.offset + oy * dst.rowStride + ox * dst.colStride] = s[src.offset + y * src.rowStride + x * src.colStride];
    }
  }
}

/** Rounds half away from zero and saturates. */
function toInteger(v: number, range: { min: number; max: number }): number {
  const r = v < 0 ? -Math.round(-v) : Math.round(v);
  return Math.min(range.max, Math.max(range.min, r));
}

function sumOrMean(src: Plane, dst: Plane, options: ReduceOptions, mean: boolean): void {
  const { fy, fx, nodata, integer } = options;
  const s = src.data as Float64Array;
  const d = dst.data as Float64Array;
  const hasNodata = nodata !== undefined;
  const empty = emptyValue(options);
  for (let oy = 0; oy < dst.height; oy++) {
    const y0 = oy * fy;
    const y1 = Math.min(y0 + fy, src.height);
    for (let ox = 0; ox < dst.width; ox++) {
      const x0 = ox * fx;
      const x1 = Math.min(x0 + fx, src.width);
      let sum = 0;
      let count = 0;
      for (let y = y0; y < y1; y++) {
        let i = src.offset + y * src.rowStride + x0 * src.colStride;
        for (let x = x0; x < x1; x++, i += src.colStride) {
          const v = s[i];
          if (Number.isNaN(v) || (hasNodata && v === nodata)) continue;
          sum += v;
          count++;
        }
      }
      let out = count === 0 ? empty : mean ? sum / count : sum;
      if (count > 0 && integer !== undefined) out = toInteger(out, integer);
      d[dst.offset + oy * dst.rowStride + ox * dst.colStride] = out;
    }
  }
}

function extreme(src: Plane, dst: Plane, options: ReduceOptions, max: boolean): void {
  const { fy, fx, nodata } = options;
  const s = src.data as Float64Array;
  const d = dst.data as Float64Array;
  const hasNodata = nodata !== undefined;
  const empty = emptyValue(options);
  for (let oy = 0; oy < dst.height; oy++) {
    const y0 = oy * fy;
    const y1 = Math.min(y0 + fy, src.height);
    for (let ox = 0; ox < dst.width; ox++) {
      const x0 = ox * fx;
      const x1 = Math.min(x0 + fx, src.width);
      let best = max ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
      let found = false;
      for (let y = y0; y < y1; y++) {
        let i = src.offset + y * src.rowStride + x0 * src.colStride;
        for (let x = x0; x < x1; x++, i += src.colStride) {
          const v = s[i];
          if (Number.isNaN(v) || (hasNodata && v === nodata)) continue;
          found = true;
          if (max ? v > best : v < best) best = v;
        }
      }
      d[dst.offset + oy * dst.rowStride + ox * dst.colStride] = found ? best : empty;
    }
  }
}

function anyNonZero(src: Plane, dst: Plane, options: ReduceOptions): void {
  const { fy, fx, nodata } = options;
  const s = src.data as Float64Array;
  const d = dst.data as Float64Array;
  const hasNodata = nodata !== undefined;
  for (let oy = 0; oy < dst.height; oy++) {
    const y0 = oy * fy;
    const y1 = Math.min(y0 + fy, src.height);
    for (let ox = 0; ox < dst.width; ox++) {
      const x0 = ox * fx;
      const x1 = Math.min(x0 + fx, src.width);
      let any = 0;
      for (let y = y0; y < y1 && any === 0; y++) {
        let i = src.offset + y * src.rowStride + x0 * src.colStride;
        for (let x = x0; x < x1; x++, i += src.colStride) {
          const v = s[i];
          if (Number.isNaN(v) || (hasNodata && v === nodata)) continue;
          if (v !== 0) {
            any = 1;
            break;
          }
        }
      }
      d[dst.offset + oy * dst.rowStride + ox * dst.colStride] = any;
    }
  }
}

function mode(src: Plane, dst: Plane, options: ReduceOptions): void {
  const { fy, fx, nodata } = options;
  const s = src.data as Float64Array;
  const d = dst.data as Float64Array;
  const hasNodata = nodata !== undefined;
  const empty = emptyValue(options);
  const scratch = options.scratch !== undefined && options.scratch.length >= fy * fx ? options.scratch : new Float64Array(fy * fx);
  for (let oy = 0; oy < dst.height; oy++) {
    const y0 = oy * fy;
    const y1 = Math.min(y0 + fy, src.height);
    for (let ox = 0; ox < dst.width; ox++) {
      const x0 = ox * fx;
      const x1 = Math.min(x0 + fx, src.width);
      let n = 0;
      for (let y = y0; y < y1; y++) {
        let i = src.offset + y * src.rowStride + x0 * src.colStride;
        for (let x = x0; x < x1; x++, i += src.colStride) {
          const v = s[i];
          if (Number.isNaN(v) || (hasNodata && v === nodata)) continue;
          scratch[n++] = v;
        }
      }
      let out = empty;
      if (n > 0) {
        const vals = scratch.subarray(0, n).sort();
        let bestCount = 0;
        let run = 1;
        for (let k = 1; k <= n; k++) {
          if (k < n && vals[k] === vals[k - 1]) {
            run++;
            continue;
          }
          // Ascending order: a later run must be strictly longer, so ties keep the smallest value.
          if (run > bestCount) {
            bestCount = run;
            out = vals[k - 1];
          }
          run = 1;
        }
      }
      d[dst.offset + oy * dst.rowStride + ox * dst.colStride] = out;
    }
  }
}
