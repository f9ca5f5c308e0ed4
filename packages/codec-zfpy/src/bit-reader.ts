/**
 * Reads a ZFP bit stream. libzfp writes bits least significant first into 64-bit
 * little-endian words, which is the same as a least-significant-bit-first stream over the
 * bytes: bit `i` of the stream is bit `i % 8` of byte `i / 8`.
 */
export class BitReader {
  /** Position of the next bit. */
  pos: number;
  /** Bits in the stream. */
  readonly length: number;

  constructor(
    private readonly bytes: Uint8Array,
    start = 0,
  ) {
    this.pos = start;
    this.length = bytes.length * 8;
  }

  /**
   * The next bit. Past the end it reads zeros (a typed array answers `undefined`, which
   * the shift turns into 0): callers compare {@link pos} with {@link length} after each
   * block rather than paying for a bounds test per bit.
   */
  bit(): number {
    const p = this.pos++;
    return (this.bytes[p >>> 3] >>> (p & 7)) & 1;
  }

  /** The next `n` bits (0 ≤ n ≤ 32), the first one least significant, as an unsigned number. */
  bits(n: number): number {
    if (n === 0) return 0;
    if (n > 24) return this.bits(16) + this.bits(n - 16) * 0x10000;
    const p = this.pos;
    const i = p >>> 3;
    const b = this.bytes;
    // Four bytes hold any 24 bits that start inside the first one.
    const word = (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> (p & 7);
    this.pos = p + n;
    return (word & ((1 << n) - 1)) >>> 0;
  }

  /** The next 24 bits, the first one least significant, without consuming them. */
  peek24(): number {
    const p = this.pos;
    const i = p >>> 3;
    const b = this.bytes;
    return ((b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> (p & 7)) & 0xffffff;
  }

  /** Skips `n` bits. */
  skip(n: number): void {
    this.pos += n;
  }
}
