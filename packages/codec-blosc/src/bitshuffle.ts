/**
 * Blosc's bit shuffle (the bitshuffle algorithm c-blosc 1.x bundles), for a block of
 * `n` elements of `typesize` bytes. Bit `k` of byte `j` of element `e` ends up in
 * bit row `8·j + k`; a bit row holds `n / 8` bytes, and bit `m` of its byte `g` comes
 * from element `8·g + m`.
 *
 * c-blosc 1.x only transposes a block whose element count is a multiple of 8; any
 * other block is stored as is. Bytes after the last whole element are copied.
 *
 * Each 8×8 bit matrix (8 elements × 8 bits of one byte position) is transposed in two
 * 32-bit halves with the classic three-step swap, the same transform as bitshuffle's
 * TRANS_BIT_8X8 on a 64-bit word.
 */

/**
 * True when c-blosc 1.x bit-shuffles a block of `size` bytes: the block holds at least
 * one element and its element count is a multiple of 8.
 */
export function bitShuffleApplies(size: number, typesize: number): boolean {
  const n = Math.floor(size / typesize);
  return n > 0 && n % 8 === 0;
}

/**
 * Bit-shuffles `size` bytes of `src` (from `srcStart`) into `dst` (from `dstStart`).
 * Copies the block unchanged when c-blosc would (see {@link bitShuffleApplies}).
 *
 * @example
 * ```ts
 * bitShuffle(block, 0, out, 0, block.length, 4);
 * ```
 */
export function bitShuffle(
  src: Uint8Array,
  srcStart: number,
  dst: Uint8Array,
  dstStart: number,
  size: number,
  typesize: number,
): void {
  if (!bitShuffleApplies(size, typesize)) {
    dst.set(src.subarray(srcStart, srcStart + size), dstStart);
    return;
  }
  const n = Math.floor(size / typesize);
  const rowBytes = n >>> 3;
  const groupStride = 8 * typesize;
  for (let j = 0; j < typesize; j++) {
    // Bit rows 8j..8j+7 start here, one row every rowBytes bytes.
    let out = dstStart + 8 * j * rowBytes;
    let s = srcStart + j;
    for (let g = 0; g < rowBytes; g++, s += groupStride, out++) {
      // Byte j of elements 8g..8g+7: lo holds elements 0-3, hi 4-7.
      let lo = src[s] | (src[s + typesize] << 8) | (src[s + 2 * typesize] << 16) | (src[s + 3 * typesize] << 24);
      let hi =
        src[s + 4 * typesize] | (src[s + 5 * typesize] << 8) | (src[s + 6 * typesize] << 16) | (src[s + 7 * typesize] << 24);
      let t = (lo ^ (lo >>> 7)) & 0x00aa00aa;
      lo = lo ^ t ^ (t << 7);
      t = (hi ^ (hi >>> 7)) & 0x00aa00aa;
      hi = hi ^ t ^ (t << 7);
      t = (lo ^ (lo >>> 14)) & 0x0000cccc;
      lo = lo ^ t ^ (t << 14);
      t = (hi ^ (hi >>> 14)) & 0x0000cccc;
      hi = hi ^ t ^ (t << 14);
      t = (lo ^ (hi << 4)) & 0xf0f0f0f0;
      lo ^= t;
      hi ^= t >>> 4;
      dst[out] = lo;
      dst[out + rowBytes] = lo >>> 8;
      dst[out + 2 * rowBytes] = lo >>> 16;
      dst[out + 3 * rowBytes] = lo >>> 24;
      dst[out + 4 * rowBytes] = hi;
      dst[out + 5 * rowBytes] = hi >>> 8;
      dst[out + 6 * rowBytes] = hi >>> 16;
      dst[out + 7 * rowBytes] = hi >>> 24;
    }
  }
  const whole = n * typesize;
  for (let k = whole; k < size; k++) dst[dstStart + k] = src[srcStart + k];
}

/**
 * Reverses {@link bitShuffle}: unshuffles `size` bytes of `src` (from `srcStart`) into
 * `dst` (from `dstStart`).
 *
 * @example
 * ```ts
 * bitUnshuffle(out, 0, block, 0, out.length, 4);
 * ```
 */
export function bitUnshuffle(
  src: Uint8Array,
  srcStart: number,
  dst: Uint8Array,
  dstStart: number,
  size: number,
  typesize: number,
): void {
  if (!bitShuffleApplies(size, typesize)) {
    dst.set(src.subarray(srcStart, srcStart + size), dstStart);
    return;
  }
  const n = Math.floor(size / typesize);
  const rowBytes = n >>> 3;
  const groupStride = 8 * typesize;
  for (let j = 0; j < typesize; j++) {
    let s = srcStart + 8 * j * rowBytes;
    let d = dstStart + j;
    for (let g = 0; g < rowBytes; g++, s++, d += groupStride) {
      let lo = src[s] | (src[s + rowBytes] << 8) | (src[s + 2 * rowBytes] << 16) | (src[s + 3 * rowBytes] << 24);
      let hi =
        src[s + 4 * rowBytes] | (src[s + 5 * rowBytes] << 8) | (src[s + 6 * rowBytes] << 16) | (src[s + 7 * rowBytes] << 24);
      let t = (lo ^ (lo >>> 7)) & 0x00aa00aa;
      lo = lo ^ t ^ (t << 7);
      t = (hi ^ (hi >>> 7)) & 0x00aa00aa;
      hi = hi ^ t ^ (t << 7);
      t = (lo ^ (lo >>> 14)) & 0x0000cccc;
      lo = lo ^ t ^ (t << 14);
      t = (hi ^ (hi >>> 14)) & 0x0000cccc;
      hi = hi ^ t ^ (t << 14);
      t = (lo ^ (hi << 4)) & 0xf0f0f0f0;
      lo ^= t;
      hi ^= t >>> 4;
      dst[d] = lo;
      dst[d + typesize] = lo >>> 8;
      dst[d + 2 * typesize] = lo >>> 16;
      dst[d + 3 * typesize] = lo >>> 24;
      dst[d + 4 * typesize] = hi;
      dst[d + 5 * typesize] = hi >>> 8;
      dst[d + 6 * typesize] = hi >>> 16;
      dst[d + 7 * typesize] = hi >>> 24;
    }
  }
  const whole = n * typesize;
  for (let k = whole; k < size; k++) dst[dstStart + k] = src[srcStart + k];
}
