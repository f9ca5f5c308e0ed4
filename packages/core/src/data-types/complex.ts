/**
 * `complex64` and `complex128`: interleaved `[re, im]` in a `Float32Array` /
 * `Float64Array` (two slots per element). Scalars are `[re, im]` pairs; equality is
 * bitwise per component, as for the float types.
 */
import {
  type Complex,
  type DataType,
  describeJson,
  type ExtensionObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
} from "@zarr/spec";
import { floatFillValueToJson, parseFloatFillValue, roundToFloat } from "./float-fill.js";
import { cannotHold, checkByteLength, float32BitsToNumber, float64HighWord, float64LowWord, MACHINE_LITTLE_ENDIAN, numberToFloat32Bits, typedFromBytes, typedToBytes, wordsOf } from "./numeric-parts.js";

/** Storage of a complex type. */
export type ComplexStorage<B extends 32 | 64> = B extends 64 ? Float64Array : Float32Array;

/** A complex data type; `bits` is the width of one component. */
export class ComplexDataType<B extends 32 | 64> implements DataType<Complex, ComplexStorage<B>> {
  readonly configuration = {};
  readonly kind = "complex";
  readonly byteSize: number;
  readonly componentSize: number;
  readonly width = 2;
  readonly bytesAreMemory = true;

  constructor(
    readonly name: string,
    readonly bits: B,
  ) {
    this.componentSize = bits / 8;
    this.byteSize = bits / 4;
  }

  allocate(length: number): ComplexStorage<B> {
    return (this.bits === 64 ? new Float64Array(2 * length) : new Float32Array(2 * length)) as ComplexStorage<B>;
  }

  fill(target: ComplexStorage<B>, value: Complex, start: number, end: number): void {
    const [re, im] = value;
    if (this.bits === 32 && (Number.isNaN(re) || Number.isNaN(im))) {
      const w = wordsOf(target);
      const r = numberToFloat32Bits(re);
      const m = numberToFloat32Bits(im);
      for (let i = 2 * start, e = 2 * end; i < e; i += 2) {
        w[i] = r;
        w[i + 1] = m;
      }
      return;
    }
    for (let i = 2 * start, e = 2 * end; i < e; i += 2) {
      target[i] = re;
      target[i + 1] = im;
    }
  }

  getItem(source: ComplexStorage<B>, index: number): Complex {
    let re = source[2 * index];
    let im = source[2 * index + 1];
    if (this.bits === 32 && (Number.isNaN(re) || Number.isNaN(im))) {
      const w = wordsOf(source);
      if (Number.isNaN(re)) re = float32BitsToNumber(w[2 * index]);
      if (Number.isNaN(im)) im = float32BitsToNumber(w[2 * index + 1]);
    }
    return exactPair(re, im);
  }

  setItem(target: ComplexStorage<B>, index: number, value: Complex): void {
    this.fill(target, value, index, index + 1);
  }

  allEqual(source: ComplexStorage<B>, value: Complex, start: number, end: number): boolean {
    // Bitwise comparison over 32-bit words: exact for NaNs and signed zeros, and as fast.
    const w = wordsOf(source);
    if (this.bits === 32) {
      const r = numberToFloat32Bits(value[0]);
      const m = numberToFloat32Bits(value[1]);
      for (let i = 2 * start, e = 2 * end; i < e; i += 2) if (w[i] !== r || w[i + 1] !== m) return false;
      return true;
    }
    const h = MACHINE_LITTLE_ENDIAN ? 1 : 0;
    const l = 1 - h;
    const rh = float64HighWord(value[0]);
    const rl = float64LowWord(value[0]);
    const mh = float64HighWord(value[1]);
    const ml = float64LowWord(value[1]);
    for (let i = 4 * start, e = 4 * end; i < e; i += 4) {
      if (w[i + h] !== rh || w[i + l] !== rl || w[i + 2 + h] !== mh || w[i + 2 + l] !== ml) return false;
    }
    return true;
  }

  /** `[re, im]` pairs of numbers, or a single number (imaginary part 0). */
  coerce(value: unknown): Complex {
    if (typeof value === "number") return exactPair(roundToFloat(value, this.bits), 0);
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "number" && typeof value[1] === "number") {
      return exactPair(roundToFloat(value[0], this.bits), roundToFloat(value[1], this.bits));
    }
    throw cannotHold(this.name, value, "expected [re, im] or a number");
  }

  parseFillValue(json: JsonValue, path: JsonPath): Complex {
    if (!Array.isArray(json) || json.length !== 2) {
      throw new MetadataError(path, `expected [re, im] for a ${this.name} fill value, got ${describeJson(json)}`);
    }
    return exactPair(
      parseFloatFillValue(json[0], this.bits, [...path, 0]),
      parseFloatFillValue(json[1], this.bits, [...path, 1]),
    );
  }

  fillValueToJson(value: Complex): JsonValue {
    return [floatFillValueToJson(value[0], this.bits), floatFillValueToJson(value[1], this.bits)];
  }

  fromBytes(bytes: Uint8Array, length: number, littleEndian: boolean): ComplexStorage<B> {
    checkByteLength(bytes, length, this.byteSize, this.name);
    return (
      this.bits === 64
        ? typedFromBytes(Float64Array, bytes, 2 * length, littleEndian)
        : typedFromBytes(Float32Array, bytes, 2 * length, littleEndian)
    ) as ComplexStorage<B>;
  }

  toBytes(data: ComplexStorage<B>, littleEndian: boolean): Uint8Array {
    return typedToBytes(data, this.componentSize, littleEndian);
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}

/**
 * A `[re, im]` pair whose elements keep their exact bits. Array literals of doubles
 * quiet signalling NaNs in V8; an array that starts out holding non-numbers keeps
 * each number as it is.
 */
export function exactPair(re: number, im: number): readonly [number, number] {
  const pair: unknown[] = [undefined, undefined];
  pair[0] = re;
  pair[1] = im;
  return pair as unknown as readonly [number, number];
}
