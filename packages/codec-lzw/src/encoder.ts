/**
 * TIFF LZW compression, as libtiff writes it: a Clear code first, codes MSB-first growing
 * from 9 to 12 bits one code early, a Clear whenever the table is full, and
 * EndOfInformation last.
 */
import { CLEAR, EOI, FIRST, MAX_WIDTH, MIN_WIDTH, TABLE_SIZE } from "./format.js";

/** Packs codes MSB-first into a growing byte buffer. */
class CodeWriter {
  private out: Uint8Array;
  private n = 0;
  private buffer = 0;
  private bits = 0;

  constructor(capacity: number) {
    this.out = new Uint8Array(Math.max(16, capacity));
  }

  write(code: number, width: number): void {
    this.buffer = ((this.buffer << width) | code) >>> 0;
    this.bits += width;
    while (this.bits >= 8) {
      this.bits -= 8;
      this.push((this.buffer >>> this.bits) & 0xff);
    }
    this.buffer &= (1 << this.bits) - 1;
  }

  finish(): Uint8Array {
    if (this.bits > 0) this.push((this.buffer << (8 - this.bits)) & 0xff);
    return this.out.slice(0, this.n);
  }

  private push(byte: number): void {
    if (this.n === this.out.length) {
      const grown = new Uint8Array(this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[this.n++] = byte;
  }
}

/**
 * Compresses bytes into one TIFF LZW stream (what libtiff's LZW encoder writes).
 *
 * @example
 * ```ts
 * const packed = lzwCompress(new Uint8Array(4096)); // 4 KiB of zeros in a few dozen bytes
 * ```
 */
export function lzwCompress(input: Uint8Array): Uint8Array {
  const writer = new CodeWriter(input.length / 2 + 16);
  // The table as (prefix code << 8 | byte) → code.
  const table = new Map<number, number>();
  let width = MIN_WIDTH;
  let next = FIRST;
  writer.write(CLEAR, width);
  if (input.length === 0) {
    writer.write(EOI, width);
    return writer.finish();
  }
  // After each code the table grows by one entry; widen when the next free code reaches
  // 2^width (the decoder, one entry behind, widens at 2^width - 1: the early change).
  const grow = () => {
    next++;
    if (next > (1 << width) - 1 && width < MAX_WIDTH) width++;
  };
  let current = input[0];
  for (let i = 1; i < input.length; i++) {
    const byte = input[i];
    const k = (current << 8) | byte;
    const found = table.get(k);
    if (found !== undefined) {
      current = found;
      continue;
    }
    writer.write(current, width);
    table.set(k, next);
    grow();
    // A full table (the next code would need 13 bits): start over, as libtiff does.
    if (next >= TABLE_SIZE - 1) {
      writer.write(CLEAR, width);
      table.clear();
      width = MIN_WIDTH;
      next = FIRST;
    }
    current = byte;
  }
  writer.write(current, width);
  grow();
  writer.write(EOI, width);
  return writer.finish();
}
