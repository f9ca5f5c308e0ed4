/**
 * Adler-32, the checksum in a zlib stream's trailer (RFC 1950). Only the browser backend
 * needs it: fflate does not verify the trailer, so the backend checks it itself.
 */

const MOD = 65521;
// Largest run of bytes after which the sums still fit in 32 bits (zlib's NMAX), so the
// modulo is taken once per run instead of once per byte.
const RUN = 5552;

/** Adler-32 of `bytes`, as an unsigned 32-bit integer. */
export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const end = Math.min(i + RUN, n);
    for (; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= MOD;
    b %= MOD;
  }
  return ((b << 16) | a) >>> 0;
}
