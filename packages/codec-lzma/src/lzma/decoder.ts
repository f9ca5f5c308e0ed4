/**
 * The LZMA decoder: range decoder, literal/match/rep decoding and the probability models.
 *
 * The whole output buffer is the dictionary (chunks are decoded in memory, never streamed),
 * so matches copy straight from earlier output. The decoder is resumable: `decode` stops at
 * `outLimit` (an LZMA2 chunk's end, or the end of the space allocated so far) with any cut
 * match remembered in `pendingLen`, and continues on the next call.
 */
import {
  ALIGN,
  END_POS_MODEL_INDEX,
  IS_MATCH,
  IS_REP,
  IS_REP0_LONG,
  IS_REP_G0,
  IS_REP_G1,
  IS_REP_G2,
  LEN_CHOICE,
  LEN_CHOICE2,
  LEN_HIGH,
  LEN_LOW,
  LEN_MID,
  LITERAL,
  LIT_STATES,
  MATCH_LEN,
  newProbs,
  POS_SLOT,
  PROB_INIT,
  probCount,
  REP_LEN,
  SPEC_POS,
} from "./model.js";

/** `decode` stopped because the output reached `outLimit`. */
export const DECODE_LIMIT = 0;
/** `decode` read the end-of-payload marker. */
export const DECODE_END_MARKER = 1;
/** A match referred to data before the start of the dictionary. */
export const DECODE_BAD_DISTANCE = -1;
/** The range decoder ran past the end of its input. */
export const DECODE_TRUNCATED = -2;

/**
 * The range coder works on uint32 values; they are kept as int32 bit patterns (so V8 keeps
 * them in registers) and compared unsigned by flipping the sign bit.
 */
const SIGN = 0x80000000 | 0;

/**
 * Copies a long match of `n` bytes from `src` to `dst` (src < dst). When the regions
 * overlap the source repeats with period dst - src: fill a run, or copy one period and then
 * double the copied prefix (always a whole number of periods) with copyWithin.
 */
function copyMatch(out: Uint8Array, src: number, dst: number, n: number): void {
  const period = dst - src;
  if (period >= n) {
    out.copyWithin(dst, src, src + n);
  } else if (period === 1) {
    out.fill(out[src], dst, dst + n);
  } else {
    for (let i = 0; i < period; i++) out[dst + i] = out[src + i];
    let done = period;
    while (done < n) {
      const chunk = Math.min(done, n - done);
      out.copyWithin(dst + done, dst, dst + chunk);
      done += chunk;
    }
  }
}

/** Resumable LZMA decoder state. */
export class LzmaDecoder {
  probs: Uint16Array;
  lc = 0;
  lp = 0;
  pb = 0;
  state = 0;
  rep0 = 0;
  rep1 = 0;
  rep2 = 0;
  rep3 = 0;
  /** Remaining bytes of a match cut at the previous `outLimit`. */
  pendingLen = 0;
  range = 0;
  code = 0;
  input: Uint8Array = new Uint8Array(0);
  inPos = 0;
  out: Uint8Array = new Uint8Array(0);
  outPos = 0;
  /** Output position of the last dictionary reset: matches may not reach before it. */
  dictStart = 0;

  constructor(lc: number, lp: number, pb: number) {
    this.probs = newProbs(lc, lp);
    this.lc = lc;
    this.lp = lp;
    this.pb = pb;
  }

  /** Sets new lc/lp/pb and resets the state (LZMA2 "new properties"). */
  setProperties(lc: number, lp: number, pb: number): void {
    if (this.probs.length !== probCount(lc, lp)) this.probs = newProbs(lc, lp);
    this.lc = lc;
    this.lp = lp;
    this.pb = pb;
    this.resetState();
  }

  /** Resets probabilities, state and reps (LZMA2 "state reset"). */
  resetState(): void {
    this.probs.fill(PROB_INIT);
    this.state = 0;
    this.rep0 = this.rep1 = this.rep2 = this.rep3 = 0;
    this.pendingLen = 0;
  }

  /**
   * Starts the range decoder on `input` at `pos`. Returns false when fewer than five bytes
   * remain before `end` or the first byte is not zero (an encoder always writes 0 first).
   */
  initRange(input: Uint8Array, pos: number, end: number): boolean {
    if (end - pos < 5 || input[pos] !== 0) return false;
    this.input = input;
    this.code = (input[pos + 1] << 24) | (input[pos + 2] << 16) | (input[pos + 3] << 8) | input[pos + 4];
    this.range = -1;
    this.inPos = pos + 5;
    // A code at or above the range can never come from an encoder.
    return this.code !== -1;
  }

  /** True when the range decoder ended cleanly (an encoder's flush leaves the code at zero). */
  finishedCleanly(): boolean {
    return this.code === 0;
  }

  /**
   * Decodes symbols into `this.out` from `this.outPos` until `outLimit`, the end marker, or an
   * error. Reading beyond `inEnd` is detected after each symbol (bytes past the end of the
   * array read as zero), so a truncated stream fails within one symbol.
   */
  decode(outLimit: number, inEnd: number): number {
    const probs = this.probs;
    const input = this.input;
    const out = this.out;
    const lc = this.lc;
    const litShift = 8 - lc;
    const lpMask = (1 << this.lp) - 1;
    const pbMask = (1 << this.pb) - 1;
    const dictStart = this.dictStart;
    let range = this.range;
    let code = this.code;
    let inPos = this.inPos;
    let outPos = this.outPos;
    let state = this.state;
    let rep0 = this.rep0;
    let rep1 = this.rep1;
    let rep2 = this.rep2;
    let rep3 = this.rep3;
    let status = DECODE_LIMIT;

    // Finish a match cut at the previous limit.
    if (this.pendingLen > 0) {
      const n = Math.min(this.pendingLen, outLimit - outPos);
      const src = outPos - rep0 - 1;
      for (let i = 0; i < n; i++) out[outPos + i] = out[src + i];
      outPos += n;
      this.pendingLen -= n;
    }

    let prob = 0;
    let bound = 0;
    let p = 0;
    let sym = 0;

    while (outPos < outLimit) {
      if (inPos > inEnd) {
        status = DECODE_TRUNCATED;
        break;
      }
      const pos = outPos - dictStart;
      const posState = pos & pbMask;

      // is_match
      p = IS_MATCH + (state << 4) + posState;
      prob = probs[p];
      bound = Math.imul(range >>> 11, prob);
      if ((code ^ SIGN) < (bound ^ SIGN)) {
        range = bound;
        probs[p] = prob + ((2048 - prob) >>> 5);
        if ((range & 0xff000000) === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
        // Literal.
        const prev = pos > 0 ? out[outPos - 1] : 0;
        const base = LITERAL + 0x300 * (((pos & lpMask) << lc) + (prev >>> litShift));
        sym = 1;
        if (state < LIT_STATES) {
          do {
            p = base + sym;
            prob = probs[p];
            bound = Math.imul(range >>> 11, prob);
            if ((code ^ SIGN) < (bound ^ SIGN)) {
              range = bound;
              probs[p] = prob + ((2048 - prob) >>> 5);
              sym <<= 1;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[p] = prob - (prob >>> 5);
              sym = (sym << 1) | 1;
            }
            if ((range & 0xff000000) === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
          } while (sym < 0x100);
          state = state < 4 ? 0 : state - 3;
        } else {
          // After a match the literal is coded relative to the byte at rep0: while the bits
          // agree with that byte, separate probabilities (0x100/0x200 + node) are used.
          let matchByte = out[outPos - rep0 - 1];
          let offs = 0x100;
          do {
            matchByte <<= 1;
            const matchBit = matchByte & offs;
            p = base + offs + matchBit + sym;
            prob = probs[p];
            bound = Math.imul(range >>> 11, prob);
            if ((code ^ SIGN) < (bound ^ SIGN)) {
              range = bound;
              probs[p] = prob + ((2048 - prob) >>> 5);
              sym <<= 1;
              offs &= ~matchBit;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[p] = prob - (prob >>> 5);
              sym = (sym << 1) | 1;
              offs &= matchBit;
            }
            if ((range & 0xff000000) === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
          } while (sym < 0x100);
          state = state < 10 ? state - 3 : state - 6;
        }
        out[outPos++] = sym;
        continue;
      }
      range = (range - bound) | 0;
      code = (code - bound) | 0;
      probs[p] = prob - (prob >>> 5);
      if ((range & 0xff000000) === 0) {
        range <<= 8;
        code = (code << 8) | input[inPos++];
      }

      // is_rep
      let lenBase: number;
      p = IS_REP + state;
      prob = probs[p];
      bound = Math.imul(range >>> 11, prob);
      if ((code ^ SIGN) < (bound ^ SIGN)) {
        range = bound;
        probs[p] = prob + ((2048 - prob) >>> 5);
        if ((range & 0xff000000) === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
        lenBase = MATCH_LEN;
      } else {
        range = (range - bound) | 0;
        code = (code - bound) | 0;
        probs[p] = prob - (prob >>> 5);
        if ((range & 0xff000000) === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
        lenBase = REP_LEN;
        // Which rep: G0 (rep0?), then rep0_long (len 1 = short rep), G1, G2.
        p = IS_REP_G0 + state;
        prob = probs[p];
        bound = Math.imul(range >>> 11, prob);
        if ((code ^ SIGN) < (bound ^ SIGN)) {
          range = bound;
          probs[p] = prob + ((2048 - prob) >>> 5);
          if ((range & 0xff000000) === 0) {
            range <<= 8;
            code = (code << 8) | input[inPos++];
          }
          p = IS_REP0_LONG + (state << 4) + posState;
          prob = probs[p];
          bound = Math.imul(range >>> 11, prob);
          if ((code ^ SIGN) < (bound ^ SIGN)) {
            range = bound;
            probs[p] = prob + ((2048 - prob) >>> 5);
            if ((range & 0xff000000) === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            // Short rep: one byte from rep0.
            if (rep0 >= pos) {
              status = DECODE_BAD_DISTANCE;
              break;
            }
            state = state < LIT_STATES ? 9 : 11;
            out[outPos] = out[outPos - rep0 - 1];
            outPos++;
            continue;
          }
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[p] = prob - (prob >>> 5);
          if ((range & 0xff000000) === 0) {
            range <<= 8;
            code = (code << 8) | input[inPos++];
          }
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[p] = prob - (prob >>> 5);
          if ((range & 0xff000000) === 0) {
            range <<= 8;
            code = (code << 8) | input[inPos++];
          }
          let dist: number;
          p = IS_REP_G1 + state;
          prob = probs[p];
          bound = Math.imul(range >>> 11, prob);
          if ((code ^ SIGN) < (bound ^ SIGN)) {
            range = bound;
            probs[p] = prob + ((2048 - prob) >>> 5);
            if ((range & 0xff000000) === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            dist = rep1;
          } else {
            range = (range - bound) | 0;
            code = (code - bound) | 0;
            probs[p] = prob - (prob >>> 5);
            if ((range & 0xff000000) === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            p = IS_REP_G2 + state;
            prob = probs[p];
            bound = Math.imul(range >>> 11, prob);
            if ((code ^ SIGN) < (bound ^ SIGN)) {
              range = bound;
              probs[p] = prob + ((2048 - prob) >>> 5);
              dist = rep2;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[p] = prob - (prob >>> 5);
              dist = rep3;
              rep3 = rep2;
            }
            if ((range & 0xff000000) === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            rep2 = rep1;
          }
          rep1 = rep0;
          rep0 = dist;
        }
        state = state < LIT_STATES ? 8 : 11;
      }

      // Length: choice bits select the low (2..9), mid (10..17) or high (18..273) tree.
      let treeBase: number;
      let treeLimit: number;
      let len: number;
      p = lenBase + LEN_CHOICE;
      prob = probs[p];
      bound = Math.imul(range >>> 11, prob);
      if ((code ^ SIGN) < (bound ^ SIGN)) {
        range = bound;
        probs[p] = prob + ((2048 - prob) >>> 5);
        treeBase = lenBase + LEN_LOW + (posState << 3);
        treeLimit = 8;
        len = 2 - 8;
      } else {
        range = (range - bound) | 0;
        code = (code - bound) | 0;
        probs[p] = prob - (prob >>> 5);
        if ((range & 0xff000000) === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
        p = lenBase + LEN_CHOICE2;
        prob = probs[p];
        bound = Math.imul(range >>> 11, prob);
        if ((code ^ SIGN) < (bound ^ SIGN)) {
          range = bound;
          probs[p] = prob + ((2048 - prob) >>> 5);
          treeBase = lenBase + LEN_MID + (posState << 3);
          treeLimit = 8;
          len = 10 - 8;
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[p] = prob - (prob >>> 5);
          treeBase = lenBase + LEN_HIGH;
          treeLimit = 256;
          len = 18 - 256;
        }
      }
      if ((range & 0xff000000) === 0) {
        range <<= 8;
        code = (code << 8) | input[inPos++];
      }
      sym = 1;
      do {
        p = treeBase + sym;
        prob = probs[p];
        bound = Math.imul(range >>> 11, prob);
        if ((code ^ SIGN) < (bound ^ SIGN)) {
          range = bound;
          probs[p] = prob + ((2048 - prob) >>> 5);
          sym <<= 1;
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[p] = prob - (prob >>> 5);
          sym = (sym << 1) | 1;
        }
        if ((range & 0xff000000) === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
      } while (sym < treeLimit);
      len += sym;

      if (lenBase === MATCH_LEN) {
        // A new distance: a 6-bit slot, then reverse-tree or direct + align bits.
        const slotBase = POS_SLOT + ((len < 6 ? len - 2 : 3) << 6);
        sym = 1;
        do {
          p = slotBase + sym;
          prob = probs[p];
          bound = Math.imul(range >>> 11, prob);
          if ((code ^ SIGN) < (bound ^ SIGN)) {
            range = bound;
            probs[p] = prob + ((2048 - prob) >>> 5);
            sym <<= 1;
          } else {
            range = (range - bound) | 0;
            code = (code - bound) | 0;
            probs[p] = prob - (prob >>> 5);
            sym = (sym << 1) | 1;
          }
          if ((range & 0xff000000) === 0) {
            range <<= 8;
            code = (code << 8) | input[inPos++];
          }
        } while (sym < 64);
        const slot = sym - 64;
        let dist: number;
        if (slot < 4) {
          dist = slot;
        } else {
          const numBits = (slot >>> 1) - 1;
          // Slots 62/63 exceed the int32 range: the bit pattern is kept (see the check below).
          dist = (2 | (slot & 1)) << numBits;
          if (slot < END_POS_MODEL_INDEX) {
            const treeOffset = SPEC_POS + dist - slot - 1;
            let m = 1;
            for (let i = 0; i < numBits; i++) {
              p = treeOffset + m;
              prob = probs[p];
              bound = Math.imul(range >>> 11, prob);
              if ((code ^ SIGN) < (bound ^ SIGN)) {
                range = bound;
                probs[p] = prob + ((2048 - prob) >>> 5);
                m <<= 1;
              } else {
                range = (range - bound) | 0;
                code = (code - bound) | 0;
                probs[p] = prob - (prob >>> 5);
                m = (m << 1) | 1;
                dist += 1 << i;
              }
              if ((range & 0xff000000) === 0) {
                range <<= 8;
                code = (code << 8) | input[inPos++];
              }
            }
          } else {
            let direct = 0;
            for (let i = numBits - 4; i > 0; i--) {
              range >>>= 1;
              if ((code ^ SIGN) >= (range ^ SIGN)) {
                code = (code - range) | 0;
                direct = (direct << 1) | 1;
              } else {
                direct <<= 1;
              }
              if ((range & 0xff000000) === 0) {
                range <<= 8;
                code = (code << 8) | input[inPos++];
              }
            }
            dist = (dist + (direct << 4)) | 0;
            let m = 1;
            for (let i = 0; i < 4; i++) {
              p = ALIGN + m;
              prob = probs[p];
              bound = Math.imul(range >>> 11, prob);
              if ((code ^ SIGN) < (bound ^ SIGN)) {
                range = bound;
                probs[p] = prob + ((2048 - prob) >>> 5);
                m <<= 1;
              } else {
                range = (range - bound) | 0;
                code = (code - bound) | 0;
                probs[p] = prob - (prob >>> 5);
                m = (m << 1) | 1;
                dist += 1 << i;
              }
              if ((range & 0xff000000) === 0) {
                range <<= 8;
                code = (code << 8) | input[inPos++];
              }
            }
            if (dist === -1) {
              status = DECODE_END_MARKER;
              break;
            }
          }
        }
        rep3 = rep2;
        rep2 = rep1;
        rep1 = rep0;
        rep0 = dist;
        state = state < LIT_STATES ? 7 : 10;
      }

      // Copy the match; cut it at the limit and remember the rest. Distances of 2 GiB and
      // more (negative here) are rejected: no chunk held in memory gets that far.
      if (rep0 >= pos || rep0 < 0) {
        status = DECODE_BAD_DISTANCE;
        break;
      }
      let n = len;
      if (n > outLimit - outPos) {
        n = outLimit - outPos;
        this.pendingLen = len - n;
      }
      const src = outPos - rep0 - 1;
      if (n < 32) {
        for (let i = 0; i < n; i++) out[outPos + i] = out[src + i];
      } else {
        copyMatch(out, src, outPos, n);
      }
      outPos += n;
    }

    this.range = range;
    this.code = code;
    this.inPos = inPos;
    this.outPos = outPos;
    this.state = state;
    this.rep0 = rep0;
    this.rep1 = rep1;
    this.rep2 = rep2;
    this.rep3 = rep3;
    if (status >= 0 && inPos > inEnd) status = DECODE_TRUNCATED;
    return status;
  }
}
