/**
 * Decoding of one block of 32-bit scalars (float32 or int32), in every mode: the lossy
 * path (block-floating-point exponent for floats, bit planes, negabinary, inverse lifting)
 * and the reversible one (coded precision, reversible lifting, and for floats either the
 * exact block-floating-point form or the raw bits reinterpreted as integers).
 */

import { decodeBitPlanes } from "./bit-planes.js";
import type { BitReader } from "./bit-reader.js";
import type { ZfpParams } from "./header.js";
import { PERMUTATIONS } from "./permutations.js";
import { inverseTransform32, reversibleInverseTransform32 } from "./transform.js";

/** float32 exponent bits and bias. */
const EBITS = 8;
const EBIAS = 127;
/** Bits of the precision a reversible block codes. */
const PBITS = 5;
const NBMASK = 0xaaaaaaaa;

/** Decodes blocks of one 32-bit field; holds the scratch space for a block. */
export class Block32Decoder {
  readonly size: number;
  private readonly planes = new Int32Array(256);
  private readonly unused = new Int32Array(0);
  private readonly perm: Uint8Array;
  private readonly reversible: boolean;
  /** The decoded block (int32 fields), or the integers a float block is rebuilt from. */
  readonly ints = new Int32Array(256);
  /** The decoded block of a float32 field. */
  readonly floats = new Float32Array(256);
  private readonly floatBits = new Int32Array(this.floats.buffer);
  /** The decoded block as 32-bit words: the integers, or the float bits. */
  get words(): Int32Array {
    return this.isFloat ? this.floatBits : this.ints;
  }

  constructor(
    private readonly dims: number,
    private readonly params: ZfpParams,
    private readonly isFloat: boolean,
  ) {
    this.size = 4 ** dims;
    this.perm = PERMUTATIONS[dims - 1];
    this.reversible = params.minexp < -1074;
  }

  /** Decodes the next block into {@link ints} or {@link floats}. */
  decode(reader: BitReader): void {
    const { minbits, maxbits, maxprec } = this.params;
    if (!this.isFloat) {
      if (this.reversible) this.reversibleInts(reader, minbits, maxbits);
      else this.lossyInts(reader, minbits, maxbits, maxprec);
      return;
    }
    if (this.reversible) this.reversibleFloats(reader, minbits, maxbits);
    else this.lossyFloats(reader, minbits, maxbits);
  }

  private lossyFloats(reader: BitReader, minbits: number, maxbits: number): void {
    let bits = 1;
    if (reader.bit() === 0) {
      // An all-zero block: one bit, padded to minbits.
      this.floats.fill(0, 0, this.size);
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
      // An all-zero block.
      this.floats.fill(0, 0, this.size);
      if (minbits > bits) reader.skip(minbits - bits);
      return;
    }
    bits++;
    if (reader.bit() === 0) {
      // Block-floating-point was exact: a common exponent, then the integers.
      bits += EBITS;
      const emax = reader.bits(EBITS) - EBIAS;
      this.reversibleInts(reader, minbits - bits, maxbits - bits);
      this.toFloats(emax);
      return;
    }
    // The float bits as sign-magnitude integers, coded in two's complement.
    this.reversibleInts(reader, minbits - bits, maxbits - bits);
    const ints = this.ints;
    const out = this.floatBits;
    for (let i = 0; i < this.size; i++) {
      const x = ints[i];
      out[i] = x < 0 ? x ^ 0x7fffffff : x;
    }
  }

  /** Block-floating-point to float32: each integer times 2^(emax − 30), rounded as float32 math does. */
  private toFloats(emax: number): void {
    const scale = Math.fround(2 ** (emax - 30));
    const ints = this.ints;
    const floats = this.floats;
    for (let i = 0; i < this.size; i++) floats[i] = Math.fround(ints[i]) * scale;
  }

  private lossyInts(reader: BitReader, minbits: number, maxbits: number, maxprec: number): void {
    let bits = decodeBitPlanes(reader, budget(maxbits), maxprec, this.size, 32, this.planes, this.unused);
    if (bits < minbits) {
      reader.skip(minbits - bits);
      bits = minbits;
    }
    this.fromNegabinary();
    inverseTransform32(this.ints, this.dims);
  }

  private reversibleInts(reader: BitReader, minbits: number, maxbits: number): void {
    let bits = PBITS;
    const precision = reader.bits(PBITS) + 1;
    bits += decodeBitPlanes(reader, budget(maxbits - bits), precision, this.size, 32, this.planes, this.unused);
    if (bits < minbits) reader.skip(minbits - bits);
    this.fromNegabinary();
    reversibleInverseTransform32(this.ints, this.dims);
  }

  /** Puts the coefficients back in block order, from negabinary to two's complement. */
  private fromNegabinary(): void {
    const { planes, ints, perm } = this;
    for (let i = 0; i < this.size; i++) ints[perm[i]] = ((planes[i] ^ NBMASK) - NBMASK) | 0;
  }
}

/** A bit budget as libzfp's unsigned parameter sees it: a negative one wraps to a huge one. */
export function budget(bits: number): number {
  return bits < 0 ? bits + 2 ** 32 : bits;
}
