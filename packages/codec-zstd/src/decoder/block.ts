/**
 * One Compressed_Block (RFC 8878 §3.1.1.3): the literals section (raw, RLE, Huffman
 * with 1 or 4 streams, treeless), the sequences section header and its FSE tables
 * (predefined, RLE, FSE-compressed, repeat), then sequence execution (sequences.ts).
 */
import { corrupt } from "./corrupt.js";
import { buildRleSequenceTable, buildSequenceTable, readDistribution } from "./fse.js";
import { decodeHuffman1, decodeHuffman4, readHuffmanTable } from "./huffman.js";
import { executeSequences } from "./sequences.js";
import {
  type FrameState,
  LL_BASE,
  LL_BITS,
  LL_PREDEFINED,
  MAX_BLOCK_SIZE,
  ML_BASE,
  ML_BITS,
  ML_PREDEFINED,
  OF_BASE,
  OF_BITS,
  OF_PREDEFINED,
} from "./state.js";

const RAW = 0;
const RLE = 1;
const COMPRESSED = 2;

/**
 * Decodes the compressed block `src[pos..end)` into `out[op..limit)` and returns the new
 * output position. `windowStart` is where the frame's output starts (the furthest a
 * match may reach back).
 */
export function decodeCompressedBlock(
  st: FrameState,
  src: Uint8Array,
  pos: number,
  end: number,
  out: Uint8Array,
  op: number,
  limit: number,
  windowStart: number,
): number {
  // Literals_Section_Header.
  const b0 = src[pos];
  const litType = b0 & 3;
  const sizeFormat = (b0 >> 2) & 3;
  let litSize: number;
  let headerSize: number;
  let sectionEnd: number;
  if (litType === RAW || litType === RLE) {
    if ((sizeFormat & 1) === 0) {
      headerSize = 1;
      litSize = b0 >> 3;
    } else if (sizeFormat === 1) {
      headerSize = 2;
      litSize = (b0 >> 4) | (src[pos + 1] << 4);
    } else {
      headerSize = 3;
      litSize = (b0 >> 4) | (src[pos + 1] << 4) | (src[pos + 2] << 12);
    }
    sectionEnd = pos + headerSize + (litType === RAW ? litSize : 1);
  } else {
    let compressedSize: number;
    if (sizeFormat < 2) {
      headerSize = 3;
      const h = b0 | (src[pos + 1] << 8) | (src[pos + 2] << 16);
      litSize = (h >> 4) & 0x3ff;
      compressedSize = (h >> 14) & 0x3ff;
    } else if (sizeFormat === 2) {
      headerSize = 4;
      const h = b0 | (src[pos + 1] << 8) | (src[pos + 2] << 16) | (src[pos + 3] << 24);
      litSize = (h >>> 4) & 0x3fff;
      compressedSize = (h >>> 18) & 0x3fff;
    } else {
      headerSize = 5;
      const h = b0 | (src[pos + 1] << 8) | (src[pos + 2] << 16) | (src[pos + 3] << 24);
      litSize = (h >>> 4) & 0x3ffff;
      compressedSize = (h >>> 22) | (src[pos + 4] << 10);
    }
    if (compressedSize === 0) corrupt("empty Huffman literals");
    sectionEnd = pos + headerSize + compressedSize;
  }
  if (sectionEnd > end) corrupt("literals section overruns its block");
  if (litSize > MAX_BLOCK_SIZE) corrupt(`${litSize} literals, over the block limit`);

  // Sequences_Section_Header: Number_of_Sequences.
  let sp = sectionEnd;
  if (sp >= end) corrupt("block without a sequences section");
  let nbSeq = src[sp++];
  if (nbSeq >= 128) {
    if (nbSeq === 255) {
      nbSeq = src[sp] + (src[sp + 1] << 8) + 0x7f00;
      sp += 2;
    } else {
      nbSeq = ((nbSeq - 128) << 8) + src[sp];
      sp++;
    }
    if (sp > end) corrupt("truncated sequences section header");
  }

  if (nbSeq === 0) {
    // The block is its literals: decode them straight into the output.
    if (sp !== end) corrupt("bytes after an empty sequences section");
    if (litSize > limit - op) corrupt("block decodes past the frame's size");
    decodeLiterals(st, src, pos, litType, sizeFormat, headerSize, litSize, sectionEnd, out, op);
    return op + litSize;
  }

  // Literals are copied from the input (raw) or from the literal buffer during execution.
  let lit: Uint8Array;
  let litStart: number;
  if (litType === RAW) {
    lit = src;
    litStart = pos + headerSize;
  } else {
    lit = st.literals;
    litStart = 0;
    decodeLiterals(st, src, pos, litType, sizeFormat, headerSize, litSize, sectionEnd, lit, 0);
  }

  // Symbol compression modes, then the tables in the order LL, OF, ML.
  if (sp >= end) corrupt("truncated sequences section header");
  const modes = src[sp++];
  if ((modes & 3) !== 0) corrupt("reserved bits set in the symbol compression modes");
  sp = selectTable(st, LITERAL_LENGTHS, modes >> 6, src, sp, end);
  sp = selectTable(st, OFFSETS, (modes >> 4) & 3, src, sp, end);
  sp = selectTable(st, MATCH_LENGTHS, (modes >> 2) & 3, src, sp, end);
  const litEnd = litStart + litSize;
  op = executeSequences(st, src, sp, end, nbSeq, lit, litStart, litEnd, out, op, limit, windowStart);
  // Literals left after the last sequence end the block.
  const litPos = st.litPos;
  const rest = litEnd - litPos;
  if (rest > limit - op) corrupt("block decodes past its size limit");
  if (rest > 16) out.set(lit.subarray(litPos, litEnd), op);
  else for (let k = 0; k < rest; k++) out[op + k] = lit[litPos + k];
  return op + rest;
}

/** Decodes the (non-raw-in-place) literals of the section at `pos` into `dst[o..o + litSize)`. */
function decodeLiterals(
  st: FrameState,
  src: Uint8Array,
  pos: number,
  litType: number,
  sizeFormat: number,
  headerSize: number,
  litSize: number,
  sectionEnd: number,
  dst: Uint8Array,
  o: number,
): void {
  const dataStart = pos + headerSize;
  if (litType === RAW) {
    dst.set(src.subarray(dataStart, dataStart + litSize), o);
  } else if (litType === RLE) {
    dst.fill(src[dataStart], o, o + litSize);
  } else {
    let streams = dataStart;
    if (litType === COMPRESSED) {
      streams = readHuffmanTable(src, dataStart, sectionEnd, st.huffman);
    } else if (st.huffman.maxBits === 0) {
      corrupt("treeless literals without a previous Huffman table");
    }
    if (sizeFormat === 0) decodeHuffman1(src, streams, sectionEnd, st.huffman, dst, o, litSize);
    else decodeHuffman4(src, streams, sectionEnd, st.huffman, dst, o, litSize);
  }
}

const LITERAL_LENGTHS = 0;
const OFFSETS = 1;
const MATCH_LENGTHS = 2;

const MODE_PREDEFINED = 0;
const MODE_RLE = 1;
const MODE_FSE = 2;

/**
 * Sets the table of one symbol type for this block according to its compression mode,
 * reading its description (if any) at `src[sp..end)`. Returns the offset past it.
 */
function selectTable(st: FrameState, kind: number, mode: number, src: Uint8Array, sp: number, end: number): number {
  const maxSymbol = kind === LITERAL_LENGTHS ? 35 : kind === OFFSETS ? 31 : 52;
  const maxLog = kind === OFFSETS ? 8 : 9;
  const base = kind === LITERAL_LENGTHS ? LL_BASE : kind === OFFSETS ? OF_BASE : ML_BASE;
  const bits = kind === LITERAL_LENGTHS ? LL_BITS : kind === OFFSETS ? OF_BITS : ML_BITS;
  const buffer = kind === LITERAL_LENGTHS ? st.llBuffer : kind === OFFSETS ? st.ofBuffer : st.mlBuffer;
  let table: Int32Array;
  let log: number;
  if (mode === MODE_PREDEFINED) {
    table = kind === LITERAL_LENGTHS ? LL_PREDEFINED : kind === OFFSETS ? OF_PREDEFINED : ML_PREDEFINED;
    log = kind === OFFSETS ? 5 : 6;
  } else if (mode === MODE_RLE) {
    if (sp >= end) corrupt("truncated RLE sequence table");
    const symbol = src[sp++];
    if (symbol > maxSymbol) corrupt(`RLE sequence code ${symbol} is out of range`);
    buildRleSequenceTable(symbol, base, bits, buffer);
    table = buffer;
    log = 0;
  } else if (mode === MODE_FSE) {
    const dist = st.distribution;
    sp = readDistribution(src, sp, end, maxLog, maxSymbol, dist);
    buildSequenceTable(dist, base, bits, buffer);
    table = buffer;
    log = dist.log;
  } else {
    // Repeat_Mode: the table of the previous block with sequences.
    const previous = kind === LITERAL_LENGTHS ? st.llTable : kind === OFFSETS ? st.ofTable : st.mlTable;
    if (previous === null) corrupt("Repeat_Mode without a previous sequence table");
    return sp;
  }
  if (kind === LITERAL_LENGTHS) {
    st.llTable = table;
    st.llLog = log;
  } else if (kind === OFFSETS) {
    st.ofTable = table;
    st.ofLog = log;
  } else {
    st.mlTable = table;
    st.mlLog = log;
  }
  return sp;
}
