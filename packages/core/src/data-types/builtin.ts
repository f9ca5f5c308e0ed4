/**
 * The data types every registry starts with, all lazy entries that import their module
 * the first time an array needs them, so a browser bundle loads only the code of the
 * types it reads: the common numeric ones in three families (`bool`; the integers;
 * `float32` and `float64`), and each rarer one (`float16`, complex, `r<N>`, `string`,
 * `bytes`, `fixed_length_utf32`, the NumPy time types, and `struct`,
 * `null_terminated_bytes` and `object` for what Zarr v2 holds) on its own. Opening an
 * array of a family not loaded yet waits for one more module.
 */
import type { DataTypeEntry, LazyEntry } from "@zarr/spec";
import { CORE_PACKAGE } from "./core-package.js";

type Lazy = LazyEntry<DataTypeEntry>;

/** A lazy data type entry. */
function lazy(name: string, load: () => Promise<DataTypeEntry>, aliases?: readonly string[]): Lazy {
  return { type: "data_type", name, ...(aliases === undefined ? {} : { aliases }), package: CORE_PACKAGE, lazy: true, load };
}

/** Loads the data type of extra.ts named `name`. */
const fromExtra = (name: string) => () => import("./extra.js").then((m) => m.extraDataTypes[name]);

/** The integer data types, as named in integer-entries.ts (`int8DataType`...). */
const integerNames = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"] as const;

/** The built-in data type entries of a new registry (see the module comment). */
export const coreDataTypeEntries: readonly (DataTypeEntry | Lazy)[] = [
  lazy("bool", () => import("./bool-entries.js").then((m) => m.boolDataType)),
  ...integerNames.map((name) => lazy(name, () => import("./integer-entries.js").then((m) => m[`${name}DataType`]))),
  ...(["float32", "float64"] as const).map((name) => lazy(name, () => import("./float-entries.js").then((m) => m[`${name}DataType`]))),
  ...["float16", "complex64", "complex128", "string", "fixed_length_utf32"].map((name) => lazy(name, fromExtra(name))),
  lazy("bytes", fromExtra("bytes"), ["variable_length_bytes"]),
  lazy("numpy.datetime64", fromExtra("numpy.datetime64"), ["datetime64"]),
  lazy("numpy.timedelta64", fromExtra("numpy.timedelta64"), ["timedelta64"]),
  // `r` + digits; the entry itself rejects bit counts that are not positive multiples of 8.
  { ...lazy("r*", fromExtra("r*")), matches: (name: string) => /^r\d+$/.test(name) },
  // Given this list to load its field types from (see load-entries.ts).
  lazy("struct", () => import("./struct.js").then((m) => m.loadStructEntry(coreDataTypeEntries)), ["structured"]),
  lazy("null_terminated_bytes", () => import("./null-terminated-bytes.js").then((m) => m.nullTerminatedBytesDataType)),
  lazy("object", () => import("./object.js").then((m) => m.objectDataType)),
];
