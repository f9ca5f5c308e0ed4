/**
 * What a frame's blocks pass on to the next block (RFC 8878 §3.1.1.3.1): the repeat
 * offsets, the last Huffman table (for treeless literals) and the last FSE tables of
 * each sequence symbol type (for Repeat_Mode). One instance lives for the module and is
 * reset at every frame, so decoding allocates no tables: decoding is synchronous, so
 * nothing else can use it meanwhile.
 */
import { LL_BASE, LL_BITS, LL_DEFAULT_LOG, LL_DEFAULT_NORM, ML_BASE, ML_BITS, ML_DEFAULT_LOG, ML_DEFAULT_NORM, OF_DEFAULT_LOG, OF_DEFAULT_NORM } from "../encoder/tables.js";
import { buildSequenceTable, type FseDistribution, newDistribution } from "./fse.js";
import { type HuffmanTable, newHuffmanTable } from "./huffman.js";

/** Largest block (decoded or stored), Block_Maximum_Size's upper bound. */
export const MAX_BLOCK_SIZE = 128 * 1024;

/** Offset codes 0..31: Offset_Value = (1 << code) + code extra bits. */
export const OF_BASE = Int32Array.from({ length: 32 }, (_, code) => 1 << code);
export const OF_BITS = Uint8Array.from({ length: 32 }, (_, code) => code);
export { LL_BASE, LL_BITS, ML_BASE, ML_BITS };

function predefined(norm: Int16Array, log: number, base: ArrayLike<number>, bits: ArrayLike<number>): Int32Array {
  const dist: FseDistribution = { norm, symbolCount: norm.length, log };
  const table = new Int32Array(2 << log);
  buildSequenceTable(dist, base, bits, table);
  return table;
}

/** Predefined_Mode tables (RFC 8878 §3.1.1.3.2.2), built once. */
export const LL_PREDEFINED = predefined(LL_DEFAULT_NORM, LL_DEFAULT_LOG, LL_BASE, LL_BITS);
export const ML_PREDEFINED = predefined(ML_DEFAULT_NORM, ML_DEFAULT_LOG, ML_BASE, ML_BITS);
export const OF_PREDEFINED = predefined(OF_DEFAULT_NORM, OF_DEFAULT_LOG, OF_BASE, OF_BITS);

/** Decoder state carried from block to block within a frame. */
export class FrameState {
  /** Repeated_Offset1..3. */
  rep1 = 1;
  rep2 = 4;
  rep3 = 8;
  /** The Huffman table of the last Compressed_Literals_Block. */
  readonly huffman: HuffmanTable = newHuffmanTable();
  /** Decoded literals of the current block (Huffman or RLE), with room for word-sized over-reads. */
  readonly literals = new Uint8Array(MAX_BLOCK_SIZE + 32);
  /** Tables in use per symbol type (a predefined table or one of the buffers below); null before the first. */
  llTable: Int32Array | null = null;
  mlTable: Int32Array | null = null;
  ofTable: Int32Array | null = null;
  /** Where the literals not taken by the last block's sequences start (set by executeSequences). */
  litPos = 0;
  llLog = 0;
  mlLog = 0;
  ofLog = 0;
  /** Buffers for FSE_Compressed_Mode and RLE_Mode tables (two int32 per state, see fse.ts). */
  readonly llBuffer = new Int32Array(2 << 9);
  readonly mlBuffer = new Int32Array(2 << 9);
  readonly ofBuffer = new Int32Array(2 << 8);
  /** Scratch distribution for table descriptions. */
  readonly distribution: FseDistribution = newDistribution(63);

  /** Forgets everything: a new frame starts from the format's initial state. */
  reset(): void {
    this.rep1 = 1;
    this.rep2 = 4;
    this.rep3 = 8;
    this.huffman.maxBits = 0;
    this.llTable = null;
    this.mlTable = null;
    this.ofTable = null;
  }
}
