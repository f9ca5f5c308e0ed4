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
 * TRANS_BIT_8X8 on a 64-bit word. Blocks of 4-byte elements (the common case) take a
 * faster path: 32 elements at a time as one 32×32 bit transpose (bit-transpose32.ts).
 */

import { bitRowsToElements, elementsToBitRows } from "./bit-transpose32.js";
import { wordPath, words } from "./shuffle.js";


/**
 * The first two steps of an 8×8 bit-matrix transpose, on one 32-bit half (4 rows of 8
 * bits): transposes its 2×2 and then its 4×4 bit blocks. The last step swaps 4×4 blocks
 * between the two halves (done by the callers: it needs both). Small enough that the
 * compiler inlines it into the loops.
 */
function transposeHalves(x: number): number {
  let t = (x ^ (x >>> 7)) & 0x00aa00aa;
  x = x ^ t ^ (t << 7);
  t = (x ^ (x >>> 14)) & 0x0000cccc;
  return x ^ t ^ (t << 14);
}

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
  if (transposePath(src, srcStart, dst, dstStart, n, typesize)) {
    // 32 elements (words) at a time become word g of the 32 bit rows.
    const rows = n >>> 5;
    elementsToBitRows(words(src, srcStart, 4 * n), words(dst, dstStart, 4 * n), rows, rows);
  } else {
    const rowBytes = n >>> 3;
    // Byte j of elements 8g..8g+7 (typesize apart) → byte g of bit rows 8j..8j+7 (rowBytes apart).
    transposeGroups(src, srcStart, 1, 8 * typesize, typesize, dst, dstStart, 8 * rowBytes, 1, rowBytes, typesize, rowBytes);
  }
  copyTail(src, srcStart, dst, dstStart, n * typesize, size);
}

/**
 * True when a block of `n` elements of `typesize` bytes takes the 32×32 transpose: 4-byte
 * elements, `n` a multiple of 32, and word access to both sides (see shuffle.ts).
 */
function transposePath(src: Uint8Array, srcStart: number, dst: Uint8Array, dstStart: number, n: number, typesize: number): boolean {
  return typesize === 4 && n % 32 === 0 && wordPath(src, srcStart, dst, dstStart, n);
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
  if (transposePath(src, srcStart, dst, dstStart, n, typesize)) {
    // Word g of the 32 bit rows becomes 32 elements (words).
    const rows = n >>> 5;
    bitRowsToElements(words(src, srcStart, 4 * n), words(dst, dstStart, 4 * n), rows, rows);
  } else {
    const rowBytes = n >>> 3;
    // The same transpose (it is its own inverse) with the strides swapped.
    transposeGroups(src, srcStart, 8 * rowBytes, 1, rowBytes, dst, dstStart, 1, 8 * typesize, typesize, typesize, rowBytes);
  }
  copyTail(src, srcStart, dst, dstStart, n * typesize, size);
}

/**
 * The loop of both directions: for each of `planes` byte planes and `groups` groups, gathers
 * 8 bytes of `src` (`srcStride` apart), transposes them as an 8×8 bit matrix and scatters
 * the result to `dst` (`dstStride` apart). Plane `j`, group `g` starts at
 * `start + j·plane + g·step` on each side.
 */
function transposeGroups(
  src: Uint8Array,
  srcStart: number,
  srcPlane: number,
  srcStep: number,
  srcStride: number,
  dst: Uint8Array,
  dstStart: number,
  dstPlane: number,
  dstStep: number,
  dstStride: number,
  planes: number,
  groups: number,
): void {
  const s1 = srcStride;
  const s2 = 2 * srcStride;
  const s3 = 3 * srcStride;
  const s4 = 4 * srcStride;
  const s5 = 5 * srcStride;
  const s6 = 6 * srcStride;
  const s7 = 7 * srcStride;
  const d1 = dstStride;
  const d2 = 2 * dstStride;
  const d3 = 3 * dstStride;
  const d4 = 4 * dstStride;
  const d5 = 5 * dstStride;
  const d6 = 6 * dstStride;
  const d7 = 7 * dstStride;
  for (let j = 0; j < planes; j++) {
    let s = srcStart + j * srcPlane;
    let d = dstStart + j * dstPlane;
    for (let g = 0; g < groups; g++, s += srcStep, d += dstStep) {
      // The 8 bytes as an 8×8 bit matrix: lo holds rows 0-3, hi rows 4-7.
      let lo = src[s] | (src[s + s1] << 8) | (src[s + s2] << 16) | (src[s + s3] << 24);
      let hi = src[s + s4] | (src[s + s5] << 8) | (src[s + s6] << 16) | (src[s + s7] << 24);
      lo = transposeHalves(lo);
      hi = transposeHalves(hi);
      const t = (lo ^ (hi << 4)) & 0xf0f0f0f0;
      lo ^= t;
      hi ^= t >>> 4;
      dst[d] = lo;
      dst[d + d1] = lo >>> 8;
      dst[d + d2] = lo >>> 16;
      dst[d + d3] = lo >>> 24;
      dst[d + d4] = hi;
      dst[d + d5] = hi >>> 8;
      dst[d + d6] = hi >>> 16;
      dst[d + d7] = hi >>> 24;
    }
  }
}

/** Copies the bytes after the last whole element (`[whole, size)`) unchanged. */
function copyTail(src: Uint8Array, srcStart: number, dst: Uint8Array, dstStart: number, whole: number, size: number): void {
  for (let k = whole; k < size; k++) dst[dstStart + k] = src[srcStart + k];
}
