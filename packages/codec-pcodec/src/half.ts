/** Conversion of a JS number to an IEEE binary16 bit pattern, rounding to nearest even. */
import { roundHalfEven } from "@zarr/spec";

/** The binary16 bit pattern nearest to `x` (ties to even; NaN becomes a quiet NaN). */
export function floatToHalfBits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  let a = Math.abs(x);
  if (a === Number.POSITIVE_INFINITY) return sign | 0x7c00;
  if (a >= 65520) return sign | 0x7c00; // rounds past the largest half (65504)
  if (a < 2 ** -14) {
    // Subnormal: units of 2^-24, rounded to nearest even.
    const units = roundHalfEven(a * 2 ** 24);
    return sign | units; // 1024 units carries into the smallest normal, as it should
  }
  let exp = Math.floor(Math.log2(a));
  if (2 ** exp > a) exp--;
  else if (2 ** (exp + 1) <= a) exp++;
  a /= 2 ** exp; // in [1, 2)
  let mant = roundHalfEven((a - 1) * 1024);
  if (mant === 1024) {
    mant = 0;
    exp++;
  }
  if (exp > 15) return sign | 0x7c00;
  return sign | ((exp + 15) << 10) | mant;
}
