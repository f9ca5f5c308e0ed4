/**
 * Exact conversions between JavaScript numbers and the bit patterns of IEEE 754
 * binary32/64, including NaN payloads, and the fill values of float types described by a
 * {@link FloatFormat} (binary16 is in float16-bits.ts, loaded with the `float16` type).
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
export function float64Words(x: number, out: Uint32Array): void {
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

/** Scratch words for float64 conversions. */
export const words = new Uint32Array(2);

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

// ------------------------------------------------------------------- fill value JSON

/** How a float type rounds, and spells its raw bits in hex (`"0x…"` fill values). */
export interface FloatFormat {
  readonly bits: 16 | 32 | 64;
  /** Rounds a number to the nearest value of the type (NaN unchanged). */
  round(x: number): number;
  /** The raw bits of `x` as the type, as `bits / 4` lowercase hex digits. */
  toHex(x: number): string;
  /** The number whose raw bits, as the type, are the given (validated) hex digits. */
  fromHex(hex: string): number;
  /** The hex digits of the canonical quiet NaN (written as `"NaN"`). */
  readonly nanHex: string;
}

/** float32. */
export const FLOAT32: FloatFormat = {
  bits: 32,
  round: (x) => (Number.isNaN(x) ? x : Math.fround(x)),
  toHex: (x) => numberToFloat32Bits(x).toString(16).padStart(8, "0"),
  fromHex: (hex) => float32BitsToNumber(Number.parseInt(hex, 16)),
  nanHex: "7fc00000",
};

/** float64. */
export const FLOAT64: FloatFormat = {
  bits: 64,
  round: (x) => x,
  toHex(x) {
    float64Words(x, words);
    return words[0].toString(16).padStart(8, "0") + words[1].toString(16).padStart(8, "0");
  },
  fromHex: (hex) => float64FromWords(Number.parseInt(hex.slice(0, 8), 16), Number.parseInt(hex.slice(8), 16)),
  nanHex: "7ff8000000000000",
};

const HEX = /^0x[0-9a-fA-F]+$/;

/**
 * Parses a float fill value: a JSON number (rounded to the nearest value of the type),
 * `"NaN"`, `"Infinity"`, `"-Infinity"`, or `"0x…"` with exactly `bits / 4` hex digits
 * holding the raw bits (the only way to carry a NaN payload, a signalling NaN or a
 * negative NaN). Throws a `MetadataError` at `path` otherwise.
 */
export function parseFloatFill(json: JsonValue, format: FloatFormat, path: JsonPath): number {
  const { bits } = format;
  if (typeof json === "number") return format.round(json);
  if (typeof json === "bigint") return format.round(Number(json));
  if (typeof json === "string") {
    if (json === "NaN") return Number.NaN;
    if (json === "Infinity") return Infinity;
    if (json === "-Infinity") return -Infinity;
    if (HEX.test(json)) {
      if (json.length - 2 !== bits / 4) {
        throw new MetadataError(
          path,
          `expected ${bits / 4} hex digits after "0x" for a float${bits} fill value, got ${json.length - 2} in ${describeJson(json)}`,
        );
      }
      return format.fromHex(json.slice(2));
    }
  }
  throw new MetadataError(
    path,
    `expected a number, "NaN", "Infinity", "-Infinity" or a "0x" string of ${bits / 4} hex digits for a float${bits} fill value, got ${describeJson(json)}`,
  );
}

/**
 * The metadata form of a float fill value, as zarr-python 3 writes it: a number,
 * `"NaN"` (the canonical quiet NaN), `"Infinity"`, `"-Infinity"`; and `"0x…"` hex for
 * what a JSON number or `"NaN"` cannot say exactly (other NaNs, and -0, which JSON
 * writers print as 0).
 */
export function floatFillToJson(value: number, format: FloatFormat): JsonValue {
  if (Number.isNaN(value)) {
    const hex = format.toHex(value);
    return hex === format.nanHex ? "NaN" : `0x${hex}`;
  }
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (Object.is(value, -0)) return `0x${format.toHex(value)}`;
  return format.round(value);
}
