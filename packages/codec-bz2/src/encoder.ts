/**
 * The bzip2 compressor: first run-length stage (RLE1), Burrows–Wheeler transform,
 * move-to-front with zero-run coding (RLE2, RUNA/RUNB), and multi-table Huffman
 * coding, written as standard `BZh` streams that libbzip2 (Python's `bz2`) reads.
 */
import { ZarrError } from "@zarr/spec";
import { BitWriter } from "./bit-writer.js";
import { CRC_INIT, combineCrc, crcFinish, crcUpdate } from "./crc.js";
import {
  ALPHA_STRIDE,
  BLOCK_MAGIC_HI,
  BLOCK_MAGIC_LO,
  BLOCK_SIZE_UNIT,
  EOS_MAGIC_HI,
  EOS_MAGIC_LO,
  GROUP_SIZE,
  MAX_TABLES,
} from "./format.js";
import { assignCodes, buildCodeLengths } from "./huffman-encode.js";
import { applyRandomisation } from "./random-table.js";
import { MtfList } from "./mtf-list.js";
import { RotationSorter } from "./rotation-sort.js";

/** Code lengths the encoder allows (the format allows 20; libbzip2 also uses 17). */
const MAX_ENCODE_CODE_LEN = 17;
/** Rounds of "choose a table per group, then rebuild the tables from the choices". */
const TABLE_ITERATIONS = 4;
/**
 * Room kept free at the end of a block: a run written by RLE1 takes up to 5 bytes, and
 * libbzip2 keeps 19, which we copy so both split blocks at similar places.
 */
const BLOCK_SLACK = 19;

/** Options of the internal entry point; tests use `randomise` to produce obsolete blocks. */
export interface CompressOptions {
  /** Write "randomised" blocks, as bzip2 0.9.0 did (for testing decoders only). */
  randomise?: boolean;
}

/**
 * Compresses `input` into one bzip2 stream (`BZh` + level, blocks, end-of-stream mark),
 * in the same format as Python's `bz2.compress(input, level)`. The bytes may differ
 * slightly from libbzip2's (ties in table choices are broken differently); every
 * bzip2 decoder reads them.
 *
 * @param input - the bytes to compress (any length, including empty)
 * @param level - block size in units of 100 000 bytes, 1–9 (default 9 like Python's
 *   `bz2.compress`; the Zarr codec defaults to 1 like numcodecs)
 * @returns the compressed stream
 *
 * @example
 * ```ts
 * const packed = bz2Compress(new TextEncoder().encode("hello hello hello"), 9);
 * ```
 */
export function bz2Compress(input: Uint8Array, level = 9): Uint8Array {
  return compressStream(input, level, {});
}

/** {@link bz2Compress} with internal options. */
export function compressStream(input: Uint8Array, level: number, options: CompressOptions): Uint8Array {
  if (!Number.isInteger(level) || level < 1 || level > 9) {
    throw new ZarrError("INVALID_ARGUMENT", `bz2: the block size level must be an integer from 1 to 9, got ${level}`);
  }
  const n = input.length;
  const blockCapacity = level * BLOCK_SIZE_UNIT - BLOCK_SLACK;
  // RLE1 grows data by at most 5/4, so small inputs need small buffers.
  const largestBlock = Math.min(blockCapacity + 5, n + (n >>> 2) + 5);
  const encoder = new BlockEncoder(largestBlock, options.randomise === true);
  const out = new BitWriter((n >>> 2) + 1024);
  out.write(24, 0x425a68); // "BZh"
  out.write(8, 0x30 + level);
  let combined = 0;
  let pos = 0;
  while (pos < n) {
    const consumed = encoder.fillBlock(input, pos, blockCapacity);
    const blockCrc = crcFinish(crcUpdate(CRC_INIT, input, pos, pos + consumed));
    combined = combineCrc(combined, blockCrc);
    encoder.writeBlock(blockCrc, out);
    pos += consumed;
  }
  out.reserve(16);
  out.write(24, EOS_MAGIC_HI);
  out.write(24, EOS_MAGIC_LO);
  out.write32(combined);
  const bytes = out.finish();
  // Hand back a right-sized buffer unless the slack is small.
  return bytes.length + 4096 < out.buf.length ? bytes.slice() : bytes;
}

/** Per-stream state and buffers reused for every block. */
class BlockEncoder {
  /** The block after RLE1; `[0, length)` is valid. */
  private readonly block: Uint8Array;
  private length = 0;
  /** The BWT output: the byte before each sorted rotation. */
  private readonly lastColumn: Uint8Array;
  private readonly sorter: RotationSorter;
  /** MTF/RLE2 symbols of the block, ending with end-of-block. */
  private readonly symbols: Uint16Array;
  private readonly symbolFreq = new Int32Array(ALPHA_STRIDE);
  /** Per table: code length and code of each symbol (stride {@link ALPHA_STRIDE}). */
  private readonly lens = new Uint8Array(MAX_TABLES * ALPHA_STRIDE);
  private readonly codes = new Int32Array(MAX_TABLES * ALPHA_STRIDE);
  /** Per table: how often each symbol is coded with it in the current assignment. */
  private readonly tableFreq = new Int32Array(MAX_TABLES * ALPHA_STRIDE);
  /** Code lengths of tables 2k and 2k+1 packed in the low and high 16 bits, per symbol. */
  private readonly packedLens = new Int32Array((MAX_TABLES / 2) * ALPHA_STRIDE);
  private readonly selectors: Uint8Array;
  private readonly inUse = new Uint8Array(256);
  private readonly seqOf = new Uint8Array(256);
  private readonly mtfList = new MtfList();

  constructor(
    capacity: number,
    private readonly randomise: boolean,
  ) {
    this.block = new Uint8Array(capacity);
    this.lastColumn = new Uint8Array(capacity);
    this.sorter = new RotationSorter(capacity);
    this.symbols = new Uint16Array(capacity + 1);
    this.selectors = new Uint8Array(Math.ceil((capacity + 1) / GROUP_SIZE));
  }

  /**
   * Run-length encodes input from `start` into the block until it holds `capacity`
   * bytes or input ends: runs of 4–255 equal bytes become the byte 4 times and a count
   * of further repeats. Returns the number of input bytes consumed.
   */
  fillBlock(input: Uint8Array, start: number, capacity: number): number {
    const block = this.block;
    const n = input.length;
    let i = start;
    let b = 0;
    while (i < n && b < capacity) {
      const ch = input[i];
      const limit = n - i > 255 ? i + 255 : n;
      let j = i + 1;
      while (j < limit && input[j] === ch) j++;
      const run = j - i;
      if (run < 4) {
        block[b++] = ch;
        if (run > 1) block[b++] = ch;
        if (run > 2) block[b++] = ch;
      } else {
        block[b] = ch;
        block[b + 1] = ch;
        block[b + 2] = ch;
        block[b + 3] = ch;
        block[b + 4] = run - 4;
        b += 5;
      }
      i = j;
    }
    this.length = b;
    return i - start;
  }

  /** Transforms and entropy-codes the current block, appending it to `out`. */
  writeBlock(blockCrc: number, out: BitWriter): void {
    const { block, length, inUse, seqOf } = this;
    if (this.randomise) applyRandomisation(block, length);
    const order = this.sorter.sort(block, length);

    inUse.fill(0);
    for (let i = 0; i < length; i++) inUse[block[i]] = 1;
    let nInUse = 0;
    for (let c = 0; c < 256; c++) if (inUse[c]) seqOf[c] = nInUse++;

    const { origPtr, symbolCount } = this.moveToFront(order, nInUse);
    const alphaSize = nInUse + 2;
    const nTables = symbolCount < 200 ? 2 : symbolCount < 600 ? 3 : symbolCount < 1200 ? 4 : symbolCount < 2400 ? 5 : 6;
    const nSelectors = Math.ceil(symbolCount / GROUP_SIZE);
    this.chooseTables(symbolCount, alphaSize, nTables);

    out.reserve(64 + nSelectors + nTables * alphaSize * 5 + Math.ceil((symbolCount * MAX_ENCODE_CODE_LEN) / 8));
    out.write(24, BLOCK_MAGIC_HI);
    out.write(24, BLOCK_MAGIC_LO);
    out.write32(blockCrc);
    out.write(1, this.randomise ? 1 : 0);
    out.write(24, origPtr);
    this.writeBitmap(out);
    out.write(3, nTables);
    out.write(15, nSelectors);
    this.writeSelectors(out, nSelectors);
    this.writeCodeLengths(out, alphaSize, nTables);
    this.writeSymbols(out, symbolCount);
  }

  /**
   * Move-to-front over the BWT output (the byte preceding each sorted rotation), with
   * runs of zeros written as RUNA/RUNB digits of the run length in bijective base 2.
   */
  private moveToFront(order: Int32Array, nInUse: number): { origPtr: number; symbolCount: number } {
    const { block, length, seqOf, mtfList, symbols, symbolFreq, lastColumn } = this;
    // The BWT output first, in a loop of its own: its reads of `block` are scattered,
    // and independent iterations let the CPU overlap those cache misses.
    let origPtr = 0;
    for (let k = 0; k < length; k++) {
      const start = order[k];
      if (start === 0) {
        origPtr = k;
        lastColumn[k] = block[length - 1];
      } else lastColumn[k] = block[start - 1];
    }
    symbolFreq.fill(0);
    mtfList.reset();
    let count = 0;
    let zeroRun = 0;
    for (let k = 0; k < length; k++) {
      const j = mtfList.moveToFront(seqOf[lastColumn[k]]);
      if (j === 0) {
        zeroRun++;
        continue;
      }
      if (zeroRun > 0) {
        count = this.writeZeroRun(zeroRun, count);
        zeroRun = 0;
      }
      symbols[count++] = j + 1;
      symbolFreq[j + 1]++;
    }
    if (zeroRun > 0) count = this.writeZeroRun(zeroRun, count);
    const eob = nInUse + 1;
    symbols[count++] = eob;
    symbolFreq[eob]++;
    return { origPtr, symbolCount: count };
  }

  /** Appends a zero run of length `run` (≥ 1) as RUNA (0) / RUNB (1) digits. */
  private writeZeroRun(run: number, count: number): number {
    const { symbols, symbolFreq } = this;
    let r = run - 1;
    for (;;) {
      const digit = r & 1;
      symbols[count++] = digit;
      symbolFreq[digit]++;
      if (r < 2) break;
      r = (r - 2) >>> 1;
    }
    return count;
  }

  /**
   * Picks Huffman tables and a table per group of 50 symbols. Starts from tables that
   * each cover a contiguous slice of the alphabet holding about an equal share of the
   * symbols, then alternates: assign each group the table coding it cheapest, rebuild
   * every table from the symbols assigned to it.
   */
  private chooseTables(symbolCount: number, alphaSize: number, nTables: number): void {
    const { lens, tableFreq, symbols, symbolFreq, selectors } = this;
    let remaining = symbolCount;
    let first = 0;
    for (let part = nTables; part > 0; part--) {
      const target = Math.floor(remaining / part);
      let last = first - 1;
      let share = 0;
      while (share < target && last < alphaSize - 1) {
        last++;
        share += symbolFreq[last];
      }
      // Alternate slices give back their last symbol, so slice edges balance out.
      if (last > first && part !== nTables && part !== 1 && (nTables - part) % 2 === 1) {
        share -= symbolFreq[last];
        last--;
      }
      const base = (part - 1) * ALPHA_STRIDE;
      for (let v = 0; v < alphaSize; v++) lens[base + v] = v >= first && v <= last ? 0 : 15;
      first = last + 1;
      remaining -= share;
    }

    const packed = this.packedLens;
    const cost = [0, 0, 0, 0, 0, 0];
    for (let iter = 0; iter < TABLE_ITERATIONS; iter++) {
      // Two tables' lengths per 32-bit word (a group costs at most 50 × 17 < 2^16), so
      // one pass over a group adds up the cost under all six tables with three additions.
      packed.fill(0);
      for (let t = 0; t < nTables; t++) {
        const from = t * ALPHA_STRIDE;
        const to = (t >>> 1) * ALPHA_STRIDE;
        const shift = (t & 1) * 16;
        for (let v = 0; v < alphaSize; v++) packed[to + v] |= lens[from + v] << shift;
      }
      tableFreq.fill(0);
      for (let g = 0, gs = 0; gs < symbolCount; g++, gs += GROUP_SIZE) {
        const ge = Math.min(gs + GROUP_SIZE, symbolCount);
        let c01 = 0;
        let c23 = 0;
        let c45 = 0;
        for (let i = gs; i < ge; i++) {
          const v = symbols[i];
          c01 += packed[v];
          c23 += packed[ALPHA_STRIDE + v];
          c45 += packed[2 * ALPHA_STRIDE + v];
        }
        cost[0] = c01 & 0xffff;
        cost[1] = c01 >>> 16;
        cost[2] = c23 & 0xffff;
        cost[3] = c23 >>> 16;
        cost[4] = c45 & 0xffff;
        cost[5] = c45 >>> 16;
        let best = 0;
        for (let t = 1; t < nTables; t++) if (cost[t] < cost[best]) best = t;
        selectors[g] = best;
        const base = best * ALPHA_STRIDE;
        for (let i = gs; i < ge; i++) tableFreq[base + symbols[i]]++;
      }
      for (let t = 0; t < nTables; t++) {
        const base = t * ALPHA_STRIDE;
        buildCodeLengths(
          tableFreq.subarray(base, base + alphaSize),
          alphaSize,
          MAX_ENCODE_CODE_LEN,
          lens.subarray(base, base + alphaSize),
        );
      }
    }
    for (let t = 0; t < nTables; t++) {
      const base = t * ALPHA_STRIDE;
      assignCodes(lens.subarray(base, base + alphaSize), alphaSize, this.codes.subarray(base, base + alphaSize));
    }
  }

  /** Which bytes occur: 16 bits for the 16-byte ranges, then 16 bits per used range. */
  private writeBitmap(out: BitWriter): void {
    const inUse = this.inUse;
    let ranges = 0;
    for (let r = 0; r < 16; r++) {
      for (let c = r * 16; c < r * 16 + 16; c++) {
        if (inUse[c]) {
          ranges |= 0x8000 >>> r;
          break;
        }
      }
    }
    out.write(16, ranges);
    for (let r = 0; r < 16; r++) {
      if ((ranges & (0x8000 >>> r)) === 0) continue;
      let bits = 0;
      for (let c = 0; c < 16; c++) if (inUse[r * 16 + c]) bits |= 0x8000 >>> c;
      out.write(16, bits);
    }
  }

  /** Selectors, move-to-front coded, each as that many 1 bits and a 0. */
  private writeSelectors(out: BitWriter, nSelectors: number): void {
    const list = [0, 1, 2, 3, 4, 5];
    const selectors = this.selectors;
    for (let s = 0; s < nSelectors; s++) {
      const v = selectors[s];
      let j = 0;
      while (list[j] !== v) j++;
      for (let k = j; k > 0; k--) list[k] = list[k - 1];
      list[0] = v;
      out.write(j + 1, ((1 << j) - 1) << 1);
    }
  }

  /** Code lengths per table: 5-bit start, then per symbol +1 ("10") / −1 ("11") steps and "0". */
  private writeCodeLengths(out: BitWriter, alphaSize: number, nTables: number): void {
    const lens = this.lens;
    for (let t = 0; t < nTables; t++) {
      const base = t * ALPHA_STRIDE;
      let current = lens[base];
      out.write(5, current);
      for (let i = 0; i < alphaSize; i++) {
        const target = lens[base + i];
        while (current < target) {
          out.write(2, 2);
          current++;
        }
        while (current > target) {
          out.write(2, 3);
          current--;
        }
        out.write(1, 0);
      }
    }
  }

  /** The symbols, each group of 50 with its selected table. Capacity was reserved. */
  private writeSymbols(out: BitWriter, symbolCount: number): void {
    const { symbols, selectors, lens, codes } = this;
    const buf = out.buf;
    let acc = out.acc;
    let count = out.count;
    let pos = out.pos;
    for (let g = 0, gs = 0; gs < symbolCount; g++, gs += GROUP_SIZE) {
      const ge = Math.min(gs + GROUP_SIZE, symbolCount);
      const base = selectors[g] * ALPHA_STRIDE;
      for (let i = gs; i < ge; i++) {
        const s = base + symbols[i];
        const len = lens[s];
        // Bits above `count + len` are stale but only ever shift out to the left.
        acc = (acc << len) | codes[s];
        count += len;
        while (count >= 8) {
          count -= 8;
          buf[pos++] = acc >>> count;
        }
      }
    }
    out.acc = acc & ((1 << count) - 1);
    out.count = count;
    out.pos = pos;
  }
}
