/** Writes a ZFP bit stream: least significant bit first, as {@link BitReader} reads it. */
export class BitWriter {
  private buffer = new Uint8Array(1024);
  /** Bits written. */
  length = 0;

  /** Appends the low `n` bits of `value` (0 ≤ n ≤ 32), least significant first. */
  bits(value: number, n: number): void {
    if (n === 0) return;
    if (n > 24) {
      this.bits(value & 0xffff, 16);
      this.bits(Math.floor((value >>> 0) / 0x10000), n - 16);
      return;
    }
    const p = this.length;
    this.reserve(p + n);
    const b = this.buffer;
    const i = p >>> 3;
    const word = (value & ((1 << n) - 1)) << (p & 7);
    // At most 31 bits from a byte boundary: four bytes.
    b[i] |= word;
    b[i + 1] |= word >>> 8;
    b[i + 2] |= word >>> 16;
    b[i + 3] |= word >>> 24;
    this.length = p + n;
  }

  /** Appends one bit. */
  bit(value: number): void {
    const p = this.length;
    if (p + 1 > this.buffer.length * 8 - 32) this.reserve(p + 1);
    if (value) this.buffer[p >>> 3] |= 1 << (p & 7);
    this.length = p + 1;
  }

  /** The stream so far, padded with zeros to whole bytes. */
  bytes(): Uint8Array {
    return this.buffer.slice(0, Math.ceil(this.length / 8));
  }

  private reserve(bits: number): void {
    // Keeps four spare bytes past the end, which `bits` may touch.
    if (bits + 32 <= this.buffer.length * 8) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, Math.ceil(bits / 8) + 8));
    grown.set(this.buffer);
    this.buffer = grown;
  }
}
