/** Adler-32 (RFC 1950), to verify zlib streams' trailers. */

/** Largest run of bytes before the sums must be reduced modulo 65521 (zlib's NMAX). */
const NMAX = 5552;

/**
 * The Adler-32 checksum of `data`, as an unsigned 32-bit number.
 *
 * @example
 * ```ts
 * adler32(new TextEncoder().encode("Wikipedia")) // 0x11e60398
 * ```
 */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = data.length;
  for (let i = 0; i < n; ) {
    const end = Math.min(i + NMAX, n);
    for (; i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
