/**
 * Array-with-scalar arithmetic as NumPy 1.x evaluates `arr - offset` or `arr * scale`
 * for a Python scalar (numcodecs' FixedScaleOffset and Quantize): the result type follows
 * NumPy's value-based promotion, and every operation rounds (floats) or wraps (integers)
 * in that type.
 *
 * JSON does not say whether `10` was a Python int or a float: integral numbers are taken
 * as ints (what Python's `json` gives for `10`), others as floats. This matters only for
 * scalars that do not fit the array's type (e.g. `1000` with a float16 array).
 */
import { roundHalfEven, type TypedArray } from "@zarr/spec";
import { roundToFloat16 } from "./float16.js";
import { castArray } from "./numpy-cast.js";
import { allocateNum, isBigIntType, kindCategory, NUM, type NumType, promoteTypes } from "./numeric-type.js";

/** A Python scalar from a configuration. */
export type PyScalar = { readonly kind: "int"; readonly value: bigint } | { readonly kind: "float"; readonly value: number };

/** A JSON number as Python's `json` module would have read it. */
export function pyScalar(value: number | bigint): PyScalar {
  if (typeof value === "bigint") return { kind: "int", value };
  // integers beyond 2^53 arrive as bigints; a number that large was written as a float (1e300)
  return Number.isSafeInteger(value) ? { kind: "int", value: BigInt(value) } : { kind: "float", value };
}

/** `np.min_scalar_type`, plus whether a non-negative int also fits the signed type of that size. */
function minScalarType(s: PyScalar): { type: NumType; smallUnsigned: boolean } {
  if (s.kind === "float") {
    const v = s.value;
    if (!Number.isFinite(v) || (v > -65000 && v < 65000)) return { type: NUM.f2, smallUnsigned: false };
    if (v > -3.4e38 && v < 3.4e38) return { type: NUM.f4, smallUnsigned: false };
    return { type: NUM.f8, smallUnsigned: false };
  }
  const v = s.value;
  if (v >= 0n) {
    if (v < 256n) return { type: NUM.u1, smallUnsigned: v < 128n };
    if (v < 65536n) return { type: NUM.u2, smallUnsigned: v < 32768n };
    if (v < 2n ** 32n) return { type: NUM.u4, smallUnsigned: v < 2n ** 31n };
    return { type: NUM.u8, smallUnsigned: v < 2n ** 63n };
  }
  if (v >= -128n) return { type: NUM.i1, smallUnsigned: false };
  if (v >= -32768n) return { type: NUM.i2, smallUnsigned: false };
  if (v >= -(2n ** 31n)) return { type: NUM.i4, smallUnsigned: false };
  return { type: NUM.i8, smallUnsigned: false };
}

const SIGNED_OF_SIZE: Record<number, NumType> = { 1: NUM.i1, 2: NUM.i2, 4: NUM.i4, 8: NUM.i8 };

/** True when NumPy can represent the Python int at all (int64 or uint64 range). */
export function pyIntInRange(s: PyScalar): boolean {
  return s.kind === "float" || (s.value >= -(2n ** 63n) && s.value < 2n ** 64n);
}

/** NumPy 1.x's result type of `array(dtype=arr) <op> scalar` (legacy value-based casting). */
export function resultType(arr: NumType, s: PyScalar): NumType {
  const scalarCategory = s.kind === "int" ? 1 : 2;
  if (scalarCategory > kindCategory(arr)) {
    const def = s.kind === "float" ? NUM.f8 : s.value >= 2n ** 63n ? NUM.u8 : NUM.i8;
    return promoteTypes(arr, def);
  }
  const m = minScalarType(s);
  const t = m.smallUnsigned && arr.kind === "i" ? SIGNED_OF_SIZE[m.type.size] : m.type;
  return promoteTypes(arr, t);
}

/** The scalar converted to type `t` (rounded for floats). */
export function scalarIn(s: PyScalar, t: NumType): number | bigint {
  if (isBigIntType(t)) return s.kind === "int" ? s.value : BigInt(Math.trunc(s.value));
  const v = Number(s.value);
  if (t.code === "f4") return Math.fround(v);
  if (t.code === "f2") return roundToFloat16(v);
  return v;
}

/** A binary operation of an array with a scalar. */
export type ScalarOp = "add" | "sub" | "mul" | "div";

/**
 * `out = data <op> scalar` elementwise in type `t` (`data` already of type `t`, `scalar`
 * from {@link scalarIn}). Integers wrap; floats round to `t` after each operation. `div`
 * is only used with float types (NumPy's true division of integers goes through float64).
 */
export function scalarOp(
  op: ScalarOp,
  data: TypedArray,
  t: NumType,
  n: number,
  scalar: number | bigint,
  out: TypedArray = allocateNum(t, n),
): TypedArray {
  if (isBigIntType(t)) {
    const a = data as BigInt64Array;
    const o = out as BigInt64Array;
    const s = scalar as bigint;
    // the typed array store wraps to 64 bits
    if (op === "add") for (let i = 0; i < n; i++) o[i] = a[i] + s;
    else if (op === "sub") for (let i = 0; i < n; i++) o[i] = a[i] - s;
    else if (op === "mul") for (let i = 0; i < n; i++) o[i] = a[i] * s;
    else throw new RangeError("integer true division is done in float64");
    return out;
  }
  const a = data as Float64Array;
  const o = out as Float64Array;
  const s = scalar as number;
  if (t.kind === "f") {
    if (t.code === "f2") {
      // float16 values: sums and products are exact in float64, quotients correctly
      // rounded; one more rounding gives the correctly rounded float16 result.
      if (op === "add") for (let i = 0; i < n; i++) o[i] = roundToFloat16(a[i] + s);
      else if (op === "sub") for (let i = 0; i < n; i++) o[i] = roundToFloat16(a[i] - s);
      else if (op === "mul") for (let i = 0; i < n; i++) o[i] = roundToFloat16(a[i] * s);
      else for (let i = 0; i < n; i++) o[i] = roundToFloat16(a[i] / s);
    } else {
      // float32 stores round once more; float64 arithmetic of float32 operands followed
      // by that rounding is the correctly rounded float32 result.
      if (op === "add") for (let i = 0; i < n; i++) o[i] = a[i] + s;
      else if (op === "sub") for (let i = 0; i < n; i++) o[i] = a[i] - s;
      else if (op === "mul") for (let i = 0; i < n; i++) o[i] = a[i] * s;
      else for (let i = 0; i < n; i++) o[i] = a[i] / s;
    }
    return out;
  }
  if (op === "div") throw new RangeError("integer true division is done in float64");
  // integers up to 32 bits (and bool as 0/1): the typed array store wraps
  if (op === "add") for (let i = 0; i < n; i++) o[i] = a[i] + s;
  else if (op === "sub") for (let i = 0; i < n; i++) o[i] = a[i] - s;
  else if (t.size === 4) for (let i = 0; i < n; i++) o[i] = Math.imul(a[i], s);
  else for (let i = 0; i < n; i++) o[i] = a[i] * s; // |a|, |s| < 2^16: exact
  return out;
}


/** `np.around(data)` in place for float types; integers are unchanged. */
export function aroundInPlace(data: TypedArray, t: NumType, n: number): void {
  if (t.kind !== "f") return;
  const a = data as Float64Array;
  for (let i = 0; i < n; i++) a[i] = roundHalfEven(a[i]);
}

/** Evaluates `data <op> s` the NumPy way: promotes, converts, operates. */
export function applyScalar(
  op: ScalarOp,
  data: TypedArray,
  t: NumType,
  n: number,
  s: PyScalar,
): { data: TypedArray; type: NumType } {
  let r = resultType(t, s);
  if (op === "div" && r.kind !== "f" && r.kind !== "c") r = NUM.f8;
  const converted = r === t ? data : castArray(data, t, r, n);
  const out = scalarOp(op, converted, r, n, scalarIn(s, r), r === t ? allocateNum(r, n) : converted);
  return { data: out, type: r };
}
