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
import type { DataType, DataTypeEntry, JsonObject, JsonPath } from "@zarr/spec";
import { MetadataError } from "@zarr/spec";
import { BoolDataType } from "./bool.js";
import { ComplexDataType } from "./complex.js";
import { TimeDataType, timeDataTypeFromConfig } from "./datetime.js";
import { FixedLengthUtf32DataType } from "./fixed-length-utf32.js";
import { FloatDataType } from "./float.js";
import { BigIntDataType, SmallIntDataType } from "./integer.js";
import { MAX_RAW_BITS, RawBitsDataType, rawBitsOf } from "./raw-bits.js";
import { CORE_PACKAGE, expectNoConfiguration, expectOnlyFields, requireIntegerField } from "./shared.js";
import { BytesDataType, StringDataType } from "./variable-length.js";

export { decodeBase64, encodeBase64 } from "./base64.js";
export { MACHINE_LITTLE_ENDIAN } from "./byte-order.js";
export {
  float16BitsToNumber,
  float32BitsToNumber,
  floatFillValueToJson,
  numberToFloat16Bits,
  numberToFloat32Bits,
  parseFloatFillValue,
} from "./float-bits.js";
export { NAT, TIME_UNITS } from "./datetime.js";
export {
  BigIntDataType,
  BoolDataType,
  BytesDataType,
  ComplexDataType,
  FixedLengthUtf32DataType,
  FloatDataType,
  RawBitsDataType,
  SmallIntDataType,
  StringDataType,
  TimeDataType,
};

/** An entry for a data type without configuration; one cached instance per name it is read under. */
function plainEntry(name: string, make: (name: string) => DataType, aliases?: readonly string[]): DataTypeEntry {
  const instances = new Map<string, DataType>();
  return {
    type: "data_type",
    name,
    ...(aliases === undefined ? {} : { aliases }),
    package: CORE_PACKAGE,
    fromConfig(asName: string, configuration: JsonObject, path: JsonPath): DataType {
      expectNoConfiguration(asName, configuration, path);
      let t = instances.get(asName);
      if (t === undefined) {
        t = make(asName);
        instances.set(asName, t);
      }
      return t;
    },
  };
}

/** `bool`. */
export const boolDataType: DataTypeEntry = plainEntry("bool", (n) => new BoolDataType(n));
/** `int8`. */
export const int8DataType: DataTypeEntry = plainEntry("int8", (n) => new SmallIntDataType(n, Int8Array, true));
/** `int16`. */
export const int16DataType: DataTypeEntry = plainEntry("int16", (n) => new SmallIntDataType(n, Int16Array, true));
/** `int32`. */
export const int32DataType: DataTypeEntry = plainEntry("int32", (n) => new SmallIntDataType(n, Int32Array, true));
/** `int64` (bigint scalars). */
export const int64DataType: DataTypeEntry = plainEntry("int64", (n) => new BigIntDataType(n, BigInt64Array, true));
/** `uint8`. */
export const uint8DataType: DataTypeEntry = plainEntry("uint8", (n) => new SmallIntDataType(n, Uint8Array, false));
/** `uint16`. */
export const uint16DataType: DataTypeEntry = plainEntry("uint16", (n) => new SmallIntDataType(n, Uint16Array, false));
/** `uint32`. */
export const uint32DataType: DataTypeEntry = plainEntry("uint32", (n) => new SmallIntDataType(n, Uint32Array, false));
/** `uint64` (bigint scalars). */
export const uint64DataType: DataTypeEntry = plainEntry("uint64", (n) => new BigIntDataType(n, BigUint64Array, false));
/** `float16` (held in a `Float32Array`). */
export const float16DataType: DataTypeEntry = plainEntry("float16", (n) => new FloatDataType(n, 16));
/** `float32`. */
export const float32DataType: DataTypeEntry = plainEntry("float32", (n) => new FloatDataType(n, 32));
/** `float64`. */
export const float64DataType: DataTypeEntry = plainEntry("float64", (n) => new FloatDataType(n, 64));
/** `complex64` (two float32 components). */
export const complex64DataType: DataTypeEntry = plainEntry("complex64", (n) => new ComplexDataType(n, 32));
/** `complex128` (two float64 components). */
export const complex128DataType: DataTypeEntry = plainEntry("complex128", (n) => new ComplexDataType(n, 64));
/** `string`: variable-length UTF-8 (serialised by the `vlen-utf8` codec). */
export const stringDataType: DataTypeEntry = plainEntry("string", (n) => new StringDataType(n));
/** `bytes` (alias `variable_length_bytes`): variable-length bytes (serialised by `vlen-bytes`). */
export const bytesDataType: DataTypeEntry = plainEntry("bytes", (n) => new BytesDataType(n), [
  "variable_length_bytes",
]);

const rawInstances = new Map<number, RawBitsDataType>();

/** `r<N>` raw bits: claims every name `r` + digits, and rejects N that is not a positive multiple of 8. */
export const rawBitsDataType: DataTypeEntry = {
  type: "data_type",
  name: "r*",
  package: CORE_PACKAGE,
  matches: (name: string) => rawBitsOf(name) !== undefined,
  fromConfig(name: string, configuration: JsonObject, path: JsonPath): DataType {
    const bits = rawBitsOf(name);
    if (bits === undefined || bits === 0 || bits % 8 !== 0 || bits > MAX_RAW_BITS) {
      throw new MetadataError(
        path,
        `the raw data type "${name}" needs a number of bits that is a positive multiple of 8 (at most ${MAX_RAW_BITS})`,
      );
    }
    expectNoConfiguration(name, configuration, path);
    let t = rawInstances.get(bits);
    if (t === undefined) {
      t = new RawBitsDataType(bits / 8);
      rawInstances.set(bits, t);
    }
    return t;
  },
};

/** `fixed_length_utf32` `{"length_bytes": N}` (N divisible by 4, at most 2147483644). */
export const fixedLengthUtf32DataType: DataTypeEntry = {
  type: "data_type",
  name: "fixed_length_utf32",
  package: CORE_PACKAGE,
  fromConfig(name: string, configuration: JsonObject, path: JsonPath): DataType {
    expectOnlyFields(name, configuration, ["length_bytes"], path);
    const lengthBytes = requireIntegerField(configuration, "length_bytes", 0, 2147483644, path);
    if (lengthBytes % 4 !== 0) {
      throw new MetadataError([...path, "configuration", "length_bytes"], `expected a multiple of 4, got ${lengthBytes}`);
    }
    return new FixedLengthUtf32DataType(name, lengthBytes);
  },
};

/** `numpy.datetime64` (alias `datetime64`) `{"unit", "scale_factor"}`. */
export const datetime64DataType: DataTypeEntry = {
  type: "data_type",
  name: "numpy.datetime64",
  aliases: ["datetime64"],
  package: CORE_PACKAGE,
  fromConfig: (name: string, configuration: JsonObject, path: JsonPath): DataType =>
    timeDataTypeFromConfig(name, "datetime", configuration, path),
};

/** `numpy.timedelta64` (alias `timedelta64`) `{"unit", "scale_factor"}`. */
export const timedelta64DataType: DataTypeEntry = {
  type: "data_type",
  name: "numpy.timedelta64",
  aliases: ["timedelta64"],
  package: CORE_PACKAGE,
  fromConfig: (name: string, configuration: JsonObject, path: JsonPath): DataType =>
    timeDataTypeFromConfig(name, "timedelta", configuration, path),
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
