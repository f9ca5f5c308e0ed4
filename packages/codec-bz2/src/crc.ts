/**
 * The CRC-32 bzip2 stores per block and per stream: polynomial 0x04C11DB7 processed
 * most-significant bit first (not the reflected zlib variant), initial value and final
 * XOR 0xFFFFFFFF. Values are kept as signed 32-bit integers while updating; callers
 * turn the final value into an unsigned number with `>>> 0`.
 */

/** Initial register value. */
export const CRC_INIT = -1;

/** Four slicing tables: T0 is the classic byte table, Tk = T0 followed by k zero bytes. */
const T0 = new Int32Array(256);
const T1 = new Int32Array(256);
const T2 = new Int32Array(256);
const T3 = new Int32Array(256);

for (let i = 0; i < 256; i++) {
  let c = i << 24;
  for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  T0[i] = c;
}
for (let i = 0; i < 256; i++) {
  T1[i] = (T0[i] << 8) ^ T0[T0[i] >>> 24];
  T2[i] = (T1[i] << 8) ^ T0[T1[i] >>> 24];
  T3[i] = (T2[i] << 8) ^ T0[T2[i] >>> 24];
}

/**
 * Feeds `data[start..end)` into the running register `crc` (start from {@link CRC_INIT}).
 * Processes four bytes per step (slicing-by-4) because this runs over every output byte.
 */
export function crcUpdate(crc: number, data: Uint8Array, start: number, end: number): number {
  let i = start;
  const end4 = end - 3;
  for (; i < end4; i += 4) {
    crc ^= (data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3];
    crc = T3[crc >>> 24] ^ T2[(crc >>> 16) & 0xff] ^ T1[(crc >>> 8) & 0xff] ^ T0[crc & 0xff];
  }
  for (; i < end; i++) crc = (crc << 8) ^ T0[(crc >>> 24) ^ data[i]];
  return crc;
}

/** The finished CRC of a register, as an unsigned 32-bit number. */
export function crcFinish(crc: number): number {
  return ~crc >>> 0;
}

/** Folds a block CRC into the stream CRC: rotate left by one, then XOR. */
export function combineCrc(combined: number, blockCrc: number): number {
  return (((combined << 1) | (combined >>> 31)) ^ blockCrc) >>> 0;
}
