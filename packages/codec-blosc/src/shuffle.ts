/**
 * Blosc's byte shuffle: within one block of `n = floor(size / typesize)` elements,
 * byte `j` of element `i` moves to position `j·n + i`, so equal-significance bytes sit
 * together. Bytes past `n·typesize` (a block that is not a whole number of elements)
 * are copied unchanged, as c-blosc does.
 *
 * Element sizes 2, 4 and 8 have word paths: four elements at a time, 32-bit loads from
 * each byte stream and a 4×4 byte transpose in registers, then 32-bit stores (one load
 * and one store per four bytes instead of one each per byte). They need 4-byte aligned
 * buffers, `n` divisible by 4 and a little-endian host (every JavaScript engine in
 * practice); anything else takes the byte loops.
 */

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Copies the bytes after the last whole element. */
function copyTail(src: Uint8Array, srcStart: number, dst: Uint8Array, dstStart: number, from: number, size: number): void {
  for (let k = from; k < size; k++) dst[dstStart + k] = src[srcStart + k];
}

/** True when both windows can be read and written as aligned 32-bit words in groups of 4 elements. */
export function wordPath(src: Uint8Array, srcStart: number, dst: Uint8Array, dstStart: number, n: number): boolean {
  return LITTLE_ENDIAN && n >= 4 && (n & 3) === 0 && ((src.byteOffset + srcStart) & 3) === 0 && ((dst.byteOffset + dstStart) & 3) === 0;
}

/** An Int32Array over `bytes` 32-bit words of `a` from `start` (aligned, checked by the caller). */
export function words(a: Uint8Array, start: number, bytes: number): Int32Array {
  return new Int32Array(a.buffer, a.byteOffset + start, bytes >>> 2);
}

/**
 * Shuffles `size` bytes of `src` (from `srcStart`) into `dst` (from `dstStart`).
 *
 * @example
 * ```ts
 * byteShuffle(block, 0, shuffled, 0, block.length, 4);
 * ```
 */
export function byteShuffle(
  src: Uint8Array,
  srcStart: number,
  dst: Uint8Array,
  dstStart: number,
  size: number,
  typesize: number,
): void {
  const n = Math.floor(size / typesize);
  if (typesize <= 1 || n === 0) {
    dst.set(src.subarray(srcStart, srcStart + size), dstStart);
    return;
  }
  if (typesize === 4 && wordPath(src, srcStart, dst, dstStart, n)) {
    // A 4×4 byte transpose is its own inverse: the same code as the unshuffle, with
    // elements as input rows and streams as output rows.
    const input = words(src, srcStart, 4 * n);
    const out = words(dst, dstStart, 4 * n);
    const q = n >>> 2;
    for (let k = 0, w = 0; k < q; k++, w += 4) {
      const a = input[w];
      const b = input[w + 1];
      const c = input[w + 2];
      const d = input[w + 3];
      const t0 = (a & 0x00ff00ff) | ((b & 0x00ff00ff) << 8);
      const t1 = ((a >>> 8) & 0x00ff00ff) | (b & 0xff00ff00);
      const t2 = (c & 0x00ff00ff) | ((d & 0x00ff00ff) << 8);
      const t3 = ((c >>> 8) & 0x00ff00ff) | (d & 0xff00ff00);
      out[k] = (t0 & 0xffff) | (t2 << 16);
      out[q + k] = (t1 & 0xffff) | (t3 << 16);
      out[2 * q + k] = (t0 >>> 16) | (t2 & 0xffff0000);
      out[3 * q + k] = (t1 >>> 16) | (t3 & 0xffff0000);
    }
  } else if (typesize === 4) {
    const d1 = dstStart + n;
    const d2 = d1 + n;
    const d3 = d2 + n;
    for (let i = 0, s = srcStart; i < n; i++, s += 4) {
      dst[dstStart + i] = src[s];
      dst[d1 + i] = src[s + 1];
      dst[d2 + i] = src[s + 2];
      dst[d3 + i] = src[s + 3];
    }
  } else if (typesize === 2) {
    const d1 = dstStart + n;
    for (let i = 0, s = srcStart; i < n; i++, s += 2) {
      dst[dstStart + i] = src[s];
      dst[d1 + i] = src[s + 1];
    }
  } else {
    for (let j = 0; j < typesize; j++) {
      const d = dstStart + j * n;
      for (let i = 0, s = srcStart + j; i < n; i++, s += typesize) dst[d + i] = src[s];
    }
  }
  copyTail(src, srcStart, dst, dstStart, n * typesize, size);
}

/**
 * Reverses {@link byteShuffle}: unshuffles `size` bytes of `src` (from `srcStart`) into
 * `dst` (from `dstStart`).
 *
 * @example
 * ```ts
 * byteUnshuffle(shuffled, 0, block, 0, shuffled.length, 4);
 * ```
 */
export function byteUnshuffle(
  src: Uint8Array,
  srcStart: number,
  dst: Uint8Array,
  dstStart: number,
  size: number,
  typesize: number,
): void {
  const n = Math.floor(size / typesize);
  if (typesize <= 1 || n === 0) {
    dst.set(src.subarray(srcStart, srcStart + size), dstStart);
    return;
  }
  if (wordPath(src, srcStart, dst, dstStart, n) && (typesize === 4 || typesize === 8 || typesize === 2)) {
    unshuffleWords(words(src, srcStart, typesize * n), words(dst, dstStart, typesize * n), n >>> 2, typesize);
  } else {
    for (let j = 0; j < typesize; j++) {
      const s = srcStart + j * n;
      for (let i = 0, d = dstStart + j; i < n; i++, d += typesize) dst[d] = src[s + i];
    }
  }
  copyTail(src, srcStart, dst, dstStart, n * typesize, size);
}

/**
 * A 4×4 byte transpose: byte `i` of word `r` (of `r0`…`r3`) becomes byte `r` of word `i`,
 * stored at `out[w + i·step]`. Interleaves the bytes of r0/r1 and r2/r3, then the halves.
 * Small enough that the compiler inlines it into the loops.
 */
function transposeBytes4x4(out: Int32Array, w: number, step: number, r0: number, r1: number, r2: number, r3: number): void {
  const t0 = (r0 & 0x00ff00ff) | ((r1 & 0x00ff00ff) << 8);
  const t1 = ((r0 >>> 8) & 0x00ff00ff) | (r1 & 0xff00ff00);
  const t2 = (r2 & 0x00ff00ff) | ((r3 & 0x00ff00ff) << 8);
  const t3 = ((r2 >>> 8) & 0x00ff00ff) | (r3 & 0xff00ff00);
  out[w] = (t0 & 0xffff) | (t2 << 16);
  out[w + step] = (t1 & 0xffff) | (t3 << 16);
  out[w + 2 * step] = (t0 >>> 16) | (t2 & 0xffff0000);
  out[w + 3 * step] = (t1 >>> 16) | (t3 & 0xffff0000);
}

/**
 * Word paths of the unshuffle: `q` groups of four elements. Stream `j` starts at word
 * `j·q`; its word `k` holds byte `j` of elements 4k…4k+3.
 */
function unshuffleWords(input: Int32Array, out: Int32Array, q: number, typesize: number): void {
  if (typesize === 4) {
    const q2 = 2 * q;
    const q3 = 3 * q;
    for (let k = 0, w = 0; k < q; k++, w += 4) {
      transposeBytes4x4(out, w, 1, input[k], input[q + k], input[q2 + k], input[q3 + k]);
    }
  } else if (typesize === 8) {
    // Two 4×4 transposes: streams 0–3 give the low words, streams 4–7 the high words.
    for (let k = 0, w = 0; k < q; k++, w += 8) {
      transposeBytes4x4(out, w, 2, input[k], input[q + k], input[2 * q + k], input[3 * q + k]);
      transposeBytes4x4(out, w + 1, 2, input[4 * q + k], input[5 * q + k], input[6 * q + k], input[7 * q + k]);
    }
  } else {
    // typesize 2: a = byte 0 of elements 0–3, b = byte 1; out words hold elements 0–1 and 2–3.
    for (let k = 0, w = 0; k < q; k++, w += 2) {
      const a = input[k];
      const b = input[q + k];
      const lo = (a & 0x00ff00ff) | ((b & 0x00ff00ff) << 8); // elements 0 and 2
      const hi = ((a >>> 8) & 0x00ff00ff) | (b & 0xff00ff00); // elements 1 and 3
      out[w] = (lo & 0xffff) | (hi << 16);
      out[w + 1] = (lo >>> 16) | (hi & 0xffff0000);
    }
  }
}
