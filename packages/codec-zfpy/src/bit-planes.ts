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
    const m = n < bits ? n : bits;
    bits -= m;
    for (let i = 0; i < m; ) {
      const count = m - i < 24 ? m - i : 24;
      let x = reader.bits(count);
      for (let j = i; x !== 0; j++, x >>>= 1) if (x & 1) plane[j] |= bit;
      i += count;
    }
    // The rest of the plane: group test, then a unary run to the next one bit.
    while (n < size && bits > 0) {
      bits--;
      if (reader.bit() === 0) break;
      while (n < size - 1 && bits > 0) {
        bits--;
        if (reader.bit() !== 0) break;
        n++;
      }
      plane[n] |= bit;
      n++;
    }
  }
  return maxbits - bits;
}
