/**
 * The modules of the `float32`/`float64` entries that the other data type modules build
 * on (byte order, shared helpers, the plain entry, the float types and their bits),
 * re-exported from one module: data type modules outside this group import them from
 * here, never from their own modules.
 *
 * Why (bundle size and requests): esbuild puts each module into a chunk by the set of
 * lazily loaded entries that reach it, so modules that the float entries and some other
 * data type modules both import directly each land in a chunk of their own, and reading
 * a float array loads them as separate files. Imported through this module, every module
 * listed here is reached by the same entries, so reading floats loads one chunk for them
 * (see core's up-front.ts for the same rule for the modules that load up front).
 */
export {
  checkByteLength,
  MACHINE_LITTLE_ENDIAN,
  swapBytesInPlace,
  typedFromBytes,
  typedToBytes,
  type ViewConstructor,
} from "./byte-order.js";
export { FloatDataType, wordsOf } from "./float.js";
export {
  FLOAT32,
  FLOAT64,
  type FloatFormat,
  float32BitsToNumber,
  float64FromWords,
  float64HighWord,
  float64LowWord,
  float64Words,
  floatFillToJson,
  numberToFloat32Bits,
  parseFloatFill,
  words,
} from "./float-bits.js";
export { float32DataType, float64DataType } from "./float-entries.js";
export { plainEntry } from "./plain-entry.js";
export { bigIntToJson, CORE_PACKAGE, cannotHold, expectNoConfiguration, jsonIntegerToBigInt } from "./shared.js";
