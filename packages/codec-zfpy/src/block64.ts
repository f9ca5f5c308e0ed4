/**
 * Decoding of one block of 64-bit scalars (float64 or int64), the same steps as
 * {@link Block32Decoder} with 64-bit integers held as pairs of 32-bit halves.
 */

import { decodeBitPlanes } from "./bit-planes.js";
import type { BitReader } from "./bit-reader.js";
import { budget } from "./block32.js";
import type { ZfpParams } from "./header.js";
import { H, L, sub64, toNumber64 } from "./int64.js";
import { PERMUTATIONS } from "./permutations.js";
import { inverseTransform64, reversibleInverseTransform64 } from "./transform.js";

/** float64 exponent bits and bias. */
const EBITS = 11;
const EBIAS = 1023;
/** Bits of the precision a reversible block codes. */
const PBITS = 6;
/** Each half of the negabinary mask 0xaaaa…aa. */
const NBMASK = 0xaaaaaaaa | 0;

/** Decodes blocks of one 64-bit field; holds the scratch space for a block. */
export class Block64Decoder {
  readonly size: number;
  private readonly low = new Int32Array(256);
  private readonly high = new Int32Array(256);
  /** The block's integers: high and low halves. */
  private readonly hi = new Int32Array(256);
  private readonly lo = new Int32Array(256);
  private readonly perm: Uint8Array;
  private readonly reversible: boolean;
  /** The decoded block as 32-bit words (low word first), integers or float bits. */
  readonly words = new Int32Array(512);
  private readonly floats = new Float64Array(this.words.buffer);

  constructor(
    private readonly dims: number,
    private readonly params: ZfpParams,
    private readonly isFloat: boolean,
  ) {
    this.size = 4 ** dims;
    this.perm = PERMUTATIONS[dims - 1];
    this.reversible = params.minexp < -1074;
  }

  /** Decodes the next block into {@link words}. */
  decode(reader: BitReader): void {
    const { minbits, maxbits, maxprec } = this.params;
    if (!this.isFloat) {
      if (this.reversible) this.reversibleInts(reader, minbits, maxbits);
      else this.lossyInts(reader, minbits, maxbits, maxprec);
      this.intsToWords();
      return;
    }
    if (this.reversible) this.reversibleFloats(reader, minbits, maxbits);
    else this.lossyFloats(reader, minbits, maxbits);
  }

  private lossyFloats(reader: BitReader, minbits: number, maxbits: number): void {
    let bits = 1;
    if (reader.bit() === 0) {
      this.words.fill(0, 0, 2 * this.size);
      if (minbits > bits) reader.skip(minbits - bits);
      return;
    }
    bits += EBITS;
    const emax = reader.bits(EBITS) - EBIAS;
    const { maxprec, minexp } = this.params;
    const precision = Math.min(maxprec, Math.max(0, emax - minexp + 2 * this.dims + 2));
    this.lossyInts(reader, minbits - bits, maxbits - bits, precision);
    this.toFloats(emax);
  }

  private reversibleFloats(reader: BitReader, minbits: number, maxbits: number): void {
    let bits = 1;
    if (reader.bit() === 0) {
      this.words.fill(0, 0, 2 * this.size);
      if (minbits > bits) reader.skip(minbits - bits);
      return;
    }
    bits++;
    if (reader.bit() === 0) {
      bits += EBITS;
      const emax = reader.bits(EBITS) - EBIAS;
      this.reversibleInts(reader, minbits - bits, maxbits - bits);
      this.toFloats(emax);
      return;
    }
    // The float bits as sign-magnitude integers, coded in two's complement.
    this.reversibleInts(reader, minbits - bits, maxbits - bits);
    const { hi, lo, words } = this;
    for (let i = 0; i < this.size; i++) {
      const negative = hi[i] < 0;
      words[2 * i] = negative ? ~lo[i] : lo[i];
      words[2 * i + 1] = negative ? hi[i] ^ 0x7fffffff : hi[i];
    }
  }

  /** Block-floating-point to float64: each integer (rounded to a double) times 2^(emax − 62). */
  private toFloats(emax: number): void {
    const scale = 2 ** (emax - 62);
    const { hi, lo, floats } = this;
    for (let i = 0; i < this.size; i++) floats[i] = toNumber64(hi[i], lo[i]) * scale;
  }

  private intsToWords(): void {
    const { hi, lo, words } = this;
    for (let i = 0; i < this.size; i++) {
      words[2 * i] = lo[i];
      words[2 * i + 1] = hi[i];
    }
  }

  private lossyInts(reader: BitReader, minbits: number, maxbits: number, maxprec: number): void {
    let bits = decodeBitPlanes(reader, budget(maxbits), maxprec, this.size, 64, this.low, this.high);
    if (bits < minbits) {
      reader.skip(minbits - bits);
      bits = minbits;
    }
    this.fromNegabinary();
    inverseTransform64(this.hi, this.lo, this.dims);
  }

  private reversibleInts(reader: BitReader, minbits: number, maxbits: number): void {
    let bits = PBITS;
    const precision = reader.bits(PBITS) + 1;
    bits += decodeBitPlanes(reader, budget(maxbits - bits), precision, this.size, 64, this.low, this.high);
    if (bits < minbits) reader.skip(minbits - bits);
    this.fromNegabinary();
    reversibleInverseTransform64(this.hi, this.lo, this.dims);
  }

  /** Puts the coefficients back in block order, from negabinary ((u ^ mask) − mask) to two's complement. */
  private fromNegabinary(): void {
    const { low, high, hi, lo, perm } = this;
    for (let i = 0; i < this.size; i++) {
      sub64(high[i] ^ NBMASK, low[i] ^ NBMASK, NBMASK, NBMASK);
      hi[perm[i]] = H;
      lo[perm[i]] = L;
    }
  }
}
