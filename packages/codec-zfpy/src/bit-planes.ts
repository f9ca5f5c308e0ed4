/**
 * Embedded coding of a block's coefficients, one bit plane at a time from the most
 * significant (libzfp's `decode_ints`): in each plane the bits of the coefficients already
 * known to be significant come verbatim, then group tests ("is any further coefficient
 * significant in this plane?") and unary run lengths find the next significant ones. The
 * budget `maxbits` may stop decoding mid-plane.
 */
import type { BitReader } from "./bit-reader.js";

/**
 * Decodes `size` unsigned coefficients of `intprec` bits (32 or 64), at most `maxprec`
 * planes and `maxbits` bits. Bits of planes 0–31 go to `low`, of planes 32–63 to `high`
 * (unused for 32-bit coefficients). Returns the bits read.
 */
export function decodeBitPlanes(
  reader: BitReader,
  maxbits: number,
  maxprec: number,
  size: number,
  intprec: number,
  low: Int32Array,
  high: Int32Array,
): number {
  const kmin = intprec > maxprec ? intprec - maxprec : 0;
  let bits = maxbits;
  low.fill(0, 0, size);
  if (intprec > 32) high.fill(0, 0, size);
  // Coefficients 0 … n−1 are significant already.
  let n = 0;
  for (let k = intprec; bits > 0 && k-- > kmin; ) {
    const plane = k >= 32 ? high : low;
    const bit = 1 << (k & 31);
    // The first n bits of the plane, verbatim.
    const m = Math.min(n , bits);
    bits -= m;
    for (let i = 0; i < m; ) {
      const count = Math.min(m - i , 24);
      let x = reader.bits(count);
      // Visit the one bits only.
      while (x !== 0) {
        const lowest = x & -x;
        plane[i + 31 - Math.clz32(lowest)] |= bit;
        x ^= lowest;
      }
      i += count;
    }
    // The rest of the plane: group test, then a unary run to the next one bit.
    while (n < size && bits > 0) {
      bits--;
      if (reader.bit() === 0) break;
      // Zeros up to the next one bit, at most up to the last coefficient or the budget;
      // scanned 24 bits at a time.
      for (let limit = Math.min(size - 1 - n, bits); limit > 0; ) {
        const window = reader.peek24();
        const span = Math.min(limit, 24);
        const zeros = window === 0 ? 24 : 31 - Math.clz32(window & -window);
        if (zeros >= span) {
          reader.skip(span);
          n += span;
          bits -= span;
          limit -= span;
          continue;
        }
        reader.skip(zeros + 1);
        n += zeros;
        bits -= zeros + 1;
        break;
      }
      plane[n] |= bit;
      n++;
    }
  }
  return maxbits - bits;
}
