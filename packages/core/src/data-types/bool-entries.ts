/**
 * The `bool` data type entry: a module of its own so that a registry loads it the first time an
 * array needs it (see builtin.ts), and an app reading only floats never loads the others.
 */
import type { DataTypeEntry } from "@zarr/spec";
import { BoolDataType } from "./bool.js";
import { plainEntry } from "./numeric-parts.js";

export { BoolDataType } from "./bool.js";

/** `bool`. */
export const boolDataType: DataTypeEntry = /* @__PURE__ */ plainEntry("bool", (n) => new BoolDataType(n));
