/** Least-significant-bit-first writer into a growable buffer, as pcodec packs its fields. */
export class PcoBitWriter {
  private buf: Uint8Array;
  /** Next bit to write. */
  bitPos = 0;

  constructor(initialBytes = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialBytes));
  }

  /** Makes room for `bits` more bits. */
  reserve(bits: number): void {
    const needed = ((this.bitPos + bits + 7) >>> 3) + 8;
    if (needed <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(needed, this.buf.length * 2));
    grown.set(this.buf);
    this.buf = grown;
  }

  /** Writes the low `n` ≤ 32 bits of the unsigned `value`. */
  write(value: number, n: number): void {
    this.reserve(n);
    const buf = this.buf;
    let pos = this.bitPos;
    let v = value >>> 0;
    let left = n;
    while (left > 0) {
      const shift = pos & 7;
      const take = Math.min(8 - shift, left);
      buf[pos >>> 3] |= (v & ((1 << take) - 1)) << shift;
      v = take === 32 ? 0 : v >>> take;
      pos += take;
      left -= take;
    }
    this.bitPos = pos;
  }

  /** Writes the low `n` ≤ 64 bits of `value`. */
  write64(value: bigint, n: number): void {
    this.write(Number(value & 0xffffffffn), Math.min(n, 32));
    if (n > 32) this.write(Number((value >> 32n) & 0xffffffffn), n - 32);
  }

  /** Pads with zero bits to the next byte boundary. */
  alignToByte(): void {
    this.bitPos = (this.bitPos + 7) & ~7;
  }

  /** The bytes written so far (whole bytes; call {@link alignToByte} first). */
  finish(): Uint8Array {
    return this.buf.slice(0, (this.bitPos + 7) >>> 3);
  }
}
