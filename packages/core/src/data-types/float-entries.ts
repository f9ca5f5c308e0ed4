/**
 * The `float32` and `float64` data type entries: a module of its own so that a registry loads it the first time an
 * array needs it (see builtin.ts), and an app reading only floats never loads the others.
 */
import type { DataTypeEntry } from "@zarr/spec";
// From numeric-parts.ts, as every data type module takes them (see there): then this module
// is reached by its own entry alone and its chunk holds it, the parts one shared chunk.
import { FloatDataType, plainEntry } from "./numeric-parts.js";

export { FloatDataType, float32BitsToNumber, numberToFloat32Bits } from "./numeric-parts.js";

/** `float32`. */
export const float32DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("float32", (n) => new FloatDataType(n, 32));

/** `float64`. */
export const float64DataType: DataTypeEntry = /* @__PURE__ */ plainEntry("float64", (n) => new FloatDataType(n, 64));
