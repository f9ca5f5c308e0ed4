/**
 * The parts the data type modules build on (byte order, shared helpers, the plain entry,
 * the float types and their bits), re-exported from one module: every data type module,
 * the float entries included, imports them from here, never from their own modules.
 *
 * Why (bundle size and requests): esbuild puts each module into a chunk by the set of
 * lazily loaded entries that reach it, so parts that some data type modules import
 * directly and others not each land in a chunk of their own, and reading an array loads
 * them as separate files. Imported through this module, every part listed here is reached
 * by the same entries, so they share one chunk. The entries themselves (float-entries.ts,
 * integer-entries.ts...) are not re-exported here: each stays in its own entry's chunk
 * (re-exported, this module's chunk would differ from the parts' by one entry and load as
 * an empty file of its own). See core's up-front.ts for the same rule for the modules that
 * load up front.
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
export { plainEntry } from "./plain-entry.js";
export { bigIntToJson, CORE_PACKAGE, cannotHold, expectNoConfiguration, jsonIntegerToBigInt } from "./shared.js";
