/**
 * IEEE 754 binary16: exact conversions between JavaScript numbers (and float32 bit
 * patterns) and float16 bit patterns, NaN payloads included, and the float16
 * {@link FloatFormat}. Loaded with the `float16` data type.
 */
import { roundHalfEven } from "@zarr/spec";
import { type FloatFormat, float64FromWords, float64Words, words } from "./numeric-parts.js";


/**
 * The number a float16 (IEEE 754 binary16) bit pattern stands for. Exact: every
 * float16 is a float64. A NaN keeps its 10-bit payload in the top mantissa bits.
 *
 * @example
 * ```ts
 * float16BitsToNumber(0x3c00) // 1
 * float16BitsToNumber(0x7bff) // 65504
 * ```
 */
export function float16BitsToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (exp === 0x1f) {
    if (m === 0) return sign * Infinity;
    return float64FromWords((((bits & 0x8000) << 16) | 0x7ff00000 | (m << 10)) >>> 0, 0);
  }
  if (exp === 0) return sign * m * 2 ** -24;
  return sign * (1024 + m) * 2 ** (exp - 25);
}

/**
 * The float16 bit pattern nearest to `x`: round to nearest, ties to even; beyond the
 * float16 range (|x| ≥ 65520) ±Infinity; a NaN keeps the top 10 bits of its payload
 * (a quiet NaN when those are all zero).
 *
 * @example
 * ```ts
 * numberToFloat16Bits(1) // 0x3c00
 * numberToFloat16Bits(65519) // 0x7bff (65504)
 * numberToFloat16Bits(65520) // 0x7c00 (Infinity)
 * ```
 */
export function numberToFloat16Bits(x: number): number {
  if (Number.isNaN(x)) {
    float64Words(x, words);
    const hi = words[0];
    let m = (hi >>> 10) & 0x3ff;
    if (m === 0) m = 0x200;
    return ((hi >>> 16) & 0x8000) | 0x7c00 | m;
  }
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00; // also Infinity
  if (a < 2 ** -14) return sign | roundHalfEven(a * 2 ** 24); // subnormal (1024 = smallest normal)
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  const m = roundHalfEven(a / 2 ** (e - 10)); // in [1024, 2048]; 2048 carries into the exponent
  return sign | (((e + 14) << 10) + m);
}

/** float16 bits → float32 bits, exact. */
function float16ToFloat32BitsSlow(h: number): number {
  const sign = (h & 0x8000) << 16;
  const exp = (h >>> 10) & 0x1f;
  let m = h & 0x3ff;
  if (exp === 0x1f) return (sign | 0x7f800000 | (m << 13)) >>> 0;
  if (exp === 0) {
    if (m === 0) return sign >>> 0;
    let e = -14;
    while ((m & 0x400) === 0) {
      m <<= 1;
      e--;
    }
    return (sign | ((e + 127) << 23) | ((m & 0x3ff) << 13)) >>> 0;
  }
  return (sign | ((exp + 112) << 23) | (m << 13)) >>> 0;
}

let halfToSingleTable: Uint32Array | undefined;

/** A 256 KiB table from every float16 bit pattern to its float32 bit pattern, built on first use. */
export function float16ToFloat32Table(): Uint32Array {
  if (halfToSingleTable === undefined) {
    const t = new Uint32Array(65536);
    for (let h = 0; h < 65536; h++) t[h] = float16ToFloat32BitsSlow(h);
    halfToSingleTable = t;
  }
  return halfToSingleTable;
}

/** float32 bits → nearest float16 bits (ties to even; NaN keeps the top 10 payload bits). */
export function float32BitsToFloat16Bits(b: number): number {
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const mant = b & 0x7fffff;
  if (exp === 0xff) {
    if (mant === 0) return sign | 0x7c00;
    const m = mant >>> 13;
    return sign | 0x7c00 | (m === 0 ? 0x200 : m);
  }
  const e = exp - 127;
  if (e > 15) return sign | 0x7c00;
  if (e >= -14) {
    const m = mant >>> 13;
    const rest = mant & 0x1fff;
    let h = ((e + 15) << 10) | m;
    if (rest > 0x1000 || (rest === 0x1000 && (m & 1) === 1)) h++; // may carry into the exponent, up to Infinity
    return sign | h;
  }
  if (exp === 0) return sign; // float32 subnormals are far below float16's range
  const shift = -(e + 1); // 14..126
  if (shift > 24) return sign;
  const sig = mant | 0x800000;
  const m = sig >>> shift;
  const rest = sig & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  return sign | (rest > half || (rest === half && (m & 1) === 1) ? m + 1 : m);
}

/** Decodes float16 bit patterns into float32 bit patterns (the storage of float16 arrays). */
export function float16ArrayToFloat32Bits(src: Uint16Array, out: Uint32Array): void {
  const table = float16ToFloat32Table();
  const n = src.length;
  for (let i = 0; i < n; i++) out[i] = table[src[i]];
}

/** Encodes float32 bit patterns as float16 bit patterns, rounding to nearest even. */
export function float32BitsToFloat16Array(src: Uint32Array, out: Uint16Array): void {
  const n = src.length;
  for (let i = 0; i < n; i++) out[i] = float32BitsToFloat16Bits(src[i]);
}

/** float16. */
export const FLOAT16: FloatFormat = {
  bits: 16,
  round: (x) => (Number.isNaN(x) ? x : float16BitsToNumber(numberToFloat16Bits(x))),
  toHex: (x) => numberToFloat16Bits(x).toString(16).padStart(4, "0"),
  fromHex: (hex) => float16BitsToNumber(Number.parseInt(hex, 16)),
  nanHex: "7e00",
};
