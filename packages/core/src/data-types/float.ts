/**
 * `float16`, `float32`, `float64`. Scalars are JS numbers. float16 elements live in a
 * `Float32Array` (Node 20 has no `Float16Array`; every float16 value is exact as a
 * float32) and are converted bit by bit on the way to and from bytes.
 *
 * Equality (`allEqual`) is bitwise: -0 differs from 0, and a NaN equals only a NaN
 * with the same bits. NaNs are written through integer views so payloads survive.
 */
import type { DataType, ExtensionObject, JsonPath, JsonValue } from "@zarr/spec";
import { checkByteLength, MACHINE_LITTLE_ENDIAN, swapBytesInPlace, typedFromBytes, typedToBytes } from "./byte-order.js";
import {
  float16ArrayToFloat32Bits,
  float16ToFloat32Table,
  float32BitsToFloat16Array,
  float32BitsToNumber,
  float64HighWord,
  float64LowWord,
  floatFillValueToJson,
  numberToFloat16Bits,
  numberToFloat32Bits,
  parseFloatFillValue,
  roundToFloat,
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

/** The float32 bit pattern a float16 or float32 array stores for `value`. */
export function storedFloat32Bits(value: number, bits: 16 | 32): number {
  return bits === 16 ? float16ToFloat32Table()[numberToFloat16Bits(value)] : numberToFloat32Bits(value);
}

/**
 * True when `source[start, end)` holds exactly the bits of `value` (float32 storage:
 * the float16/float32 bit pattern widened to float32).
 */
export function allEqualFloat32(source: Float32Array, value: number, bits: 16 | 32, start: number, end: number): boolean {
  if (!Number.isNaN(value) && value !== 0) {
    for (let i = start; i < end; i++) if (source[i] !== value) return false;
    return true;
  }
  const target = storedFloat32Bits(value, bits);
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

/** A float data type. */
export class FloatDataType<B extends FloatBits> implements DataType<number, FloatStorage<B>> {
  readonly configuration = {};
  readonly kind = "float";
  readonly byteSize: number;
  readonly componentSize: number;
  readonly width = 1;
  readonly bytesAreMemory: boolean;

  constructor(
    readonly name: string,
    readonly bits: B,
  ) {
    this.byteSize = bits / 8;
    this.componentSize = bits / 8;
    this.bytesAreMemory = bits !== 16; // float16 is widened to float32 in memory
  }

  allocate(length: number): FloatStorage<B> {
    return (this.bits === 64 ? new Float64Array(length) : new Float32Array(length)) as FloatStorage<B>;
  }

  fill(target: FloatStorage<B>, value: number, start: number, end: number): void {
    // Float64Array stores keep NaN bits; float32 stores would quiet or truncate them.
    if (Number.isNaN(value) && this.bits !== 64) {
      wordsOf(target).fill(storedFloat32Bits(value, this.bits as 16 | 32), start, end);
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
      wordsOf(target)[index] = storedFloat32Bits(value, this.bits as 16 | 32);
    } else {
      target[index] = value;
    }
  }

  allEqual(source: FloatStorage<B>, value: number, start: number, end: number): boolean {
    if (this.bits === 64) return allEqualFloat64(source as Float64Array, value, start, end);
    return allEqualFloat32(source as Float32Array, value, this.bits as 16 | 32, start, end);
  }

  /** Numbers (rounded to the type) and bigints. */
  coerce(value: unknown): number {
    if (typeof value === "number") return roundToFloat(value, this.bits);
    if (typeof value === "bigint") return roundToFloat(Number(value), this.bits);
    throw cannotHold(this.name, value, "expected a number");
  }

  parseFillValue(json: JsonValue, path: JsonPath): number {
    return parseFloatFillValue(json, this.bits, path);
  }

  fillValueToJson(value: number): JsonValue {
    return floatFillValueToJson(value, this.bits);
  }

  fromBytes(bytes: Uint8Array, length: number, littleEndian: boolean): FloatStorage<B> {
    checkByteLength(bytes, length, this.byteSize, this.name);
    if (this.bits === 64) return typedFromBytes(Float64Array, bytes, length, littleEndian) as FloatStorage<B>;
    if (this.bits === 32) return typedFromBytes(Float32Array, bytes, length, littleEndian) as FloatStorage<B>;
    const half = typedFromBytes(Uint16Array, bytes, length, littleEndian);
    const out = new Float32Array(length);
    float16ArrayToFloat32Bits(half, wordsOf(out));
    return out as FloatStorage<B>;
  }

  toBytes(data: FloatStorage<B>, littleEndian: boolean): Uint8Array {
    if (this.bits !== 16) return typedToBytes(data, this.byteSize, littleEndian);
    const half = new Uint16Array(data.length);
    float32BitsToFloat16Array(wordsOf(data), half);
    if (littleEndian !== MACHINE_LITTLE_ENDIAN) swapBytesInPlace(half.buffer, 0, half.byteLength, 2);
    return new Uint8Array(half.buffer);
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}
