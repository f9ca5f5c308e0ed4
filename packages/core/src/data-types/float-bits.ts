/**
 * Exact conversions between JavaScript numbers and the bit patterns of IEEE 754
 * binary16/32/64, including NaN payloads.
 *
 * A NaN read from float16/float32 data is carried in a JS number (a float64) with its
 * payload in the top mantissa bits, as the hardware widening conversion does; the
 * conversions back keep those top bits. V8 keeps the bits of a NaN held in a variable,
 * an object property or a Float64Array, so a fill value like `"0x7fc00001"` survives
 * until it is written. Writes go through integer views (never through a float32 store,
 * which would quiet or truncate the payload).
 */
import { describeJson, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";
import { MACHINE_LITTLE_ENDIAN } from "./byte-order.js";

const scratch = new ArrayBuffer(8);
const scratchF64 = new Float64Array(scratch);
const scratchF32 = new Float32Array(scratch, 0, 1);
const scratchU32 = new Uint32Array(scratch);
const HI = MACHINE_LITTLE_ENDIAN ? 1 : 0;
const LO = MACHINE_LITTLE_ENDIAN ? 0 : 1;

/** The high and low 32-bit words of a float64; written to `out`. */
function float64Words(x: number, out: Uint32Array): void {
  scratchF64[0] = x;
  out[0] = scratchU32[HI];
  out[1] = scratchU32[LO];
}

/** The float64 with the given high and low 32-bit words. */
export function float64FromWords(hi: number, lo: number): number {
  scratchU32[HI] = hi;
  scratchU32[LO] = lo;
  return scratchF64[0];
}

const words = new Uint32Array(2);

/** High 32-bit word of a float64 (sign, exponent, top 20 mantissa bits). */
export function float64HighWord(x: number): number {
  float64Words(x, words);
  return words[0];
}

/** Low 32-bit word of a float64. */
export function float64LowWord(x: number): number {
  float64Words(x, words);
  return words[1];
}

// ---------------------------------------------------------------------------- float32

/** The number a float32 bit pattern stands for (NaN payloads kept in the top mantissa bits). */
export function float32BitsToNumber(bits: number): number {
  bits >>>= 0;
  if ((bits & 0x7f800000) === 0x7f800000 && (bits & 0x7fffff) !== 0) {
    const m = bits & 0x7fffff;
    return float64FromWords(((bits & 0x80000000) | 0x7ff00000 | (m >>> 3)) >>> 0, ((m & 7) << 29) >>> 0);
  }
  scratchU32[0] = bits;
  return scratchF32[0];
}

/** The float32 bit pattern of `x` rounded to float32 (NaN payload: top 23 mantissa bits). */
export function numberToFloat32Bits(x: number): number {
  if (Number.isNaN(x)) {
    float64Words(x, words);
    const hi = words[0];
    let m = ((hi & 0xfffff) << 3) | (words[1] >>> 29);
    if (m === 0) m = 0x400000; // payload only in bits float32 cannot hold: a quiet NaN
    return ((hi & 0x80000000) | 0x7f800000 | m) >>> 0;
  }
  scratchF32[0] = x;
  return scratchU32[0];
}

// ---------------------------------------------------------------------------- float16

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
    if (m === 0) return sign * Number.POSITIVE_INFINITY;
    return float64FromWords((((bits & 0x8000) << 16) | 0x7ff00000 | (m << 10)) >>> 0, 0);
  }
  if (exp === 0) return sign * m * 2 ** -24;
  return sign * (1024 + m) * 2 ** (exp - 25);
}

/** Rounds a non-negative number of at most 2^12 to the nearest integer, ties to even. */
function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5 || (d === 0.5 && (f & 1) === 1)) return f + 1;
  return f;
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

// ------------------------------------------------------------------- fill value JSON

/** Rounds `x` to the nearest value of the float type (`bits` 16, 32 or 64). */
export function roundToFloat(x: number, bits: 16 | 32 | 64): number {
  if (bits === 64 || Number.isNaN(x)) return x;
  if (bits === 32) return Math.fround(x);
  return float16BitsToNumber(numberToFloat16Bits(x));
}

/** The raw bits of `x` as the float type, as lowercase hex digits (4, 8 or 16). */
export function floatToHex(x: number, bits: 16 | 32 | 64): string {
  if (bits === 16) return numberToFloat16Bits(x).toString(16).padStart(4, "0");
  if (bits === 32) return numberToFloat32Bits(x).toString(16).padStart(8, "0");
  float64Words(x, words);
  return words[0].toString(16).padStart(8, "0") + words[1].toString(16).padStart(8, "0");
}

/** The number whose raw bits, as the float type, are the given hex digits (already validated). */
export function floatFromHex(hex: string, bits: 16 | 32 | 64): number {
  if (bits === 16) return float16BitsToNumber(Number.parseInt(hex, 16));
  if (bits === 32) return float32BitsToNumber(Number.parseInt(hex, 16));
  return float64FromWords(Number.parseInt(hex.slice(0, 8), 16), Number.parseInt(hex.slice(8), 16));
}

const HEX = /^0x[0-9a-fA-F]+$/;

/**
 * Parses a float fill value: a JSON number (rounded to the nearest value of the type),
 * `"NaN"`, `"Infinity"`, `"-Infinity"`, or `"0x…"` with exactly `bits / 4` hex digits
 * holding the raw bits (the only way to carry a NaN payload, a signalling NaN or a
 * negative NaN). Throws a `MetadataError` at `path` otherwise.
 *
 * @example
 * ```ts
 * parseFloatFillValue("0x7e00", 16, ["fill_value"]) // NaN
 * parseFloatFillValue(0.1, 32, ["fill_value"])      // 0.10000000149011612
 * ```
 */
export function parseFloatFillValue(json: JsonValue, bits: 16 | 32 | 64, path: JsonPath): number {
  if (typeof json === "number") return roundToFloat(json, bits);
  if (typeof json === "bigint") return roundToFloat(Number(json), bits);
  if (typeof json === "string") {
    if (json === "NaN") return Number.NaN;
    if (json === "Infinity") return Number.POSITIVE_INFINITY;
    if (json === "-Infinity") return Number.NEGATIVE_INFINITY;
    if (HEX.test(json)) {
      if (json.length - 2 !== bits / 4) {
        throw new MetadataError(
          path,
          `expected ${bits / 4} hex digits after "0x" for a float${bits} fill value, got ${json.length - 2} in ${describeJson(json)}`,
        );
      }
      return floatFromHex(json.slice(2), bits);
    }
  }
  throw new MetadataError(
    path,
    `expected a number, "NaN", "Infinity", "-Infinity" or a "0x" string of ${bits / 4} hex digits for a float${bits} fill value, got ${describeJson(json)}`,
  );
}

const CANONICAL_NAN_HEX = { 16: "7e00", 32: "7fc00000", 64: "7ff8000000000000" } as const;

/**
 * The metadata form of a float fill value, as zarr-python 3 writes it: a number,
 * `"NaN"` (the canonical quiet NaN), `"Infinity"`, `"-Infinity"`; and `"0x…"` hex for
 * what a JSON number or `"NaN"` cannot say exactly (other NaNs, and -0, which JSON
 * writers print as 0).
 */
export function floatFillValueToJson(value: number, bits: 16 | 32 | 64): JsonValue {
  if (Number.isNaN(value)) {
    const hex = floatToHex(value, bits);
    return hex === CANONICAL_NAN_HEX[bits] ? "NaN" : `0x${hex}`;
  }
  if (value === Number.POSITIVE_INFINITY) return "Infinity";
  if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
  if (Object.is(value, -0)) return `0x${floatToHex(value, bits)}`;
  return roundToFloat(value, bits);
}
