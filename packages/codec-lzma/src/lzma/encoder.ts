/**
 * The LZMA symbol encoder: turns parse decisions (literal, match, rep match, short rep) into
 * range-coded bits with the same adaptive models the decoder uses. Parsers decide; this
 * class only codes, so chunking (LZMA2) and framing (.lzma) stay outside.
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
  REP_LEN,
  SPEC_POS,
  stateAfterLiteral,
  stateAfterMatch,
  stateAfterRep,
  stateAfterShortRep,
} from "./model.js";
import { distSlot } from "./price.js";
import { RangeEncoder } from "./range-encoder.js";

/** LZMA coding state over the input `data` (positions are offsets into it). */
export class LzmaEncoder {
  readonly probs: Uint16Array;
  readonly lc: number;
  readonly lp: number;
  readonly pb: number;
  readonly posMask: number;
  private readonly lpMask: number;
  state = 0;
  /** The four most recent distances, most recent first. */
  readonly reps = new Int32Array(4);
  readonly rc = new RangeEncoder(new Uint8Array(0), 0);
  /** Matches and rep matches coded so far (parsers refresh their price tables by these). */
  lenSymbols = 0;
  /** Matches with a new distance coded so far. */
  matchSymbols = 0;

  constructor(
    readonly data: Uint8Array,
    lc: number,
    lp: number,
    pb: number,
  ) {
    this.lc = lc;
    this.lp = lp;
    this.pb = pb;
    this.posMask = (1 << pb) - 1;
    this.lpMask = (1 << lp) - 1;
    this.probs = newProbs(lc, lp);
  }

  /** Resets probabilities, state and reps (matching an LZMA2 state reset in the decoder). */
  resetState(): void {
    this.probs.fill(PROB_INIT);
    this.state = 0;
    this.reps.fill(0);
  }

  /** Index of the first literal probability for the byte at `pos`. */
  literalBase(pos: number): number {
    const prev = pos > 0 ? this.data[pos - 1] : 0;
    return LITERAL + 0x300 * (((pos & this.lpMask) << this.lc) + (prev >>> (8 - this.lc)));
  }

  /**
   * Codes one parse decision at `pos`: `len` 1 with `dist` -1 is a literal, `len` 1 with
   * `dist` equal to rep0 a short rep; longer decisions become rep matches when `dist` is one
   * of the four recent distances and plain matches otherwise. Decisions carry distances,
   * not rep indices, so they stay valid even if the state was reset after they were planned.
   */
  encodeDecision(pos: number, len: number, dist: number): void {
    const reps = this.reps;
    if (len === 1) {
      if (dist >= 0 && dist === reps[0] && dist < pos) this.encodeShortRep(pos);
      else this.encodeLiteral(pos);
      return;
    }
    for (let i = 0; i < 4; i++) {
      if (reps[i] === dist) {
        this.encodeRep(pos, i, len);
        return;
      }
    }
    this.encodeMatch(pos, dist, len);
  }

  encodeLiteral(pos: number): void {
    const probs = this.probs;
    const rc = this.rc;
    const data = this.data;
    const state = this.state;
    rc.encodeBit(probs, IS_MATCH + (state << 4) + (pos & this.posMask), 0);
    const base = this.literalBase(pos);
    const byte = data[pos];
    if (state < LIT_STATES) {
      rc.encodeTree(probs, base, 8, byte);
    } else {
      // Coded against the byte at rep0 while the bits agree (see the decoder).
      const matchByte = data[pos - this.reps[0] - 1];
      let offs = 0x100;
      let node = 1;
      for (let i = 7; i >= 0; i--) {
        const bit = (byte >>> i) & 1;
        const matchBit = (matchByte >>> i) & 1;
        rc.encodeBit(probs, base + offs + ((matchBit << 8) & offs) + node, bit);
        node = (node << 1) | bit;
        if (bit !== matchBit) offs = 0;
      }
    }
    this.state = stateAfterLiteral(state);
  }

  encodeMatch(pos: number, dist: number, len: number): void {
    const probs = this.probs;
    const rc = this.rc;
    const state = this.state;
    const posState = pos & this.posMask;
    rc.encodeBit(probs, IS_MATCH + (state << 4) + posState, 1);
    rc.encodeBit(probs, IS_REP + state, 0);
    this.encodeLen(MATCH_LEN, len, posState);
    const slot = distSlot(dist);
    rc.encodeTree(probs, POS_SLOT + ((len < 6 ? len - 2 : 3) << 6), 6, slot);
    if (slot >= 4) {
      const footerBits = (slot >>> 1) - 1;
      const base = (2 | (slot & 1)) << footerBits;
      const reduced = dist - base;
      if (slot < END_POS_MODEL_INDEX) {
        rc.encodeReverseTree(probs, SPEC_POS + base - slot - 1, footerBits, reduced);
      } else {
        rc.encodeDirect(reduced >>> 4, footerBits - 4);
        rc.encodeReverseTree(probs, ALIGN, 4, reduced & 15);
      }
    }
    const reps = this.reps;
    reps[3] = reps[2];
    reps[2] = reps[1];
    reps[1] = reps[0];
    reps[0] = dist;
    this.state = stateAfterMatch(state);
    this.lenSymbols++;
    this.matchSymbols++;
  }

  encodeRep(pos: number, index: number, len: number): void {
    const probs = this.probs;
    const rc = this.rc;
    const state = this.state;
    const posState = pos & this.posMask;
    const reps = this.reps;
    rc.encodeBit(probs, IS_MATCH + (state << 4) + posState, 1);
    rc.encodeBit(probs, IS_REP + state, 1);
    if (index === 0) {
      rc.encodeBit(probs, IS_REP_G0 + state, 0);
      rc.encodeBit(probs, IS_REP0_LONG + (state << 4) + posState, 1);
    } else {
      const dist = reps[index];
      rc.encodeBit(probs, IS_REP_G0 + state, 1);
      if (index === 1) {
        rc.encodeBit(probs, IS_REP_G1 + state, 0);
      } else {
        rc.encodeBit(probs, IS_REP_G1 + state, 1);
        rc.encodeBit(probs, IS_REP_G2 + state, index - 2);
        if (index === 3) reps[3] = reps[2];
        reps[2] = reps[1];
      }
      reps[1] = reps[0];
      reps[0] = dist;
    }
    this.encodeLen(REP_LEN, len, posState);
    this.state = stateAfterRep(state);
    this.lenSymbols++;
  }

  encodeShortRep(pos: number): void {
    const probs = this.probs;
    const rc = this.rc;
    const state = this.state;
    const posState = pos & this.posMask;
    rc.encodeBit(probs, IS_MATCH + (state << 4) + posState, 1);
    rc.encodeBit(probs, IS_REP + state, 1);
    rc.encodeBit(probs, IS_REP_G0 + state, 0);
    rc.encodeBit(probs, IS_REP0_LONG + (state << 4) + posState, 0);
    this.state = stateAfterShortRep(state);
  }

  /** The end-of-payload marker: a match of length 2 with distance 0xFFFFFFFF. */
  encodeEndMarker(pos: number): void {
    const probs = this.probs;
    const rc = this.rc;
    const state = this.state;
    const posState = pos & this.posMask;
    rc.encodeBit(probs, IS_MATCH + (state << 4) + posState, 1);
    rc.encodeBit(probs, IS_REP + state, 0);
    this.encodeLen(MATCH_LEN, 2, posState);
    rc.encodeTree(probs, POS_SLOT, 6, 63);
    // Slot 63 has 30 footer bits: 26 direct bits and 4 align bits, all ones.
    rc.encodeDirect((1 << 26) - 1, 26);
    rc.encodeReverseTree(probs, ALIGN, 4, 15);
  }

  private encodeLen(base: number, len: number, posState: number): void {
    const probs = this.probs;
    const rc = this.rc;
    const l = len - 2;
    if (l < 8) {
      rc.encodeBit(probs, base + LEN_CHOICE, 0);
      rc.encodeTree(probs, base + LEN_LOW + (posState << 3), 3, l);
    } else if (l < 16) {
      rc.encodeBit(probs, base + LEN_CHOICE, 1);
      rc.encodeBit(probs, base + LEN_CHOICE2, 0);
      rc.encodeTree(probs, base + LEN_MID + (posState << 3), 3, l - 8);
    } else {
      rc.encodeBit(probs, base + LEN_CHOICE, 1);
      rc.encodeBit(probs, base + LEN_CHOICE2, 1);
      rc.encodeTree(probs, base + LEN_HIGH, 8, l - 16);
    }
  }
}
