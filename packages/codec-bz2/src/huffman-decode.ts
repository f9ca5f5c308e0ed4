/**
 * Decoding tables for one bzip2 Huffman table. Codes are canonical (shorter codes
 * first, then by symbol), so the transmitted lengths determine them. Codes of up to
 * {@link FAST_BITS} bits resolve with one lookup; longer ones (rare: bzip2 limits
 * lengths to 17 in practice, 20 by format) walk the per-length limits.
 */
import { ALPHA_STRIDE, MAX_CODE_LEN } from "./format.js";

/** Bits resolved by the direct lookup table. */
export const FAST_BITS = 10;

/** Per-table arrays used by the decoder's inner loop. */
export class HuffmanDecodeTable {
  /** fast[next FAST_BITS bits] = (symbol << 5) | code length, or 0 when the code is longer. */
  readonly fast = new Uint16Array(1 << FAST_BITS);
  /** limit[len]: one past the largest code value of length `len`. */
  readonly limit = new Int32Array(MAX_CODE_LEN + 1);
  /** offset[len]: add to a code value of length `len` to get its index in `symbols`. */
  readonly offset = new Int32Array(MAX_CODE_LEN + 1);
  /** Symbols ordered by (code length, symbol). */
  readonly symbols = new Uint16Array(ALPHA_STRIDE);
  /** Longest code length in the table. */
  maxLen = 0;
  private readonly lengthCount = new Int32Array(MAX_CODE_LEN + 1);

  /**
   * Builds the table from code lengths (each 1–20, already validated). Returns false
   * when the lengths are over-subscribed (more codes than bit patterns), which no
   * encoder produces. Incomplete tables are accepted; their unused patterns fail
   * when met.
   */
  build(lens: Uint8Array, alphaSize: number): boolean {
    const { fast, limit, offset, symbols, lengthCount } = this;
    lengthCount.fill(0);
    let maxLen = 0;
    for (let i = 0; i < alphaSize; i++) {
      const len = lens[i];
      lengthCount[len]++;
      if (len > maxLen) maxLen = len;
    }
    // Kraft: the number of free patterns at each length must never go negative.
    let free = 1;
    for (let len = 1; len <= MAX_CODE_LEN; len++) {
      free = free * 2 - lengthCount[len];
      if (free < 0) return false;
    }
    this.maxLen = maxLen;
    let code = 0;
    let index = 0;
    for (let len = 1; len <= MAX_CODE_LEN; len++) {
      offset[len] = index - code;
      index += lengthCount[len];
      code += lengthCount[len];
      limit[len] = code;
      code <<= 1;
    }
    index = 0;
    for (let len = 1; len <= maxLen; len++) {
      for (let i = 0; i < alphaSize; i++) if (lens[i] === len) symbols[index++] = i;
    }
    fast.fill(0);
    index = 0;
    for (let len = 1; len <= FAST_BITS && len <= maxLen; len++) {
      const first = limit[len] - lengthCount[len];
      const span = 1 << (FAST_BITS - len);
      for (let k = 0; k < lengthCount[len]; k++) {
        const entry = (symbols[index + k] << 5) | len;
        const start = (first + k) * span;
        fast.fill(entry, start, start + span);
      }
      index += lengthCount[len];
    }
    return true;
  }
}
