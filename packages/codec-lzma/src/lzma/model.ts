/**
 * The LZMA probability model layout shared by the decoder and the encoder. All adaptive
 * probabilities live in one Uint16Array; these are the offsets of each group.
 */

/** Number of LZMA states (the last-symbols history). */
export const NUM_STATES = 12;
/** States below this follow a literal; from here on the previous symbol was a match/rep. */
export const LIT_STATES = 7;
/** Shortest match length. */
export const MATCH_LEN_MIN = 2;
/** Longest match length. */
export const MATCH_LEN_MAX = 273;
/** Probabilities are 11-bit; a fresh one is one half. */
export const PROB_INIT = 1024;

const POS_STATES_MAX = 16;

// Offsets of the probability groups.
export const IS_MATCH = 0; // [state][posState]
export const IS_REP = IS_MATCH + NUM_STATES * POS_STATES_MAX;
export const IS_REP_G0 = IS_REP + NUM_STATES;
export const IS_REP_G1 = IS_REP_G0 + NUM_STATES;
export const IS_REP_G2 = IS_REP_G1 + NUM_STATES;
export const IS_REP0_LONG = IS_REP_G2 + NUM_STATES; // [state][posState]
export const POS_SLOT = IS_REP0_LONG + NUM_STATES * POS_STATES_MAX; // [lenState][64]
/** Reverse bit trees of distance slots 4..13, addressed as SPEC_POS + base - slot - 1 + node. */
export const SPEC_POS = POS_SLOT + 4 * 64;
export const ALIGN = SPEC_POS + 114;
/** A length coder: choice, choice2, low[16][8], mid[16][8], high[256]. */
export const LEN_CHOICE = 0;
export const LEN_CHOICE2 = 1;
export const LEN_LOW = 2;
export const LEN_MID = LEN_LOW + POS_STATES_MAX * 8;
export const LEN_HIGH = LEN_MID + POS_STATES_MAX * 8;
export const LEN_CODER_SIZE = LEN_HIGH + 256;
export const MATCH_LEN = ALIGN + 16;
export const REP_LEN = MATCH_LEN + LEN_CODER_SIZE;
export const LITERAL = REP_LEN + LEN_CODER_SIZE;

/** First distance slot coded with direct bits + align bits instead of a reverse tree. */
export const END_POS_MODEL_INDEX = 14;
/** Distances below this are fully modelled (slot + reverse tree). */
export const FULL_DISTANCES = 128;

/** Number of probabilities for the given literal context bits. */
export function probCount(lc: number, lp: number): number {
  return LITERAL + (0x300 << (lc + lp));
}

/** A fresh model (every probability one half). */
export function newProbs(lc: number, lp: number): Uint16Array {
  return new Uint16Array(probCount(lc, lp)).fill(PROB_INIT);
}

/** Next state after a literal. */
export function stateAfterLiteral(state: number): number {
  return state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
}

/** Next state after a match. */
export function stateAfterMatch(state: number): number {
  return state < LIT_STATES ? 7 : 10;
}

/** Next state after a rep match. */
export function stateAfterRep(state: number): number {
  return state < LIT_STATES ? 8 : 11;
}

/** Next state after a short rep (rep0, length 1). */
export function stateAfterShortRep(state: number): number {
  return state < LIT_STATES ? 9 : 11;
}

/** The LZMA properties byte for lc/lp/pb. */
export function propsByte(lc: number, lp: number, pb: number): number {
  return (pb * 5 + lp) * 9 + lc;
}

/** lc/lp/pb from a properties byte, or undefined when the byte is out of range. */
export function decodePropsByte(byte: number): { lc: number; lp: number; pb: number } | undefined {
  if (byte >= 9 * 5 * 5) return undefined;
  const lc = byte % 9;
  const rest = (byte / 9) | 0;
  return { lc, lp: rest % 5, pb: (rest / 5) | 0 };
}
