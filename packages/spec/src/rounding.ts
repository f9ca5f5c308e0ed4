/** Rounding shared by the data types and codecs that narrow numbers (float16, NumPy casts, text). */

/**
 * `x` rounded to the nearest integer, ties to even (IEEE 754's default rounding, NumPy's
 * `around`/`rint`); -0, NaN and ±Infinity are kept. Exact for every float64: ties can only
 * occur below 2^52, where `x ± 0.5` is exact.
 *
 * @example
 * ```ts
 * roundHalfEven(2.5);  // 2
 * roundHalfEven(3.5);  // 4
 * roundHalfEven(-1.5); // -2
 * ```
 */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
