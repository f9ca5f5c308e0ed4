/**
 * Bit prices for the optimal parser: the cost of coding a bit with a given probability, in
 * 1/16 bit units, and tables of whole-symbol prices refreshed from the live model.
 */
import {
  ALIGN,
  END_POS_MODEL_INDEX,
  FULL_DISTANCES,
  LEN_CHOICE,
  LEN_CHOICE2,
  LEN_HIGH,
  LEN_LOW,
  LEN_MID,
  POS_SLOT,
  SPEC_POS,
} from "./model.js";

/** Price units per bit. */
export const PRICE_SHIFT = 4;
/** A price no real path reaches. */
export const INFINITY_PRICE = 1 << 30;

/** Price of coding a 0 with probability p is BIT_PRICES[p >> 4]; a 1 is BIT_PRICES[(2048 - p) >> 4]. */
export const BIT_PRICES = /* @__PURE__ */ buildBitPrices();

function buildBitPrices(): Int32Array {
  const t = new Int32Array(128);
  for (let i = 0; i < 128; i++) {
    // The middle of the bucket, so p = 2048 (never reached) does not price at zero.
    t[i] = Math.round(-Math.log2((i * 16 + 8) / 2048) * (1 << PRICE_SHIFT));
  }
  return t;
}

/** Price of `bit` coded with probability `prob`. */
export function bitPrice(prob: number, bit: number): number {
  return BIT_PRICES[(bit === 0 ? prob : 2048 - prob) >>> 4];
}

/** Price of `symbol` in the bit tree at `base` (numBits bits, most significant first). */
export function treePrice(probs: Uint16Array, base: number, numBits: number, symbol: number): number {
  let price = 0;
  let m = 1;
  for (let i = numBits - 1; i >= 0; i--) {
    const bit = (symbol >>> i) & 1;
    price += bitPrice(probs[base + m], bit);
    m = (m << 1) | bit;
  }
  return price;
}

/** Price of `symbol` in the reverse bit tree at `base` (least significant bit first). */
export function reverseTreePrice(probs: Uint16Array, base: number, numBits: number, symbol: number): number {
  let price = 0;
  let m = 1;
  for (let i = 0; i < numBits; i++) {
    const bit = (symbol >>> i) & 1;
    price += bitPrice(probs[base + m], bit);
    m = (m << 1) | bit;
  }
  return price;
}

/** Distance slot of a distance (0..63): two slots per power of two above 4. */
export function distSlot(dist: number): number {
  if (dist < 4) return dist;
  const n = 31 - Math.clz32(dist);
  return (n << 1) | ((dist >>> (n - 1)) & 1);
}

/**
 * Length prices per position state for one length coder: `table[posState * 272 + len - 2]`
 * for lengths 2..`maxLen` (the parser never prices longer ones).
 */
export function refreshLenPrices(
  probs: Uint16Array,
  base: number,
  posStates: number,
  maxLen: number,
  table: Int32Array,
): void {
  const choice = probs[base + LEN_CHOICE];
  const choice2 = probs[base + LEN_CHOICE2];
  const a0 = bitPrice(choice, 0);
  const a1 = bitPrice(choice, 1);
  const b0 = a1 + bitPrice(choice2, 0);
  const b1 = a1 + bitPrice(choice2, 1);
  const count = maxLen - 1;
  for (let ps = 0; ps < posStates; ps++) {
    const row = ps * 272;
    const low = base + LEN_LOW + (ps << 3);
    const mid = base + LEN_MID + (ps << 3);
    for (let i = 0; i < count; i++) {
      if (i < 8) table[row + i] = a0 + treePrice(probs, low, 3, i);
      else if (i < 16) table[row + i] = b0 + treePrice(probs, mid, 3, i - 8);
      else if (ps === 0) table[i] = b1 + treePrice(probs, base + LEN_HIGH, 8, i - 16);
      // The high tree is shared by all position states.
      else table[row + i] = table[i];
    }
  }
}

/**
 * Distance prices: `slotPrices[lenState * 64 + slot]` (slot tree + direct bits) and
 * `distPrices[lenState * 128 + dist]` for the fully modelled distances below 128.
 */
export function refreshDistPrices(probs: Uint16Array, slotPrices: Int32Array, distPrices: Int32Array): void {
  for (let ls = 0; ls < 4; ls++) {
    for (let slot = 0; slot < 64; slot++) {
      let price = treePrice(probs, POS_SLOT + (ls << 6), 6, slot);
      if (slot >= END_POS_MODEL_INDEX) price += ((slot >>> 1) - 1 - 4) << PRICE_SHIFT;
      slotPrices[ls * 64 + slot] = price;
    }
    for (let dist = 0; dist < FULL_DISTANCES; dist++) {
      const slot = distSlot(dist);
      let price = slotPrices[ls * 64 + slot];
      if (slot >= 4) {
        const numBits = (slot >>> 1) - 1;
        const base = (2 | (slot & 1)) << numBits;
        price += reverseTreePrice(probs, SPEC_POS + base - slot - 1, numBits, dist - base);
      }
      distPrices[ls * 128 + dist] = price;
    }
  }
}

/** Prices of the 16 align values. */
export function refreshAlignPrices(probs: Uint16Array, alignPrices: Int32Array): void {
  for (let i = 0; i < 16; i++) alignPrices[i] = reverseTreePrice(probs, ALIGN, 4, i);
}
