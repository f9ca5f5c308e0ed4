/** Adler-32 as zlib computes it. */

const MOD = 65521;
/** Bytes that can be summed before the 32-bit sums must be reduced (zlib's NMAX). */
const NMAX = 5552;

/** The Adler-32 of `data` (continuing from `previous`, as `zlib.adler32(data, previous)`). */
export function adler32(data: Uint8Array, previous = 1): number {
  let a = previous & 0xffff;
  let b = previous >>> 16;
  const n = data.length;
  let i = 0;
  while (i < n) {
    const end = Math.min(n, i + NMAX);
    for (; i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= MOD;
    b %= MOD;
  }
  return ((b << 16) | a) >>> 0;
}
