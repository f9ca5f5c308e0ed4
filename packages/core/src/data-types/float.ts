/**
 * `float32` and `float64` (and the base of `float16`, float16.ts). Scalars are JS
 * numbers.
 *
 * Equality (`allEqual`) is bitwise: -0 differs from 0, and a NaN equals only a NaN
 * with the same bits. NaNs are written through integer views so payloads survive.
 */
import { type DataType, type ExtensionObject, type JsonPath, type JsonValue, ZarrError } from "@zarr/spec";
import { checkByteLength, MACHINE_LITTLE_ENDIAN, typedFromBytes, typedToBytes } from "./byte-order.js";
import {
  FLOAT32,
  FLOAT64,
  type FloatFormat,
  float32BitsToNumber,
  float64HighWord,
  float64LowWord,
  floatFillToJson,
  numberToFloat32Bits,
  parseFloatFill,
} from "./float-bits.js";
import { cannotHold } from "./shared.js";

/** Float widths. */
export type FloatBits = 16 | 32 | 64;

/** Storage of a float type: `Float32Array` for float16 and float32, `Float64Array` for float64. */
export type FloatStorage<B extends FloatBits> = B extends 64 ? Float64Array : Float32Array;

/** A `Uint32Array` over the same memory as a float array. */
export function wordsOf(a: Float32Array | Float64Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.byteLength >>> 2);
}

/**
 * True when `source[start, end)` holds exactly the bits of `value`, whose float32 bit
 * pattern as stored is `stored(value)` (the float16/float32 pattern widened to float32).
 */
export function allEqualFloat32(source: Float32Array, value: number, stored: (v: number) => number, start: number, end: number): boolean {
  if (!Number.isNaN(value) && value !== 0) {
    for (let i = start; i < end; i++) if (source[i] !== value) return false;
    return true;
  }
  const target = stored(value);
  const w = wordsOf(source);
  for (let i = start; i < end; i++) if (w[i] !== target) return false;
  return true;
}

/** True when `source[start, end)` holds exactly the float64 bits of `value`. */
export function allEqualFloat64(source: Float64Array, value: number, start: number, end: number): boolean {
  if (!Number.isNaN(value) && value !== 0) {
    for (let i = start; i < end; i++) if (source[i] !== value) return false;
    return true;
  }
  const hi = float64HighWord(value);
  const lo = float64LowWord(value);
  const w = wordsOf(source);
  const h = MACHINE_LITTLE_ENDIAN ? 1 : 0;
  const l = 1 - h;
  for (let i = start; i < end; i++) if (w[2 * i + h] !== hi || w[2 * i + l] !== lo) return false;
  return true;
}

/**
 * A float data type: `float32` or `float64` (`float16` is `Float16DataType` of
 * `@zarr/core/extensions`, which extends this class with the binary16 conversions).
 */
export class FloatDataType<B extends FloatBits> implements DataType<number, FloatStorage<B>> {
  readonly configuration = {};
  readonly kind = "float";
  readonly byteSize: number;
  readonly componentSize: number;
  readonly width = 1;
  readonly bytesAreMemory: boolean = true;
  /** How the type rounds and spells its bits. */
  readonly format: FloatFormat;

  constructor(
    readonly name: string,
    readonly bits: B,
    format?: FloatFormat,
  ) {
    this.byteSize = bits / 8;
    this.componentSize = bits / 8;
    const f = format ?? (bits === 64 ? FLOAT64 : bits === 32 ? FLOAT32 : undefined);
    if (f === undefined) {
      throw new ZarrError("INVALID_ARGUMENT", `FloatDataType takes 32 or 64 bits; float16 is Float16DataType from @zarr/core/extensions`);
    }
    this.format = f;
  }

  /** The float32 bit pattern a `Float32Array` of this type stores for `value` (float32 and float16). */
  storedBits(value: number): number {
    return numberToFloat32Bits(value);
  }

  allocate(length: number): FloatStorage<B> {
    return (this.bits === 64 ? new Float64Array(length) : new Float32Array(length)) as FloatStorage<B>;
  }

  fill(target: FloatStorage<B>, value: number, start: number, end: number): void {
    // Float64Array stores keep NaN bits; float32 stores would quiet or truncate them.
    if (Number.isNaN(value) && this.bits !== 64) {
      wordsOf(target).fill(this.storedBits(value), start, end);
    } else {
      target.fill(value, start, end);
    }
  }

  getItem(source: FloatStorage<B>, index: number): number {
    const v = source[index];
    if (Number.isNaN(v) && this.bits !== 64) return float32BitsToNumber(wordsOf(source)[index]);
    return v;
  }

  setItem(target: FloatStorage<B>, index: number, value: number): void {
    if (Number.isNaN(value) && this.bits !== 64) {
      wordsOf(target)[index] = this.storedBits(value);
    } else {
      target[index] = value;
    }
  }

  allEqual(source: FloatStorage<B>, value: number, start: number, end: number): boolean {
    if (this.bits === 64) return allEqualFloat64(source as Float64Array, value, start, end);
    return allEqualFloat32(source as Float32Array, value, (v) => this.storedBits(v), start, end);
  }

  /** Numbers (rounded to the type) and bigints. */
  coerce(value: unknown): number {
    if (typeof value === "number") return this.format.round(value);
    if (typeof value === "bigint") return this.format.round(Number(value));
    throw cannotHold(this.name, value, "expected a number");
  }

  parseFillValue(json: JsonValue, path: JsonPath): number {
    return parseFloatFill(json, this.format, path);
  }

  fillValueToJson(value: number): JsonValue {
    return floatFillToJson(value, this.format);
  }

  fromBytes(bytes: Uint8Array, length: number, littleEndian: boolean): FloatStorage<B> {
    checkByteLength(bytes, length, this.byteSize, this.name);
    const Ctor = (this.bits === 64 ? Float64Array : Float32Array) as typeof Float32Array;
    return typedFromBytes(Ctor, bytes, length, littleEndian) as FloatStorage<B>;
  }

  toBytes(data: FloatStorage<B>, littleEndian: boolean): Uint8Array {
    return typedToBytes(data, this.byteSize, littleEndian);
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}
