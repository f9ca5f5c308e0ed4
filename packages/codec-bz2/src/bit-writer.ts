/**
 * Most-significant-bit-first bit writer into a growable byte buffer, as bzip2 packs
 * its streams. Callers reserve room with {@link BitWriter.reserve} before a run of
 * writes so that `write` itself never checks capacity.
 */
export class BitWriter {
  /** Output bytes; only `[0, pos)` is meaningful. */
  buf: Uint8Array;
  /** Next byte index in `buf`. */
  pos = 0;
  /** Pending bits (the low `count` bits are valid). */
  acc = 0;
  /** Number of pending bits, always < 8 between calls. */
  count = 0;

  constructor(initialCapacity: number) {
    this.buf = new Uint8Array(Math.max(64, initialCapacity));
  }

  /** Makes sure at least `bytes` more bytes can be written without growing. */
  reserve(bytes: number): void {
    const needed = this.pos + bytes + 8;
    if (needed <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(needed, this.buf.length * 2));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  /** Writes the low `n` bits of `value` (1 ≤ n ≤ 24), most significant first. */
  write(n: number, value: number): void {
    let acc = (this.acc << n) | (value & ((1 << n) - 1));
    let count = this.count + n;
    const buf = this.buf;
    let pos = this.pos;
    while (count >= 8) {
      count -= 8;
      buf[pos++] = acc >>> count;
    }
    acc &= (1 << count) - 1;
    this.acc = acc;
    this.count = count;
    this.pos = pos;
  }

  /** Writes a 32-bit value, most significant first. */
  write32(value: number): void {
    this.write(16, value >>> 16);
    this.write(16, value & 0xffff);
  }

  /** Pads the last byte with zero bits and returns the written bytes (a view). */
  finish(): Uint8Array {
    if (this.count > 0) this.write(8 - this.count, 0);
    return this.buf.subarray(0, this.pos);
  }
}
