/**
 * IEEE 754 binary16 helpers. float16 data lives in Float32Arrays (every float16 is exact
 * as a float32); these round numbers to float16 and convert between the float32 bit
 * pattern of a float16 value and its 16-bit pattern (keeping NaN payloads).
 */

const F16_OVERFLOW = 65520; // max (65504) + half an ulp: ties round to even, i.e. to infinity
const SUBNORMAL_QUANTUM = 2 ** -24;

/** Rounds `x` to the nearest float16 value (ties to even), as NumPy's conversions do. */
export function roundToFloat16(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  if (a >= F16_OVERFLOW) return x > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  let e = Math.floor(Math.log2(a));
  // log2 may be off by one next to powers of two; fix it exactly.
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  const q = e < -14 ? SUBNORMAL_QUANTUM : 2 ** (e - 10);
  const v = a / q; // exact: q is a power of two and the result is far from the extremes
  let n = Math.floor(v);
  const frac = v - n;
  if (frac > 0.5 || (frac === 0.5 && n % 2 === 1)) n++;
  const r = n * q;
  return x < 0 ? -r : r;
}

/**
 * The float16 bit pattern of the float32 bit pattern `b` of a float16-exact value (as
 * held in a Float32Array). NaN payloads keep their top 10 bits.
 */
export function float16BitsFromFloat32Bits(b: number): number {
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const mant = b & 0x7fffff;
  if (exp === 0xff) {
    if (mant === 0) return sign | 0x7c00;
    const payload = mant >>> 13;
    return sign | 0x7c00 | (payload === 0 ? 0x200 : payload);
  }
  if (exp === 0) return sign; // zero (float16-exact values are never float32 subnormals)
  const e = exp - 127;
  if (e >= -14) return sign | ((e + 15) << 10) | (mant >>> 13);
  if (e < -24) return sign;
  return sign | ((0x800000 | mant) >>> -(e + 1));
}

/** The float32 bit pattern of the float16 bit pattern `h`. */
export function float32BitsFromFloat16Bits(h: number): number {
  const sign = (h & 0x8000) << 16;
  const exp = (h >>> 10) & 0x1f;
  let mant = h & 0x3ff;
  if (exp === 0x1f) return (sign | 0x7f800000 | (mant << 13)) >>> 0;
  if (exp === 0) {
    if (mant === 0) return sign >>> 0;
    // subnormal: normalise
    let e = -14;
    while ((mant & 0x400) === 0) {
      mant <<= 1;
      e--;
    }
    mant &= 0x3ff;
    return (sign | ((e + 127) << 23) | (mant << 13)) >>> 0;
  }
  return (sign | ((exp - 15 + 127) << 23) | (mant << 13)) >>> 0;
}

