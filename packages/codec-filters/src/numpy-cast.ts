/**
 * NumPy's `astype` between numeric types, element for element as NumPy 1.x does it on
 * x86-64 (where the numcodecs reference data comes from):
 *
 * - integer → narrower integer wraps (two's complement truncation);
 * - float → integer truncates toward zero; values outside the target's range (and NaN)
 *   give what NumPy's x86-64 conversion loops give, e.g. int32 min for int32 and 0 for
 *   int8/int16 from anything outside ±2^31 (C leaves this undefined; NumPy inherits it,
 *   and ARM machines give other results);
 * - integer/float → float rounds to nearest, ties to even, overflowing to ±Infinity;
 * - anything → bool is `x != 0` (NaN is true); complex → real keeps the real part.
 */
import type { TypedArray } from "@zarr/spec";
import { roundToFloat16 } from "./float16.js";
import { allocateNum, isBigIntType, type NumType, NUM, slotsOf } from "./numeric-type.js";

const TWO31 = 2 ** 31;
const TWO63 = 2 ** 63;
const INT64_MIN = -(2n ** 63n);
const SIGN64 = 2n ** 63n;

/** x86 `cvttsd2si` to 32 bits: truncation, or int32 min when out of range or NaN. */
function cvt32(v: number): number {
  return v > -2147483649 && v < 2147483648 ? Math.trunc(v) | 0 : -2147483648;
}

/** x86 `cvttsd2si` to 64 bits: truncation, or int64 min when out of range or NaN. */
function cvt64(v: number): bigint {
  return v >= -TWO63 && v < TWO63 ? BigInt(Math.trunc(v)) : INT64_MIN;
}

/** Rounds a bigint to the nearest float32 with one rounding (round-to-odd first). */
export function bigintToFloat32(v: bigint): number {
  const a = v < 0n ? -v : v;
  if (a < 2n ** 53n) return Math.fround(Number(v));
  const bits = a.toString(2).length;
  const shift = BigInt(bits - 53);
  let hi = a >> shift;
  if (hi << shift !== a) hi |= 1n; // sticky bit: keeps ties from being mistaken
  const r = Math.fround(Number(hi) * 2 ** (bits - 53));
  return v < 0n ? -r : r;
}

/** The real components of a complex array, exactly (float32 components are exact as float64). */
function realParts(src: TypedArray, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (src as Float64Array)[2 * i];
  return out;
}

function floatToInt(src: ArrayLike<number>, n: number, to: NumType, out: TypedArray, half: boolean): void {
  if (to.code === "i8") {
    const o = out as BigInt64Array;
    for (let i = 0; i < n; i++) o[i] = cvt64(src[i]);
  } else if (to.code === "u8") {
    const o = out as BigUint64Array;
    for (let i = 0; i < n; i++) {
      const x = src[i];
      o[i] = x >= TWO63 ? cvt64(x - TWO63) ^ SIGN64 : cvt64(x);
    }
  } else if (to.code === "u4") {
    // NumPy's vectorised float32/64 loops convert x ≥ 2^31 as (x - 2^31) with the top bit
    // flipped; its float16 loop takes the low half of a 64-bit conversion. (The scalar
    // tail of the vector loops does the latter too, so outside [-2^31, 2^32) NumPy's
    // result depends on an element's position; only in-range values are reproducible.)
    const o = out as Uint32Array;
    for (let i = 0; i < n; i++) {
      const x = src[i];
      if (half) o[i] = Number(BigInt.asUintN(32, cvt64(x)));
      else o[i] = x >= TWO31 ? cvt32(x - TWO31) ^ 0x80000000 : cvt32(x);
    }
  } else {
    // int8…int32, uint8, uint16: through int32, then wrapped by the typed array store
    const o = out as Int32Array;
    for (let i = 0; i < n; i++) o[i] = cvt32(src[i]);
  }
}

/**
 * Casts `n` elements of `src` (type `from`) to type `to`, into `out` (allocated when
 * omitted). Returns `out`.
 */
export function castArray(
  src: TypedArray,
  from: NumType,
  to: NumType,
  n: number,
  out: TypedArray = allocateNum(to, n),
): TypedArray {
  if (from.code === to.code) {
    // biome-ignore lint/suspicious/noExplicitAny: same element type on both sides
    (out as any).set(src.subarray(0, n * slotsOf(from)));
    return out;
  }
  if (to.kind === "b") {
    const o = out as Uint8Array;
    if (from.kind === "c") {
      const s = src as Float64Array;
      for (let i = 0; i < n; i++) o[i] = s[2 * i] !== 0 || s[2 * i + 1] !== 0 ? 1 : 0;
    } else if (isBigIntType(from)) {
      const s = src as BigInt64Array;
      for (let i = 0; i < n; i++) o[i] = s[i] !== 0n ? 1 : 0;
    } else {
      const s = src as Float64Array;
      for (let i = 0; i < n; i++) o[i] = s[i] !== 0 ? 1 : 0; // NaN is true
    }
    return out;
  }
  if (to.kind === "c") {
    const component = to.code === "c8" ? NUM.f4 : NUM.f8;
    const o = out as Float64Array;
    if (from.kind === "c") {
      const fromComponent = from.code === "c8" ? NUM.f4 : NUM.f8;
      castArray(src, fromComponent, component, 2 * n, out);
    } else {
      const re = castArray(src, from, component, n) as Float64Array;
      for (let i = 0; i < n; i++) {
        o[2 * i] = re[i];
        o[2 * i + 1] = 0;
      }
    }
    return out;
  }
  if (from.kind === "c") return castArray(realParts(src, n), NUM.f8, to, n, out);
  const toBig = isBigIntType(to);
  const fromBig = isBigIntType(from);
  if (from.kind === "b" || ((from.kind === "i" || from.kind === "u") && !fromBig)) {
    // small integers (and bools) are exact as JS numbers
    const s = src as Int32Array;
    if (toBig) {
      const o = out as BigInt64Array;
      for (let i = 0; i < n; i++) o[i] = BigInt(s[i]);
    } else if (to.code === "f2") {
      const o = out as Float32Array;
      for (let i = 0; i < n; i++) o[i] = roundToFloat16(s[i]);
    } else {
      // typed array conversion: wraps into narrower integers, rounds once into float32
      (out as Int32Array).set(s.subarray(0, n));
    }
    return out;
  }
  if (fromBig) {
    const s = src as BigInt64Array;
    if (toBig) (out as BigInt64Array).set(s.subarray(0, n));
    else if (to.kind === "f") {
      const o = out as Float64Array;
      if (to.code === "f8") for (let i = 0; i < n; i++) o[i] = Number(s[i]);
      else if (to.code === "f4") for (let i = 0; i < n; i++) o[i] = bigintToFloat32(s[i]);
      else for (let i = 0; i < n; i++) o[i] = roundToFloat16(Number(s[i]));
    } else {
      const o = out as Int32Array;
      if (to.code === "u4") for (let i = 0; i < n; i++) o[i] = Number(BigInt.asUintN(32, s[i]));
      else for (let i = 0; i < n; i++) o[i] = Number(BigInt.asIntN(32, s[i]));
    }
    return out;
  }
  // from a float
  const s = src as Float64Array;
  if (to.kind === "f") {
    if (to.code === "f2") {
      const o = out as Float32Array;
      for (let i = 0; i < n; i++) o[i] = roundToFloat16(s[i]);
    } else (out as Float64Array).set(s.subarray(0, n));
    return out;
  }
  floatToInt(s, n, to, out, from.code === "f2");
  return out;
}
