/**
 * The integer data type entries (`int8` … `uint64`): a module of its own so that a registry loads it the first time an
 * array needs it (see builtin.ts), and an app reading only floats never loads the others.
 */
import type { DataTypeEntry } from "@zarr/spec";
import { BigIntDataType, SmallIntDataType } from "./integer.js";
import { plainEntry } from "./numeric-parts.js";

export { BigIntDataType, SmallIntDataType } from "./integer.js";

/** `int8`. */
export const int8DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("int8", (n) => new SmallIntDataType(n, Int8Array, true));

/** `int16`. */
export const int16DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("int16", (n) => new SmallIntDataType(n, Int16Array, true));

/** `int32`. */
export const int32DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("int32", (n) => new SmallIntDataType(n, Int32Array, true));

/** `int64` (bigint scalars). */
export const int64DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("int64", (n) => new BigIntDataType(n, BigInt64Array, true));

/** `uint8`. */
export const uint8DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("uint8", (n) => new SmallIntDataType(n, Uint8Array, false));

/** `uint16`. */
export const uint16DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("uint16", (n) => new SmallIntDataType(n, Uint16Array, false));

/** `uint32`. */
export const uint32DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("uint32", (n) => new SmallIntDataType(n, Uint32Array, false));

/** `uint64` (bigint scalars). */
export const uint64DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("uint64", (n) => new BigIntDataType(n, BigUint64Array, false));
