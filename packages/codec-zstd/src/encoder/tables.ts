/**
 * Constant tables of the zstd format (RFC 8878 §3.1.1.3.2.1): how literal lengths,
 * match lengths and offsets map to FSE codes plus extra bits, and the predefined
 * ("default") distributions used by `Predefined_Mode`.
 */

/** Baseline of each literal-length code 0..35. */
export const LL_BASE = new Uint32Array([
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024,
  2048, 4096, 8192, 16384, 32768, 65536,
]);
/** Extra bits of each literal-length code. */
export const LL_BITS = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
]);

/** Baseline of each match-length code 0..52 (match lengths start at 3). */
export const ML_BASE = new Uint32Array([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
  35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539,
]);
/** Extra bits of each match-length code. */
export const ML_BITS = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3,
  4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
]);

/** Largest literal-length, match-length and offset codes. */
export const MAX_LL = 35;
export const MAX_ML = 52;
export const MAX_OF = 31;

/** Largest accuracy logs allowed for `FSE_Compressed_Mode` tables. */
export const LL_MAX_LOG = 9;
export const ML_MAX_LOG = 9;
export const OF_MAX_LOG = 8;

/** Predefined literal-length distribution (accuracy log 6). */
export const LL_DEFAULT_NORM = new Int16Array([
  4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1,
]);
export const LL_DEFAULT_LOG = 6;
/** Predefined match-length distribution (accuracy log 6). */
export const ML_DEFAULT_NORM = new Int16Array([
  1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
]);
export const ML_DEFAULT_LOG = 6;
/** Predefined offset-code distribution (accuracy log 5, codes 0..28). */
export const OF_DEFAULT_NORM = new Int16Array([
  1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1,
]);
export const OF_DEFAULT_LOG = 5;

/** Index of the highest set bit of a positive 32-bit value. */
export function highBit(v: number): number {
  return 31 - Math.clz32(v);
}

// Codes of small lengths by lookup; larger ones follow a log2 rule.
const LL_CODE_SMALL = buildCodeLookup(LL_BASE, 64, 0);
const ML_CODE_SMALL = buildCodeLookup(ML_BASE, 128, 3);

function buildCodeLookup(base: Uint32Array, size: number, offset: number): Uint8Array {
  const table = new Uint8Array(size);
  let code = 0;
  for (let v = 0; v < size; v++) {
    while (code + 1 < base.length && base[code + 1] - offset <= v) code++;
    table[v] = code;
  }
  return table;
}

/** The literal-length code of a literal run of `length` bytes (0..131071). */
export function literalLengthCode(length: number): number {
  return length < 64 ? LL_CODE_SMALL[length] : highBit(length) + 19;
}

/** The match-length code of a match of `length` bytes (3..131074). */
export function matchLengthCode(length: number): number {
  const v = length - 3;
  return v < 128 ? ML_CODE_SMALL[v] : highBit(v) + 36;
}
