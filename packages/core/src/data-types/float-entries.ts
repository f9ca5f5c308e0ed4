/**
 * The `float32` and `float64` data type entries: a module of its own so that a registry loads it the first time an
 * array needs it (see builtin.ts), and an app reading only floats never loads the others.
 */
import type { DataTypeEntry } from "@zarr/spec";
import { FloatDataType } from "./float.js";
import { plainEntry } from "./plain-entry.js";

export { FloatDataType } from "./float.js";
export { float32BitsToNumber, numberToFloat32Bits } from "./float-bits.js";

/** `float32`. */
export const float32DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("float32", (n) => new FloatDataType(n, 32));

/** `float64`. */
export const float64DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("float64", (n) => new FloatDataType(n, 64));
