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

/** A lazy entry for one of the data types of extra.ts. */
function extra(name: string, pick: (m: typeof import("./extra.js")) => DataTypeEntry, aliases?: readonly string[]): Lazy {
  return {
    type: "data_type",
    name,
    ...(aliases === undefined ? {} : { aliases }),
    package: CORE_PACKAGE,
    lazy: true,
    load: () => import("./extra.js").then(pick),
  };
}

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
  extra("float16", (m) => m.float16DataType),
  extra("complex64", (m) => m.complex64DataType),
  extra("complex128", (m) => m.complex128DataType),
  // `r` + digits; the entry itself rejects bit counts that are not positive multiples of 8.
  { ...extra("r*", (m) => m.rawBitsDataType), matches: (name: string) => /^r\d+$/.test(name) },
  extra("string", (m) => m.stringDataType),
  extra("bytes", (m) => m.bytesDataType, ["variable_length_bytes"]),
  extra("fixed_length_utf32", (m) => m.fixedLengthUtf32DataType),
  extra("numpy.datetime64", (m) => m.datetime64DataType, ["datetime64"]),
  extra("numpy.timedelta64", (m) => m.timedelta64DataType, ["timedelta64"]),
  {
    type: "data_type",
    name: "struct",
    aliases: ["structured"],
    package: CORE_PACKAGE,
    lazy: true,
    load: () => import("./struct.js").then((m) => m.structDataType),
  },
  {
    type: "data_type",
    name: "null_terminated_bytes",
    package: CORE_PACKAGE,
    lazy: true,
    load: () => import("./null-terminated-bytes.js").then((m) => m.nullTerminatedBytesDataType),
  },
  {
    type: "data_type",
    name: "object",
    package: CORE_PACKAGE,
    lazy: true,
    load: () => import("./object.js").then((m) => m.objectDataType),
  },
];
