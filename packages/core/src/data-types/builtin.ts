/**
 * The data types every registry starts with. The common numeric ones (`bool`, the
 * integers, `float32`, `float64`) are eager; the others (`float16`, complex, `r<N>`,
 * `string`, `bytes`, `fixed_length_utf32`, the NumPy time types, and `struct`,
 * `null_terminated_bytes` and `object` for what Zarr v2 holds) are lazy entries that
 * import their module the first time an array needs them, so a browser bundle loads
 * that code only when it reads such an array.
 */
import type { DataTypeEntry, LazyEntry } from "@zarr/spec";
import {
  boolDataType,
  float32DataType,
  float64DataType,
  int8DataType,
  int16DataType,
  int32DataType,
  int64DataType,
  uint8DataType,
  uint16DataType,
  uint32DataType,
  uint64DataType,
} from "./numeric.js";
import { CORE_PACKAGE } from "./shared.js";

type Lazy = LazyEntry<DataTypeEntry>;

/** A lazy data type entry. */
function lazy(name: string, load: () => Promise<DataTypeEntry>, aliases?: readonly string[]): Lazy {
  return { type: "data_type", name, ...(aliases === undefined ? {} : { aliases }), package: CORE_PACKAGE, lazy: true, load };
}

/** Loads the data type of extra.ts named `name`. */
const fromExtra = (name: string) => () => import("./extra.js").then((m) => m.extraDataTypes[name]);

/** The built-in data type entries of a new registry (see the module comment). */
export const coreDataTypeEntries: readonly (DataTypeEntry | Lazy)[] = [
  boolDataType,
  int8DataType,
  int16DataType,
  int32DataType,
  int64DataType,
  uint8DataType,
  uint16DataType,
  uint32DataType,
  uint64DataType,
  float32DataType,
  float64DataType,
  ...["float16", "complex64", "complex128", "string", "fixed_length_utf32"].map((name) => lazy(name, fromExtra(name))),
  lazy("bytes", fromExtra("bytes"), ["variable_length_bytes"]),
  lazy("numpy.datetime64", fromExtra("numpy.datetime64"), ["datetime64"]),
  lazy("numpy.timedelta64", fromExtra("numpy.timedelta64"), ["timedelta64"]),
  // `r` + digits; the entry itself rejects bit counts that are not positive multiples of 8.
  { ...lazy("r*", fromExtra("r*")), matches: (name: string) => /^r\d+$/.test(name) },
  lazy("struct", () => import("./struct.js").then((m) => m.structDataType), ["structured"]),
  lazy("null_terminated_bytes", () => import("./null-terminated-bytes.js").then((m) => m.nullTerminatedBytesDataType)),
  lazy("object", () => import("./object.js").then((m) => m.objectDataType)),
];
