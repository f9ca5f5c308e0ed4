/**
 * The bzip2 decompressor. Reads one or more concatenated `BZh` streams, verifying each
 * block's CRC and each stream's combined CRC. Every length and index read from the
 * input is checked before use: corrupt or truncated input fails with `CODEC_FAILED`
 * (or `CHECKSUM_MISMATCH`) quickly, and memory grows only with data actually decoded.
 */
import { ZarrError } from "@zarr/spec";
import { CRC_INIT, combineCrc, crcFinish, crcUpdate } from "./crc.js";
import {
  ALPHA_STRIDE,
  BLOCK_MAGIC_HI,
  BLOCK_MAGIC_LO,
  BLOCK_SIZE_UNIT,
  EOS_MAGIC_HI,
  EOS_MAGIC_LO,
  GROUP_SIZE,
  MAX_CODE_LEN,
  MAX_SELECTORS,
  MAX_TABLES,
  MIN_TABLES,
} from "./format.js";
import { FAST_BITS, HuffmanDecodeTable } from "./huffman-decode.js";
import { applyRandomisation } from "./random-table.js";

/** Options of {@link bz2Decompress}. */
export interface Bz2DecompressOptions {
  /** Named in error messages (the Zarr chunk key). */
  key?: string;
  /** Fail with `CODEC_FAILED` instead of producing more than this many bytes. */
  maxOutputLength?: number;
}

/**
 * Decompresses bzip2 data: one stream or several concatenated ones (like Python's
 * `bz2.decompress`). Bytes after the last stream that do not start another stream
 * (`BZh1`–`BZh9`) are ignored, as Python does; empty input gives empty output.
 *
 * @throws ZarrError `CODEC_FAILED` for corrupt or truncated input, `CHECKSUM_MISMATCH`
 *   when a block or stream CRC does not match.
 *
 * @example
 * ```ts
 * const text = new TextDecoder().decode(bz2Decompress(bz2Compress(new TextEncoder().encode("hi"))));
 * ```
 */
export function bz2Decompress(input: Uint8Array, options: Bz2DecompressOptions = {}): Uint8Array {
  if (input.length === 0) return new Uint8Array(0);
  const decoder = new Bz2Decoder(input, options);
  decoder.decodeStream();
  while (decoder.atNextStream()) decoder.decodeStream();
  return decoder.result();
}

/** Reading position, output buffer and per-block scratch of one decompression. */
class Bz2Decoder {
  private readonly input: Uint8Array;
  private readonly end: number;
  /** Next input byte to load into the bit buffer (may run past `end` in the symbol loop). */
  private pos = 0;
  /** Bit buffer: the low `bitCount` bits are unread, most significant first. */
  private bitBuf = 0;
  private bitCount = 0;

  private readonly key: string | undefined;
  private readonly maxOutput: number;
  private out: Uint8Array;
  private outPos = 0;

  /** Block symbols (low 8 bits), then the inverse-BWT links (high 24 bits). Grows on demand. */
  private tt: Uint32Array;
  /** Per row of the sorted rotations: predecessor row (high 24 bits) and byte. */
  private lf = new Uint32Array(0);
  /** The block after the inverse BWT. */
  private plain = new Uint8Array(0);
  private readonly tables: HuffmanDecodeTable[] = [];
  private readonly selectors = new Uint8Array(MAX_SELECTORS);
  private readonly lens = new Uint8Array(ALPHA_STRIDE);
  private readonly seqToByte = new Uint8Array(256);
  private readonly mtf = new Uint8Array(256);
  private readonly byteCount = new Int32Array(256);

  constructor(input: Uint8Array, options: Bz2DecompressOptions) {
    this.input = input;
    this.end = input.length;
    this.key = options.key;
    this.maxOutput = options.maxOutputLength ?? Number.MAX_SAFE_INTEGER;
    this.out = new Uint8Array(Math.min(this.maxOutput, Math.max(4096, input.length * 4)));
    this.tt = new Uint32Array(Math.min(BLOCK_SIZE_UNIT, Math.max(4096, input.length * 8)));
    for (let t = 0; t < MAX_TABLES; t++) this.tables.push(new HuffmanDecodeTable());
  }

  private fail(problem: string): never {
    const where = this.key === undefined ? "" : ` in chunk "${this.key}"`;
    throw new ZarrError("CODEC_FAILED", `bz2: cannot decode${where}: ${problem}`, { key: this.key });
  }

  private checksumMismatch(what: string, stored: number, computed: number): never {
    const where = this.key === undefined ? "" : ` in chunk "${this.key}"`;
    const hex = (v: number) => `0x${v.toString(16).padStart(8, "0")}`;
    throw new ZarrError(
      "CHECKSUM_MISMATCH",
      `bz2: ${what} CRC mismatch${where}: stored ${hex(stored)}, computed ${hex(computed)}`,
      { key: this.key },
    );
  }

  /** Reads `n` (1–24) bits, failing when the input ends first. */
  private readBits(n: number): number {
    while (this.bitCount < n) {
      if (this.pos >= this.end) this.fail("the data ends unexpectedly (truncated)");
      this.bitBuf = (this.bitBuf << 8) | this.input[this.pos++];
      this.bitCount += 8;
    }
    this.bitCount -= n;
    // Bits past the end may sit in the buffer after the symbol loop; never consume them.
    if (this.pos > this.end && (this.pos - this.end) * 8 > this.bitCount) {
      this.fail("the data ends unexpectedly (truncated)");
    }
    return (this.bitBuf >>> this.bitCount) & ((1 << n) - 1);
  }

  private read32(): number {
    return ((this.readBits(16) << 16) | this.readBits(16)) >>> 0;
  }

  /** Index of the next unread byte, after discarding the padding bits of the current one. */
  private alignedBytePos(): number {
    this.bitCount -= this.bitCount & 7;
    return this.pos - (this.bitCount >>> 3);
  }

  /** True when another stream header follows at the current (byte-aligned) position. */
  atNextStream(): boolean {
    const p = this.alignedBytePos();
    const input = this.input;
    if (this.end - p < 4) return false;
    return input[p] === 0x42 && input[p + 1] === 0x5a && input[p + 2] === 0x68 && input[p + 3] >= 0x31 && input[p + 3] <= 0x39;
  }

  /** The decoded bytes: a view, or a right-sized copy when the buffer has much slack. */
  result(): Uint8Array {
    const n = this.outPos;
    const view = this.out.subarray(0, n);
    return this.out.length - n > (n >>> 3) + 65536 ? view.slice() : view;
  }

  /** Decodes one stream starting at the current byte-aligned position. */
  decodeStream(): void {
    const p = this.alignedBytePos();
    this.pos = p;
    this.bitBuf = 0;
    this.bitCount = 0;
    const input = this.input;
    if (this.end - p < 4 || input[p] !== 0x42 || input[p + 1] !== 0x5a || input[p + 2] !== 0x68) {
      this.fail('not a bzip2 stream (missing the "BZh" signature)');
    }
    const level = input[p + 3] - 0x30;
    if (level < 1 || level > 9) this.fail(`invalid block size digit ${JSON.stringify(String.fromCharCode(input[p + 3]))}`);
    this.pos = p + 4;
    const blockMax = level * BLOCK_SIZE_UNIT;
    let combined = 0;
    for (;;) {
      const hi = this.readBits(24);
      const lo = this.readBits(24);
      if (hi === BLOCK_MAGIC_HI && lo === BLOCK_MAGIC_LO) {
        const stored = this.read32();
        const computed = this.decodeBlock(blockMax);
        if (computed !== stored) this.checksumMismatch("block", stored, computed);
        combined = combineCrc(combined, computed);
      } else if (hi === EOS_MAGIC_HI && lo === EOS_MAGIC_LO) {
        const stored = this.read32();
        if (stored !== combined) this.checksumMismatch("stream", stored, combined);
        return;
      } else {
        this.fail("invalid block header (bad magic number)");
      }
    }
  }

  /** Decodes one block (after its magic and CRC) into the output; returns its CRC. */
  private decodeBlock(blockMax: number): number {
    const randomised = this.readBits(1) === 1;
    const origPtr = this.readBits(24);
    if (origPtr >= blockMax) this.fail(`block start pointer ${origPtr} exceeds the block size`);
    const nInUse = this.readByteMap();
    const alphaSize = nInUse + 2;
    const nTables = this.readBits(3);
    if (nTables < MIN_TABLES || nTables > MAX_TABLES) this.fail(`invalid number of Huffman tables ${nTables}`);
    const nSelectors = this.readSelectors(nTables);
    for (let t = 0; t < nTables; t++) this.readTable(t, alphaSize);
    const nblock = this.readSymbols(nSelectors, nInUse, blockMax);
    if (origPtr >= nblock) this.fail(`block start pointer ${origPtr} is outside the block of ${nblock} bytes`);
    this.linkInverseBwt(nblock);
    const plain = this.walkInverseBwt(origPtr, nblock);
    // Obsolete randomised blocks had bits flipped before sorting; flip them back.
    if (randomised) applyRandomisation(plain, nblock);
    const blockStart = this.outPos;
    this.undoRunLengths(plain, nblock);
    return crcFinish(crcUpdate(CRC_INIT, this.out, blockStart, this.outPos));
  }

  /** Reads which byte values occur; fills `seqToByte` and returns how many. */
  private readByteMap(): number {
    const ranges = this.readBits(16);
    let nInUse = 0;
    for (let r = 0; r < 16; r++) {
      if ((ranges & (0x8000 >>> r)) === 0) continue;
      const bits = this.readBits(16);
      for (let c = 0; c < 16; c++) if (bits & (0x8000 >>> c)) this.seqToByte[nInUse++] = r * 16 + c;
    }
    if (nInUse === 0) this.fail("a block uses no byte values");
    return nInUse;
  }

  /** Reads the MTF-coded table selectors; returns how many are kept (at most 18 002). */
  private readSelectors(nTables: number): number {
    const count = this.readBits(15);
    if (count < 1) this.fail("a block has no selectors");
    const list = [0, 1, 2, 3, 4, 5];
    const selectors = this.selectors;
    for (let s = 0; s < count; s++) {
      let j = 0;
      while (this.readBits(1) === 1) {
        j++;
        if (j >= nTables) this.fail("invalid Huffman table selector");
      }
      const v = list[j];
      for (; j > 0; j--) list[j] = list[j - 1];
      list[0] = v;
      // The format allows 32 767 selectors; ones beyond what any block can use are dropped.
      if (s < MAX_SELECTORS) selectors[s] = v;
    }
    return Math.min(count, MAX_SELECTORS);
  }

  /** Reads the delta-coded code lengths of table `t` and builds its decoding tables. */
  private readTable(t: number, alphaSize: number): void {
    const lens = this.lens;
    let len = this.readBits(5);
    for (let i = 0; i < alphaSize; i++) {
      for (;;) {
        if (len < 1 || len > MAX_CODE_LEN) this.fail(`invalid Huffman code length ${len}`);
        if (this.readBits(1) === 0) break;
        len += this.readBits(1) === 0 ? 1 : -1;
      }
      lens[i] = len;
    }
    if (!this.tables[t].build(lens, alphaSize)) this.fail("invalid Huffman table (over-subscribed code lengths)");
  }

  /** Grows `tt` to hold at least `needed` entries (never beyond the stream's block size). */
  private growBlock(needed: number, blockMax: number): Uint32Array {
    if (needed > blockMax) this.fail(`a block decodes to more than ${blockMax} bytes`);
    const grown = new Uint32Array(Math.min(blockMax, Math.max(needed, this.tt.length * 2)));
    grown.set(this.tt);
    this.tt = grown;
    return grown;
  }

  /**
   * Decodes the Huffman-coded MTF/RLE2 symbols of a block into `tt` (one byte per
   * entry, low 8 bits) and counts each byte value. Returns the block length.
   * Input beyond the end reads as zero bits here (so the loop needs no per-bit checks);
   * the overrun is detected at every group boundary and at the end.
   */
  private readSymbols(nSelectors: number, nInUse: number, blockMax: number): number {
    const input = this.input;
    const end = this.end;
    const { selectors, tables, seqToByte, mtf, byteCount } = this;
    let tt = this.tt;
    let pos = this.pos;
    let bitBuf = this.bitBuf;
    let bitCount = this.bitCount;
    const eob = nInUse + 1;
    for (let i = 0; i < 256; i++) mtf[i] = i;
    byteCount.fill(0);

    let nblock = 0;
    let runLength = 0;
    let runWeight = 1;
    let groupLeft = 0;
    let selector = 0;
    let fast = tables[0].fast;
    let table = tables[0];
    for (;;) {
      if (groupLeft === 0) {
        if ((pos - end) * 8 > bitCount) this.fail("the data ends unexpectedly (truncated)");
        if (selector >= nSelectors) this.fail("a block has more symbols than its selectors cover");
        table = tables[selectors[selector++]];
        fast = table.fast;
        groupLeft = GROUP_SIZE;
      }
      groupLeft--;
      while (bitCount <= 24) {
        bitBuf = (bitBuf << 8) | (pos < end ? input[pos] : 0);
        pos++;
        bitCount += 8;
      }
      let sym: number;
      const entry = fast[(bitBuf >>> (bitCount - FAST_BITS)) & ((1 << FAST_BITS) - 1)];
      if (entry !== 0) {
        sym = entry >>> 5;
        bitCount -= entry & 31;
      } else {
        // Longer than FAST_BITS: find the length whose code range holds the next bits.
        let len = FAST_BITS + 1;
        const maxLen = table.maxLen;
        let code = 0;
        for (; len <= maxLen; len++) {
          code = (bitBuf >>> (bitCount - len)) & ((1 << len) - 1);
          if (code < table.limit[len]) break;
        }
        if (len > maxLen) this.fail("invalid Huffman code");
        sym = table.symbols[code + table.offset[len]];
        bitCount -= len;
      }

      if (sym <= 1) {
        // RUNA adds 1×weight, RUNB 2×weight: the run length in bijective base 2.
        runLength += runWeight << sym;
        runWeight <<= 1;
        if (runLength > blockMax) this.fail(`a block decodes to more than ${blockMax} bytes`);
        continue;
      }
      if (runLength > 0) {
        if (nblock + runLength > tt.length) tt = this.growBlock(nblock + runLength, blockMax);
        const b = seqToByte[mtf[0]];
        byteCount[b] += runLength;
        tt.fill(b, nblock, nblock + runLength);
        nblock += runLength;
        runLength = 0;
        runWeight = 1;
      }
      if (sym === eob) break;
      // MTF position sym − 1: move that entry to the front.
      const index = sym - 1;
      const v = mtf[index];
      if (index < 16) {
        for (let k = index; k > 0; k--) mtf[k] = mtf[k - 1];
      } else {
        mtf.copyWithin(1, 0, index);
      }
      mtf[0] = v;
      if (nblock >= tt.length) tt = this.growBlock(nblock + 1, blockMax);
      const b = seqToByte[v];
      byteCount[b]++;
      tt[nblock++] = b;
    }
    if ((pos - end) * 8 > bitCount) this.fail("the data ends unexpectedly (truncated)");
    this.pos = pos;
    this.bitBuf = bitBuf;
    this.bitCount = bitCount;
    return nblock;
  }

  /**
   * Inverse BWT, step one: counting-sort the block's bytes to link every row of the
   * sorted rotations to its successor (high 24 bits of `tt`, next to the row's byte)
   * and to its predecessor (`lf`, with the row's byte). Links always point inside the
   * block, whatever the input.
   */
  private linkInverseBwt(nblock: number): void {
    const { tt, byteCount } = this;
    if (this.lf.length < nblock) {
      this.lf = new Uint32Array(tt.length);
      this.plain = new Uint8Array(tt.length);
    }
    const lf = this.lf;
    const next = new Int32Array(256);
    let sum = 0;
    for (let c = 0; c < 256; c++) {
      next[c] = sum;
      sum += byteCount[c];
    }
    for (let i = 0; i < nblock; i++) {
      const c = tt[i] & 0xff;
      const j = next[c]++;
      tt[j] |= i << 8;
      lf[i] = (j << 8) | c;
    }
  }

  /**
   * Inverse BWT, step two: recover the block's bytes into `plain`. Following the links
   * is a chain of dependent, scattered memory reads, so two independent chains run at
   * once: successors from the start of the block and predecessors from its end.
   */
  private walkInverseBwt(origPtr: number, nblock: number): Uint8Array {
    const { tt, lf, plain } = this;
    let forward = tt[origPtr] >>> 8;
    let backward = origPtr;
    let lo = 0;
    let hi = nblock - 1;
    while (lo < hi) {
      const a = tt[forward];
      const b = lf[backward];
      forward = a >>> 8;
      backward = b >>> 8;
      plain[lo++] = a;
      plain[hi--] = b;
    }
    if (lo === hi) plain[lo] = tt[forward];
    return plain;
  }

  /**
   * Undoes RLE1 from `plain[0..nblock)` into the output: four equal bytes are followed
   * by a count 0–255 of further repeats. Scans for the next run of four, then copies the
   * stretch up to it in one `set` and expands the run with `fill`.
   */
  private undoRunLengths(plain: Uint8Array, nblock: number): void {
    let prev = -1;
    let runLen = 0;
    let k = 0;
    while (k < nblock) {
      const start = k;
      for (; k < nblock; k++) {
        const b = plain[k];
        if (b !== prev) {
          prev = b;
          runLen = 1;
        } else if (++runLen === 4) {
          k++;
          break;
        }
      }
      const count = runLen === 4 && k < nblock ? plain[k] : 0;
      const length = k - start;
      if (this.outPos + length + count > this.out.length) this.growOutput(length + count);
      const out = this.out;
      out.set(plain.subarray(start, k), this.outPos);
      this.outPos += length;
      if (runLen === 4) {
        // The count byte ends the run: the next byte starts a new one even if equal.
        if (k < nblock) {
          out.fill(prev, this.outPos, this.outPos + count);
          this.outPos += count;
          k++;
        }
        runLen = 0;
      }
    }
  }

  /** Grows the output for `extra` more bytes, honouring `maxOutputLength`. */
  private growOutput(extra: number): Uint8Array {
    const needed = this.outPos + extra;
    if (needed > this.maxOutput) this.fail(`the decoded data exceeds the limit of ${this.maxOutput} bytes`);
    const grown = new Uint8Array(Math.min(this.maxOutput, Math.max(needed, this.out.length * 2)));
    grown.set(this.out.subarray(0, this.outPos));
    this.out = grown;
    return grown;
  }
}
