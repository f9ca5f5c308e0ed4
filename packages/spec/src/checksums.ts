/**
 * The checksums several packages need, one fast implementation each instead of one copy
 * per package:
 * - CRC-32 (ISO-HDLC, the checksum of gzip, zip, xz and numcodecs' `crc32`). Slicing-by-8:
 *   eight 256-entry tables, 8 input bytes per step read as two 32-bit words.
 * - Adler-32 (RFC 1950, zlib streams' trailer, blosc's zlib chunks, numcodecs' `adler32`).
 */

/** Builds the slicing-by-8 tables of a reflected CRC-32 polynomial. */
export function crc32Tables(polynomial: number): Int32Array {
  const t = new Int32Array(8 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ polynomial : c >>> 1;
    t[i] = c;
  }
  for (let i = 0; i < 256; i++) {
    let c = t[i];
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff] ^ (c >>> 8);
      t[k * 256 + i] = c;
    }
  }
  return t;
}

// Reading words through an Int32Array gives little-endian words only on little-endian
// platforms (all common ones); others take the byte loop.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Continues a reflected CRC-32 with tables from {@link crc32Tables} over `bytes`;
 * `previous` is an earlier result (0 to start).
 */
export function crc32WithTables(t: Int32Array, bytes: Uint8Array, previous = 0): number {
  const n = bytes.length;
  let c = ~previous;
  let i = 0;
  if (LITTLE_ENDIAN && n >= 64) {
    const head = (4 - (bytes.byteOffset & 3)) & 3;
    for (; i < head; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    const words = new Int32Array(bytes.buffer, bytes.byteOffset + i, ((n - i) >>> 3) << 1);
    const count = words.length;
    for (let w = 0; w < count; w += 2) {
      const lo = c ^ words[w];
      const hi = words[w + 1];
      c =
        t[1792 + (lo & 0xff)] ^
        t[1536 + ((lo >>> 8) & 0xff)] ^
        t[1280 + ((lo >>> 16) & 0xff)] ^
        t[1024 + (lo >>> 24)] ^
        t[768 + (hi & 0xff)] ^
        t[512 + ((hi >>> 8) & 0xff)] ^
        t[256 + ((hi >>> 16) & 0xff)] ^
        t[hi >>> 24];
    }
    i += count << 2;
  }
  for (; i < n; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

let ieeeTables: Int32Array | undefined;

/**
 * CRC-32 of `bytes` (polynomial 0xEDB88320, as zlib's `crc32`), continuing from `previous`.
 *
 * @example
 * ```ts
 * crc32(new TextEncoder().encode("123456789")); // 0xcbf43926
 * ```
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  ieeeTables ??= crc32Tables(0xedb88320);
  return crc32WithTables(ieeeTables, bytes, previous);
}

/** Adler-32's modulus: the largest prime below 2^16. */
const ADLER_MOD = 65521;
/**
 * Most bytes summed before the sums must be reduced (zlib's NMAX): the largest n with
 * 255·n(n+1)/2 + (n+1)·(MOD-1) < 2^32, so the inner loop runs without a modulo.
 */
const ADLER_NMAX = 5552;

/**
 * Adler-32 of `bytes` (as zlib's `adler32`), continuing from `previous` (1 to start), as
 * an unsigned 32-bit number.
 *
 * @example
 * ```ts
 * adler32(new TextEncoder().encode("Wikipedia")); // 0x11e60398
 * adler32(new Uint8Array(0));                     // 1
 * ```
 */
export function adler32(bytes: Uint8Array, previous = 1): number {
  let a = previous & 0xffff;
  let b = previous >>> 16;
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const end = Math.min(i + ADLER_NMAX, n);
    for (; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= ADLER_MOD;
    b %= ADLER_MOD;
  }
  return ((b << 16) | a) >>> 0;
}
