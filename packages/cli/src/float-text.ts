/**
 * The shortest decimal text of a float32 or float16 value that reads back to the same
 * value in its own precision, as NumPy and zarr-python print them (`0.06` for the
 * float32 nearest to 0.06, where a float64 print gives `0.05999999865889549`).
 */
import { roundHalfEven } from "@zarr/spec";

/** A binary floating-point format narrower than float64. */
export interface NarrowFloat {
  /** Bits of the stored mantissa (float32: 23, float16: 10). */
  mantissaBits: number;
  /** The smallest normal exponent (float32: -126, float16: -14). */
  minExponent: number;
  /** The largest finite value. */
  maxFinite: number;
}

export const FLOAT32: NarrowFloat = { mantissaBits: 23, minExponent: -126, maxFinite: 3.4028234663852886e38 };
export const FLOAT16: NarrowFloat = { mantissaBits: 10, minExponent: -14, maxFinite: 65504 };

/**
 * The value of `format` nearest to `x` (ties to even), as IEEE 754 rounding gives it;
 * ±Infinity past the largest finite value. Multiplying and dividing by powers of two is
 * exact in float64, so only the one rounding step happens.
 */
export function roundToFormat(x: number, format: NarrowFloat): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  // log2 may land one off next to powers of two.
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  const quantum = 2 ** (Math.max(e, format.minExponent) - format.mantissaBits);
  const r = roundHalfEven(a / quantum) * quantum;
  // The largest finite value plus half a quantum rounds to infinity.
  const limit = format.maxFinite + 2 ** (Math.floor(Math.log2(format.maxFinite)) - format.mantissaBits - 1);
  const rounded = a >= limit ? Number.POSITIVE_INFINITY : r;
  return x < 0 ? -rounded : rounded;
}

/**
 * The shortest decimal text of `x` (a value of `format`) that rounds back to `x` in that
 * format, in JSON number syntax (`-0.0` for negative zero, as the rest of the CLI's JSON
 * writes it). Non-finite values are the caller's business (canonical JSON spells them as
 * strings).
 */
export function shortestFloatText(x: number, format: NarrowFloat): string {
  if (Object.is(x, -0)) return "-0.0";
  if (x === 0 || !Number.isFinite(x)) return JSON.stringify(x);
  for (let digits = 1; digits < 17; digits++) {
    const candidate = Number(x.toPrecision(digits));
    if (roundToFormat(candidate, format) !== x) continue;
    const even = evenTieAlternative(x, digits);
    return JSON.stringify(even !== undefined && roundToFormat(even, format) === x ? even : candidate);
  }
  return JSON.stringify(x);
}

/**
 * When `x` lies exactly halfway between two `digits`-digit decimals, `toPrecision` picks
 * the one of larger magnitude; NumPy (Dragon4) picks the one whose last digit is even
 * (float32 3364096.25 prints as `3364096.2`). Returns that smaller-magnitude decimal
 * when it is the even one, else undefined.
 */
function evenTieAlternative(x: number, digits: number): number | undefined {
  // toExponential(100) is exact for every float32 and float16 value that can tie at
  // under 17 digits (a tie's exact expansion is `digits + 1` digits ending in 5).
  const [mantissa, exponent] = Math.abs(x).toExponential(100).split("e");
  const exact = mantissa.replace(".", "").replace(/0+$/, "");
  if (exact.length !== digits + 1 || !exact.endsWith("5")) return undefined;
  const truncated = exact.slice(0, digits);
  if (Number(truncated[truncated.length - 1]) % 2 !== 0) return undefined;
  const value = Number(`${truncated[0]}.${truncated.slice(1)}e${exponent}`);
  return x < 0 ? -value : value;
}
