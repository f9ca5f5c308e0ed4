/**
 * The built-in data types besides the common numeric ones: `float16`, complex numbers,
 * `r<N>` raw bits, variable-length `string` and `bytes`, `fixed_length_utf32` and the
 * NumPy time types. Registries load this module the first time an array needs one of
 * them (see builtin.ts), so bundles keep it out of their entry chunk.
 */
import { type DataType, type DataTypeEntry, type JsonObject, type JsonPath, MetadataError } from "@zarr/spec";
import { ComplexDataType } from "./complex.js";
import { expectOnlyFields, requireIntegerField } from "./config-fields.js";
import { timeDataTypeFromConfig } from "./datetime.js";
import { FixedLengthUtf32DataType } from "./fixed-length-utf32.js";
import { Float16DataType } from "./float16.js";
import { CORE_PACKAGE, expectNoConfiguration, plainEntry } from "./numeric-parts.js";
import { MAX_RAW_BITS, RawBitsDataType, rawBitsOf } from "./raw-bits.js";
import { BytesDataType, StringDataType } from "./variable-length.js";

/** `float16` (held in a `Float32Array`). */
export const float16DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("float16", (n) => new Float16DataType(n));
/** `complex64` (two float32 components). */
export const complex64DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("complex64", (n) => new ComplexDataType(n, 32));
/** `complex128` (two float64 components). */
export const complex128DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("complex128", (n) => new ComplexDataType(n, 64));
/** `string`: variable-length UTF-8 (serialised by the `vlen-utf8` codec). */
export const stringDataType: DataTypeEntry = /* @__PURE__ */ plainEntry("string", (n) => new StringDataType(n));
/** `bytes` (alias `variable_length_bytes`): variable-length bytes (serialised by `vlen-bytes`). */
export const bytesDataType: DataTypeEntry = /* @__PURE__ */ plainEntry("bytes", (n) => new BytesDataType(n), [
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

/** The entries above by name (how builtin.ts's lazy entries find theirs). */
export const extraDataTypes: Readonly<Record<string, DataTypeEntry>> = {
  float16: float16DataType,
  complex64: complex64DataType,
  complex128: complex128DataType,
  string: stringDataType,
  bytes: bytesDataType,
  fixed_length_utf32: fixedLengthUtf32DataType,
  "numpy.datetime64": datetime64DataType,
  "numpy.timedelta64": timedelta64DataType,
  "r*": rawBitsDataType,
};
