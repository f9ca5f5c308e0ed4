/**
 * The x86 BCJ filter: converts the 32-bit relative targets of CALL (E8) and JMP (E9)
 * instructions to absolute addresses when encoding, and back when decoding, which makes
 * executable code more compressible. It works on the whole buffer at once, which gives the
 * same result as the streaming filter (the last four bytes are never converted).
 */

// Whether a candidate is converted, by the pattern of recent E8/E9 bytes that were not.
const ALLOWED = [true, true, true, false, true, false, false, false];
const BIT_NUMBER = [0, 1, 2, 2, 3, 3, 3, 3];

/** True for the most significant byte of a plausible near target (0x00 or 0xFF). */
function isNearMsb(b: number): boolean {
  return b === 0 || b === 0xff;
}

/**
 * Converts `buf[start, end)` in place. `startOffset` is the filter's start offset (the
 * address of the first byte); `encoding` selects relative→absolute (true) or back (false).
 */
export function x86Convert(buf: Uint8Array, start: number, end: number, startOffset: number, encoding: boolean): void {
  const size = end - start;
  if (size < 5) return;
  let prevMask = 0;
  // Position (relative to the stream) of the last E8/E9 byte seen; starts "long ago".
  let prevPos = -5;
  const limit = size - 5;
  let i = 0;
  while (i <= limit) {
    let b = buf[start + i];
    if (b !== 0xe8 && b !== 0xe9) {
      i++;
      continue;
    }
    const offset = i - prevPos;
    prevPos = i;
    if (offset > 5) {
      prevMask = 0;
    } else {
      for (let k = 0; k < offset; k++) {
        prevMask &= 0x77;
        prevMask <<= 1;
      }
    }
    const p = start + i;
    b = buf[p + 4];
    if (isNearMsb(b) && ALLOWED[(prevMask >>> 1) & 7] && prevMask >>> 1 < 0x10) {
      let src = ((b << 24) | (buf[p + 3] << 16) | (buf[p + 2] << 8) | buf[p + 1]) >>> 0;
      const here = (startOffset + i + 5) >>> 0;
      let dest: number;
      for (;;) {
        dest = encoding ? (src + here) >>> 0 : (src - here) >>> 0;
        if (prevMask === 0) break;
        const idx = BIT_NUMBER[prevMask >>> 1];
        b = (dest >>> (24 - idx * 8)) & 0xff;
        if (!isNearMsb(b)) break;
        src = (dest ^ ((2 ** (32 - idx * 8) - 1) >>> 0)) >>> 0;
      }
      // Bit 24 of the target decides whether the top byte is stored as 0x00 or 0xFF.
      buf[p + 4] = (dest >>> 24) & 1 ? 0xff : 0;
      buf[p + 3] = dest >>> 16;
      buf[p + 2] = dest >>> 8;
      buf[p + 1] = dest;
      i += 5;
      prevMask = 0;
    } else {
      i++;
      prevMask |= 1;
      if (isNearMsb(b)) prevMask |= 0x10;
    }
  }
}
