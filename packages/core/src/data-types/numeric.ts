/**
 * The common numeric data types (`bool`, the integers, `float32`, `float64`): the ones
 * every registry holds eagerly. The others load on first use (see builtin.ts).
 */
import type { DataTypeEntry } from "@zarr/spec";
import { BoolDataType } from "./bool.js";
import { FloatDataType } from "./float.js";
import { BigIntDataType, SmallIntDataType } from "./integer.js";
import { plainEntry } from "./plain-entry.js";

/** `bool`. */
export const boolDataType: DataTypeEntry = /* @__PURE__ */ plainEntry("bool", (n) => new BoolDataType(n));
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
/** `float32`. */
export const float32DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("float32", (n) => new FloatDataType(n, 32));
/** `float64`. */
export const float64DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("float64", (n) => new FloatDataType(n, 64));
