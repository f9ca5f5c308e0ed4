/**
 * Fletcher-32 as HDF5 (and netCDF-4, and numcodecs' Fletcher32 codec) computes it: big-endian 16-bit
 * words, sums reduced with end-around carry every 360 words, an odd trailing byte taken as
 * the high byte of a last word.
 */

/** The HDF5 Fletcher-32 checksum of `data`. */
export function fletcher32(data: Uint8Array): number {
  let sum1 = 0;
  let sum2 = 0;
  let words = data.length >>> 1;
  let p = 0;
  while (words > 0) {
    let block = Math.min(words, 360);
    words -= block;
    do {
      sum1 += (data[p] << 8) | data[p + 1];
      p += 2;
      sum2 += sum1;
    } while (--block > 0);
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  if (data.length & 1) {
    sum1 += data[p] << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  return ((sum2 << 16) | sum1) >>> 0;
}
