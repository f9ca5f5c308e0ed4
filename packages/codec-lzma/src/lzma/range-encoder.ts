/**
 * The LZMA range encoder. `low` needs 33 bits (a carry can ripple into already produced
 * bytes), so it is kept as a double; the carry is resolved through `cache`/`cacheSize`,
 * the pending byte and the run of 0xFF bytes after it. `range` is a uint32 kept as an int32
 * bit pattern so V8 keeps it an integer.
 */

/** Range encoder writing into a caller-provided buffer with enough room (see `reserve`). */
export class RangeEncoder {
  low = 0;
  range = -1;
  cache = 0;
  cacheSize = 1;
  out: Uint8Array;
  pos: number;

  constructor(out: Uint8Array, pos: number) {
    this.out = out;
    this.pos = pos;
  }

  /** Starts a fresh range-coded stream at `pos` of `out`. */
  reset(out: Uint8Array, pos: number): void {
    this.out = out;
    this.pos = pos;
    this.low = 0;
    this.range = -1;
    this.cache = 0;
    this.cacheSize = 1;
  }

  /** Bytes this stream will occupy if flushed now (an upper bound). */
  pendingSize(start: number): number {
    return this.pos - start + this.cacheSize + 5;
  }

  /** Encodes `bit` with the adaptive probability `probs[index]`, updating it. */
  encodeBit(probs: Uint16Array, index: number, bit: number): void {
    const prob = probs[index];
    const bound = Math.imul(this.range >>> 11, prob);
    if (bit === 0) {
      this.range = bound;
      probs[index] = prob + ((2048 - prob) >>> 5);
    } else {
      this.low += bound >>> 0;
      this.range = (this.range - bound) | 0;
      probs[index] = prob - (prob >>> 5);
    }
    // One shift always suffices: after any bit the range is at least about 2^18.
    if ((this.range & 0xff000000) === 0) {
      this.range <<= 8;
      this.shiftLow();
    }
  }

  /** Encodes the low `numBits` bits of `value` (most significant first) with fixed probability 1/2. */
  encodeDirect(value: number, numBits: number): void {
    for (let i = numBits - 1; i >= 0; i--) {
      this.range >>>= 1;
      if ((value >>> i) & 1) this.low += this.range;
      if ((this.range & 0xff000000) === 0) {
        this.range <<= 8;
        this.shiftLow();
      }
    }
  }

  /** Encodes `symbol` (numBits bits, most significant first) with the bit tree at `base`. */
  encodeTree(probs: Uint16Array, base: number, numBits: number, symbol: number): void {
    let m = 1;
    for (let i = numBits - 1; i >= 0; i--) {
      const bit = (symbol >>> i) & 1;
      this.encodeBit(probs, base + m, bit);
      m = (m << 1) | bit;
    }
  }

  /** Encodes `symbol` (numBits bits, least significant first) with the reverse bit tree at `base`. */
  encodeReverseTree(probs: Uint16Array, base: number, numBits: number, symbol: number): void {
    let m = 1;
    for (let i = 0; i < numBits; i++) {
      const bit = (symbol >>> i) & 1;
      this.encodeBit(probs, base + m, bit);
      m = (m << 1) | bit;
    }
  }

  /** Moves the top byte of `low` to the output, resolving any carry into pending bytes. */
  shiftLow(): void {
    const low = this.low;
    if (low < 0xff000000 || low >= 0x100000000) {
      const carry = low >= 0x100000000 ? 1 : 0;
      let temp = this.cache;
      const out = this.out;
      do {
        out[this.pos++] = (temp + carry) & 0xff;
        temp = 0xff;
      } while (--this.cacheSize !== 0);
      this.cache = (low >>> 24) & 0xff;
    }
    this.cacheSize++;
    this.low = (low & 0x00ffffff) * 256;
  }

  /** Flushes the stream: afterwards the decoder can read every symbol and ends with code 0. */
  flush(): void {
    for (let i = 0; i < 5; i++) this.shiftLow();
  }
}
