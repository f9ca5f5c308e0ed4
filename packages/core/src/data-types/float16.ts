/**
 * `float16`: elements live in a `Float32Array` (Node 20 has no `Float16Array`; every
 * float16 value is exact as a float32) and are converted bit by bit on the way to and
 * from bytes.
 */

import { FLOAT16, float16ArrayToFloat32Bits, float16ToFloat32Table, float32BitsToFloat16Array, numberToFloat16Bits } from "./float16-bits.js";
import { checkByteLength, FloatDataType, MACHINE_LITTLE_ENDIAN, swapBytesInPlace, typedFromBytes, wordsOf } from "./numeric-parts.js";

/** The `float16` data type. */
export class Float16DataType extends FloatDataType<16> {
  override readonly bytesAreMemory = false; // widened to float32 in memory

  constructor(name = "float16") {
    super(name, 16, FLOAT16);
  }

  override storedBits(value: number): number {
    return float16ToFloat32Table()[numberToFloat16Bits(value)];
  }

  override fromBytes(bytes: Uint8Array, length: number, littleEndian: boolean): Float32Array {
    checkByteLength(bytes, length, this.byteSize, this.name);
    const half = typedFromBytes(Uint16Array, bytes, length, littleEndian);
    const out = new Float32Array(length);
    float16ArrayToFloat32Bits(half, wordsOf(out));
    return out;
  }

  override toBytes(data: Float32Array, littleEndian: boolean): Uint8Array {
    const half = new Uint16Array(data.length);
    float32BitsToFloat16Array(wordsOf(data), half);
    if (littleEndian !== MACHINE_LITTLE_ENDIAN) swapBytesInPlace(half.buffer, 0, half.byteLength, 2);
    return new Uint8Array(half.buffer);
  }
}
