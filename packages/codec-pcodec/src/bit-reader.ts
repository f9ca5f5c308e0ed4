/**
 * Least-significant-bit-first reader over a pcodec stream, as pcodec packs every field.
 *
 * The bytes are copied into a buffer with {@link READ_SLACK} zero bytes after them, so
 * the hot loops read without bounds checks: a read past the end yields zeros, and the
 * caller calls {@link PcoBitReader.checkInBounds} after each bounded stretch of reads
 * (a metadata section, a batch of 256 numbers) to turn that into a "truncated" error.
 */
import { corrupt } from "./errors.js";

/**
 * Zero bytes after the data: more than one batch can read (three latent variables ×
 * 256 × (14 ANS bits + 64 offset bits) ≈ 7.5 KB), so no read between checks leaves it.
 */
export const READ_SLACK = 8192 + 16;

export class PcoBitReader {
  /** The stream followed by {@link READ_SLACK} zero bytes. */
  private readonly buf: Uint8Array;
  /** Bits of real data. */
  readonly bitLength: number;
  /** Next bit to read. */
  bitPos = 0;

  constructor(bytes: Uint8Array) {
    this.buf = new Uint8Array(bytes.length + READ_SLACK);
    this.buf.set(bytes);
    this.bitLength = bytes.length * 8;
  }

  /** Bytes of real data left from the current position (rounded down). */
  get bytesLeft(): number {
    return Math.max(0, (this.bitLength - this.bitPos) >> 3);
  }

  /** Reads `n` ≤ 24 bits as an unsigned number. */
  readSmall(n: number): number {
    const pos = this.bitPos;
    const i = pos >>> 3;
    const b = this.buf;
    const word = (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> (pos & 7);
    this.bitPos = pos + n;
    return n === 0 ? 0 : word & (0xffffff >>> (24 - n));
  }

  /** Reads `n` ≤ 32 bits as an unsigned number. */
  read(n: number): number {
    if (n <= 24) return this.readSmall(n);
    const lo = this.readSmall(16);
    return lo + this.readSmall(n - 16) * 0x10000;
  }

  /** Reads `n` ≤ 64 bits as an unsigned bigint. */
  read64(n: number): bigint {
    if (n <= 32) return BigInt(this.read(n));
    const lo = this.read(32);
    return (BigInt(this.read(n - 32)) << 32n) | BigInt(lo);
  }

  /** Reads one whole byte at a byte boundary. */
  readAlignedByte(what: string): number {
    if ((this.bitPos & 7) !== 0) corrupt(`${what} is not byte-aligned`);
    const value = this.readSmall(8);
    this.checkInBounds(what);
    return value;
  }

  /**
   * Skips to the next byte boundary; the skipped bits must be zero (pcodec's
   * `drain_empty_byte`), otherwise the stream is corrupt.
   */
  alignToByte(what: string): void {
    const rem = this.bitPos & 7;
    if (rem === 0) return;
    const pad = this.readSmall(8 - rem);
    if (pad !== 0) corrupt(`nonzero padding bits after ${what}`);
  }

  /** Throws "truncated" when reads went past the end of the data. */
  checkInBounds(what: string): void {
    if (this.bitPos > this.bitLength) corrupt(`truncated stream: ${what} runs past the end of the data`);
  }
}
