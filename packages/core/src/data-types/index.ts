/**
 * The built-in Zarr v3 data types of @zarr/core, as registry entries.
 *
 * How elements are held in memory (element `i` occupies slots `[i * width, (i + 1) * width)`
 * of the storage array):
 *
 * | data type | storage array | width (slots/element) | scalar |
 * |---|---|---|---|
 * | `bool` | `Uint8Array` (0/1; any non-zero byte reads as true) | 1 | `boolean` |
 * | `int8`, `int16`, `int32`, `uint8`, `uint16`, `uint32` | `Int8Array` … `Uint32Array` | 1 | `number` |
 * | `int64`, `uint64` | `BigInt64Array`, `BigUint64Array` | 1 | `bigint` (exact) |
 * | `float16` | `Float32Array` (Node 20 has no `Float16Array`; every float16 is exact as a float32) | 1 | `number` |
 * | `float32`, `float64` | `Float32Array`, `Float64Array` | 1 | `number` |
 * | `complex64`, `complex128` | `Float32Array`, `Float64Array`, interleaved re, im | 2 | `[re, im]` |
 * | `r<N>` (N a positive multiple of 8) | `Uint8Array`, N/8 bytes per element | N/8 | `Uint8Array` (N/8 bytes) |
 * | `string` (variable-length UTF-8) | `string[]` | 1 | `string` |
 * | `bytes` (alias `variable_length_bytes`) | `Uint8Array[]` | 1 | `Uint8Array` |
 * | `fixed_length_utf32` `{length_bytes}` | `string[]` (trailing NULs stripped, as NumPy does) | 1 | `string` |
 * | `numpy.datetime64`, `numpy.timedelta64` `{unit, scale_factor}` (aliases `datetime64`, `timedelta64`) | `BigInt64Array` (int64 counts; NaT = -2^63) | 1 | `bigint` |
 *
 * Fill values (`parseFillValue` accepts, `fillValueToJson` writes):
 * - bool: `true`/`false`. Integers: JSON integers in range; 64-bit ones exact (bigint
 *   beyond 2^53), written as numbers when exact as numbers, else as bigints.
 * - Floats: a number (rounded to the type), `"NaN"`, `"Infinity"`, `"-Infinity"`, or
 *   `"0x…"` raw bits with 4/8/16 hex digits. Written as zarr-python 3 does, plus hex
 *   for a non-canonical NaN and for -0 (which a JSON number cannot carry through
 *   `JSON.stringify`).
 * - Complex: `[re, im]`, each as a float. `r<N>`: an array of N/8 integers 0–255 (a
 *   base64 string of N/8 bytes is read too). `string`: a string (numbers are read as
 *   their text). `bytes`: base64 (as zarr-python 3 writes) or an array of integers.
 *   `fixed_length_utf32`: a string of at most length_bytes/4 code points. Datetimes:
 *   an integer or `"NaT"` (written as the integer -9223372036854775808, as zarr-python does).
 *
 * Float equality (`allEqual`) is bitwise: -0 and 0 differ, and a NaN equals only a NaN
 * with the same bits (so a chunk of canonical NaNs matches a `"NaN"` fill value).
 *
 * A data type keeps the name it was read under (`toJSON` writes an alias back as read).
 */
import type { DataTypeEntry } from "@zarr/spec";
import { BoolDataType } from "./bool.js";
import { boolDataType } from "./bool-entries.js";
import { ComplexDataType } from "./complex.js";
import { TimeDataType } from "./datetime.js";
import {
  bytesDataType,
  complex64DataType,
  complex128DataType,
  datetime64DataType,
  fixedLengthUtf32DataType,
  float16DataType,
  rawBitsDataType,
  stringDataType,
  timedelta64DataType,
} from "./extra.js";
import { FixedLengthUtf32DataType } from "./fixed-length-utf32.js";
import { BigIntDataType, SmallIntDataType } from "./integer.js";
import {
  int8DataType,
  int16DataType,
  int32DataType,
  int64DataType,
  uint8DataType,
  uint16DataType,
  uint32DataType,
  uint64DataType,
} from "./integer-entries.js";
import { float32DataType, float64DataType } from "./float-entries.js";
import { FloatDataType } from "./numeric-parts.js";
import { RawBitsDataType } from "./raw-bits.js";
import { BytesDataType, StringDataType } from "./variable-length.js";

export { decodeBase64, encodeBase64 } from "@zarr/spec";
export { MACHINE_LITTLE_ENDIAN } from "./byte-order.js";
export { NAT, TIME_UNITS } from "./datetime.js";
export { float32BitsToNumber, numberToFloat32Bits } from "./float-bits.js";
export { floatFillValueToJson, parseFloatFillValue } from "./float-fill.js";
export { Float16DataType } from "./float16.js";
export { float16BitsToNumber, numberToFloat16Bits } from "./float16-bits.js";
export {
  BigIntDataType,
  BoolDataType,
  BytesDataType,
  boolDataType,
  bytesDataType,
  ComplexDataType,
  complex64DataType,
  complex128DataType,
  datetime64DataType,
  FixedLengthUtf32DataType,
  FloatDataType,
  fixedLengthUtf32DataType,
  float16DataType,
  float32DataType,
  float64DataType,
  int8DataType,
  int16DataType,
  int32DataType,
  int64DataType,
  RawBitsDataType,
  rawBitsDataType,
  SmallIntDataType,
  StringDataType,
  stringDataType,
  TimeDataType,
  timedelta64DataType,
  uint8DataType,
  uint16DataType,
  uint32DataType,
  uint64DataType,
};

/** Every built-in data type entry, for `createRegistry`. */
export const builtinDataTypes: DataTypeEntry[] = [
  boolDataType,
  int8DataType,
  int16DataType,
  int32DataType,
  int64DataType,
  uint8DataType,
  uint16DataType,
  uint32DataType,
  uint64DataType,
  float16DataType,
  float32DataType,
  float64DataType,
  complex64DataType,
  complex128DataType,
  rawBitsDataType,
  stringDataType,
  bytesDataType,
  fixedLengthUtf32DataType,
  datetime64DataType,
  timedelta64DataType,
];
