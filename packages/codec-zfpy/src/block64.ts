/**
 * Decoding of one block of 64-bit scalars (float64 or int64), the same steps as
 * {@link Block32Decoder} with 64-bit integers (BigInts wrapped to int64).
 */

import { decodeBitPlanes } from "./bit-planes.js";
import type { BitReader } from "./bit-reader.js";
import { budget } from "./block32.js";
import type { ZfpParams } from "./header.js";
import { PERMUTATIONS } from "./permutations.js";
import { inverseTransform64, reversibleInverseTransform64 } from "./transform.js";

/** float64 exponent bits and bias. */
const EBITS = 11;
const EBIAS = 1023;
/** Bits of the precision a reversible block codes. */
const PBITS = 6;
const NBMASK = 0xaaaaaaaaaaaaaaaan;
const TCMASK = 0x7fffffffffffffffn;

/** Decodes blocks of one 64-bit field; holds the scratch space for a block. */
export class Block64Decoder {
  readonly size: number;
  private readonly low = new Int32Array(256);
  private readonly high = new Int32Array(256);
  private readonly perm: Uint8Array;
  private readonly reversible: boolean;
  /** The decoded block (int64 fields), or the integers a float block is rebuilt from. */
  readonly ints = new BigInt64Array(256);
  /** The decoded block of a float64 field. */
  readonly floats = new Float64Array(256);
  private readonly floatBits = new BigInt64Array(this.floats.buffer);

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
      out[i] = x < 0n ? x ^ TCMASK : x;
    }
  }

  /** Block-floating-point to float64: each integer (rounded to a double) times 2^(emax − 62). */
  private toFloats(emax: number): void {
    const scale = 2 ** (emax - 62);
    const ints = this.ints;
    const floats = this.floats;
    for (let i = 0; i < this.size; i++) floats[i] = Number(ints[i]) * scale;
  }

  private lossyInts(reader: BitReader, minbits: number, maxbits: number, maxprec: number): void {
    let bits = decodeBitPlanes(reader, budget(maxbits), maxprec, this.size, 64, this.low, this.high);
    if (bits < minbits) {
      reader.skip(minbits - bits);
      bits = minbits;
    }
    this.fromNegabinary();
    inverseTransform64(this.ints, this.dims);
  }

  private reversibleInts(reader: BitReader, minbits: number, maxbits: number): void {
    let bits = PBITS;
    const precision = reader.bits(PBITS) + 1;
    bits += decodeBitPlanes(reader, budget(maxbits - bits), precision, this.size, 64, this.low, this.high);
    if (bits < minbits) reader.skip(minbits - bits);
    this.fromNegabinary();
    reversibleInverseTransform64(this.ints, this.dims);
  }

  /** Puts the coefficients back in block order, from negabinary to two's complement. */
  private fromNegabinary(): void {
    const { low, high, ints, perm } = this;
    for (let i = 0; i < this.size; i++) {
      const h = high[i];
      const l = low[i];
      if (h === 0 && l === 0) {
        // Negabinary zero is zero.
        ints[perm[i]] = 0n;
        continue;
      }
      const u = (BigInt(h >>> 0) << 32n) | BigInt(l >>> 0);
      ints[perm[i]] = (u ^ NBMASK) - NBMASK;
    }
  }
}
