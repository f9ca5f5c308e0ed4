/**
 * The forward bit writer behind zstd's FSE and Huffman bitstreams: bits are appended
 * least-significant first; the decoder reads them back from the end, which is why every
 * stream closes with a single 1-bit marker (the decoder finds the start by it).
 */
export class BitWriter {
  /** Output buffer; the caller guarantees room. */
  buf: Uint8Array;
  /** Next byte position in `buf`. */
  pos: number;
  private acc = 0;
  private bits = 0;

  constructor(buf: Uint8Array, pos: number) {
    this.buf = buf;
    this.pos = pos;
  }

  /** Appends the low `n` bits of `value` (0 ≤ n ≤ 24). */
  add(value: number, n: number): void {
    this.acc |= (value & ((1 << n) - 1)) << this.bits;
    this.bits += n;
    while (this.bits >= 8) {
      this.buf[this.pos++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.bits -= 8;
    }
  }

  /** Appends the low `n` bits of `value` for n up to 32. */
  addWide(value: number, n: number): void {
    if (n <= 24) {
      this.add(value, n);
    } else {
      this.add(value & 0xffff, 16);
      this.add(value >>> 16, n - 16);
    }
  }

  /** Writes the end marker (a 1-bit) and pads the last byte with zeros; returns the end position. */
  close(): number {
    this.add(1, 1);
    if (this.bits > 0) {
      this.buf[this.pos++] = this.acc & 0xff;
      this.acc = 0;
      this.bits = 0;
    }
    return this.pos;
  }

  /** Pads to a byte boundary without an end marker (FSE table descriptions); returns the end position. */
  alignToByte(): number {
    if (this.bits > 0) {
      this.buf[this.pos++] = this.acc & 0xff;
      this.acc = 0;
      this.bits = 0;
    }
    return this.pos;
  }
}
