/**
 * Huffman coding of literals (RFC 8878 §4.2): length-limited code construction
 * (at most 11 bits), zstd's canonical code assignment, the `Huffman_Tree_Description`
 * (direct 4-bit weights or FSE-compressed weights) and the backward-read bitstreams.
 */
import { ZarrError } from "@zarr/spec";
import { BitWriter } from "./bit-writer.js";
import {
  buildDecodingTable,
  buildEncodingTable,
  initialState,
  normalizeCounts,
  optimalTableLog,
  writeTableDescription,
} from "./fse.js";
import { highBit } from "./tables.js";

/** Longest code the format allows. */
export const HUFFMAN_MAX_BITS = 11;
/** Largest accuracy log for the FSE table of compressed weights. */
const WEIGHTS_MAX_LOG = 6;

/** A Huffman code for byte values. */
export interface HuffmanTable {
  /** Code length per byte value (0 = absent). */
  readonly lengths: Uint8Array;
  /** Per byte value its code `<< 4 | ` its length: one lookup per symbol in the stream writer. */
  readonly packed: Uint32Array;
  /** Longest code length (the tree depth). */
  readonly maxBits: number;
  /** Largest present byte value. */
  readonly maxSymbol: number;
}

/**
 * Builds a length-limited Huffman code for `counts[0..255]` (at least two byte values
 * present). Optimal lengths come from the two-queue method; lengths beyond the limit
 * are repaired the way zlib does, keeping the code complete (zstd needs the Kraft sum
 * to be exactly one, as the last weight is implied).
 */
export function buildHuffmanTable(counts: Uint32Array): HuffmanTable {
  const symbols: number[] = [];
  let maxSymbol = 0;
  for (let s = 0; s < 256; s++) {
    if (counts[s] !== 0) {
      symbols.push(s);
      maxSymbol = s;
    }
  }
  const n = symbols.length;
  // Least frequent first; ties by symbol so the result is deterministic.
  symbols.sort((a, b) => counts[a] - counts[b] || a - b);

  // Two-queue Huffman: leaves 0..n-1 (sorted), internal nodes n..2n-2 in creation order.
  const weight = new Float64Array(2 * n);
  const parent = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) weight[i] = counts[symbols[i]];
  let leaf = 0;
  let inner = n;
  for (let k = n; k < 2 * n - 1; k++) {
    let a: number;
    let b: number;
    if (leaf < n && (inner >= k || weight[leaf] <= weight[inner])) a = leaf++;
    else a = inner++;
    if (leaf < n && (inner >= k || weight[leaf] <= weight[inner])) b = leaf++;
    else b = inner++;
    weight[k] = weight[a] + weight[b];
    parent[a] = k;
    parent[b] = k;
  }
  const depth = new Uint8Array(2 * n);
  for (let k = 2 * n - 3; k >= 0; k--) depth[k] = depth[parent[k]] + 1;

  // Count codes per length, clamping at the limit, then repair the Kraft sum.
  const blCount = new Int32Array(HUFFMAN_MAX_BITS + 1);
  for (let i = 0; i < n; i++) blCount[Math.min(depth[i], HUFFMAN_MAX_BITS)]++;
  // Kraft sum in units of 2^-MAX: sum over lengths of count * 2^(MAX - len).
  let kraft = 0;
  for (let len = 1; len <= HUFFMAN_MAX_BITS; len++) kraft += blCount[len] << (HUFFMAN_MAX_BITS - len);
  let overflow = kraft - (1 << HUFFMAN_MAX_BITS);
  while (overflow > 0) {
    // Move one leaf from the deepest non-full level down a level and pair it with a
    // leaf from the last level: the Kraft sum drops by exactly one unit.
    let bits = HUFFMAN_MAX_BITS - 1;
    while (blCount[bits] === 0) bits--;
    blCount[bits]--;
    blCount[bits + 1] += 2;
    blCount[HUFFMAN_MAX_BITS]--;
    overflow--;
  }

  // Hand the lengths out again: the least frequent symbols get the longest codes.
  const lengths = new Uint8Array(256);
  let len = HUFFMAN_MAX_BITS;
  let i = 0;
  while (i < n) {
    while (blCount[len] === 0) len--;
    lengths[symbols[i++]] = len;
    blCount[len]--;
  }
  let maxBits = 0;
  for (let s = 0; s <= maxSymbol; s++) if (lengths[s] > maxBits) maxBits = lengths[s];

  // zstd's canonical order: longest codes first, by symbol value within a length.
  const perLength = new Int32Array(maxBits + 1);
  for (let s = 0; s <= maxSymbol; s++) perLength[lengths[s]]++;
  const nextCode = new Int32Array(maxBits + 1);
  let code = 0;
  for (let l = maxBits; l >= 1; l--) {
    nextCode[l] = code;
    code = (code + perLength[l]) >> 1;
  }
  const packed = new Uint32Array(256);
  for (let s = 0; s <= maxSymbol; s++) if (lengths[s] !== 0) packed[s] = (nextCode[lengths[s]]++ << 4) | lengths[s];
  return { lengths, packed, maxBits, maxSymbol };
}

/** Exact size in bytes of the Huffman-coded payload of `counts` (excluding descriptions). */
export function huffmanPayloadBits(counts: Uint32Array, table: HuffmanTable): number {
  let bits = 0;
  for (let s = 0; s <= table.maxSymbol; s++) bits += counts[s] * table.lengths[s];
  return bits;
}

/**
 * Writes the `Huffman_Tree_Description` at `out[pos]`; returns the end position, or -1
 * when the weights cannot be described (then the caller stores literals raw).
 */
export function writeTreeDescription(table: HuffmanTable, out: Uint8Array, pos: number): number {
  const nbWeights = table.maxSymbol; // the last symbol's weight is implied
  const weights = new Uint8Array(nbWeights);
  for (let s = 0; s < nbWeights; s++) {
    const l = table.lengths[s];
    weights[s] = l === 0 ? 0 : table.maxBits + 1 - l;
  }
  const directSize = nbWeights <= 128 ? 1 + ((nbWeights + 1) >> 1) : Number.POSITIVE_INFINITY;
  const fseEnd = nbWeights >= 2 ? writeCompressedWeights(weights, table.maxBits, out, pos) : -1;
  if (fseEnd >= 0 && fseEnd - pos < directSize) return fseEnd;
  if (directSize === Number.POSITIVE_INFINITY) return -1;
  out[pos] = 127 + nbWeights;
  for (let i = 0; i < nbWeights; i += 2) {
    out[pos + 1 + (i >> 1)] = (weights[i] << 4) | (i + 1 < nbWeights ? weights[i + 1] : 0);
  }
  return pos + directSize;
}

/**
 * FSE-compresses the weights with two interleaved states (as the reference encoder
 * does); returns the end position or -1 when FSE cannot describe them in < 128 bytes.
 */
function writeCompressedWeights(weights: Uint8Array, maxWeight: number, out: Uint8Array, pos: number): number {
  const n = weights.length;
  const counts = new Uint32Array(maxWeight + 1);
  let maxCount = 0;
  let maxSym = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i];
    counts[w]++;
    if (counts[w] > maxCount) maxCount = counts[w];
    if (w > maxSym) maxSym = w;
  }
  if (maxCount === n) return -1; // a single weight value: FSE needs two symbols
  // Room: the header byte plus at most 127 bytes; write into a scratch buffer first.
  const scratch = new Uint8Array(160);
  for (let log = optimalTableLog(WEIGHTS_MAX_LOG, n, maxSym); log >= 5; log--) {
    const norm = normalizeCounts(counts, maxSym, n, log);
    const writer = new BitWriter(scratch, 0);
    writeTableDescription(norm, maxSym, log, writer);
    const descEnd = writer.pos;
    const table = buildEncodingTable(norm, maxSym, log);
    const { stateTable, deltaNbBits, deltaFindState } = table;
    // Encode backwards: the decoder's state 1 yields even-indexed weights, state 2 odd ones.
    let i = n;
    let s1: number;
    let s2: number;
    if ((n & 1) === 1) {
      s1 = initialState(table, weights[--i]);
      s2 = initialState(table, weights[--i]);
      const w = weights[--i];
      const nb = (s1 + deltaNbBits[w]) >> 16;
      writer.add(s1, nb);
      s1 = stateTable[(s1 >> nb) + deltaFindState[w]];
    } else {
      s2 = initialState(table, weights[--i]);
      s1 = initialState(table, weights[--i]);
    }
    while (i > 0) {
      let w = weights[--i];
      let nb = (s2 + deltaNbBits[w]) >> 16;
      writer.add(s2, nb);
      s2 = stateTable[(s2 >> nb) + deltaFindState[w]];
      w = weights[--i];
      nb = (s1 + deltaNbBits[w]) >> 16;
      writer.add(s1, nb);
      s1 = stateTable[(s1 >> nb) + deltaFindState[w]];
    }
    writer.add(s2, log);
    writer.add(s1, log);
    const size = writer.close();
    if (size >= 128) return -1;
    if (!weightsDecodeBack(scratch, descEnd, size, norm, maxSym, log, weights)) continue;
    out[pos] = size;
    out.set(scratch.subarray(0, size), pos + 1);
    return pos + 1 + size;
  }
  return -1;
}

/**
 * Replays how decoders read a weight stream: they stop on bitstream overflow, so a
 * final state update that needs zero bits would make them produce an extra weight.
 * Both the reference decoder's rule and fzstd's rule must give back exactly `weights`.
 */
function weightsDecodeBack(
  buf: Uint8Array,
  descEnd: number,
  size: number,
  norm: Int16Array,
  maxSym: number,
  log: number,
  weights: Uint8Array,
): boolean {
  const dt = buildDecodingTable(norm, maxSym, log);
  const last = buf[size - 1];
  if (last === 0) return false;
  const totalBits = (size - descEnd) * 8 - (8 - highBit(last));
  const readBits = (end: number, n: number): number => {
    // Bits [end - n, end) of the stream, little-endian; missing bits read as zero.
    let v = 0;
    for (let k = 0; k < n; k++) {
      const bit = end - n + k;
      if (bit < 0) continue;
      const byte = buf[descEnd + (bit >> 3)];
      v |= ((byte >> (bit & 7)) & 1) << k;
    }
    return v;
  };
  if (totalBits < 2 * log) return false;
  for (const rule of ["reference", "fzstd"] as const) {
    const got: number[] = [];
    if (rule === "reference") {
      let pos = totalBits - log;
      let st1 = readBits(pos + log, log);
      pos -= log;
      let st2 = readBits(pos + log, log);
      // Emit state 1, update it; on overflow emit state 2 and stop; and vice versa.
      for (;;) {
        if (got.length > 255) return false;
        got.push(dt.symbol[st1]);
        let nb = dt.nbBits[st1];
        st1 = dt.baseline[st1] + readBits(pos, nb);
        pos -= nb;
        if (pos < 0) {
          got.push(dt.symbol[st2]);
          break;
        }
        got.push(dt.symbol[st2]);
        nb = dt.nbBits[st2];
        st2 = dt.baseline[st2] + readBits(pos, nb);
        pos -= nb;
        if (pos < 0) {
          got.push(dt.symbol[st1]);
          break;
        }
      }
    } else {
      // fzstd: read the state bits first, emit only if they were all available.
      let nb1 = log;
      let nb2 = log;
      let p = totalBits;
      let a = 0;
      let b = 0;
      for (;;) {
        if (got.length > 255) return false;
        p -= nb1;
        if (p < 0) break;
        a += readBits(p + nb1, nb1);
        got.push(dt.symbol[a]);
        p -= nb2;
        if (p < 0) break;
        b += readBits(p + nb2, nb2);
        got.push(dt.symbol[b]);
        nb1 = dt.nbBits[a];
        a = dt.baseline[a];
        nb2 = dt.nbBits[b];
        b = dt.baseline[b];
      }
    }
    if (got.length !== weights.length) return false;
    for (let k = 0; k < got.length; k++) if (got[k] !== weights[k]) return false;
  }
  return true;
}

/**
 * Huffman-codes `src[start..end)` as one backward-read stream at `out[pos]`; returns the
 * end position. Symbols are written last-first so the decoder emits them in order.
 * `out` needs room for the longest stream the table can give plus 4 bytes: each flush
 * stores a 32-bit word and advances only over its complete bytes (one store and no branch
 * per byte; the extra bytes are overwritten by what follows).
 */
export function writeHuffmanStream(
  src: Uint8Array,
  start: number,
  end: number,
  table: HuffmanTable,
  out: Uint8Array,
  pos: number,
): number {
  if (pos + (((end - start) * table.maxBits) >> 3) + 5 > out.length) {
    throw new ZarrError("INVALID_ARGUMENT", "zstd encoder: no room for the Huffman stream in the output buffer");
  }
  const { packed } = table;
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let acc = 0;
  let bits = 0;
  let i = end;
  // Two codes (≤ 22 bits) fit beside the < 8 pending bits before each flush, so a flush
  // covers at most 3 whole bytes (4 would need `acc >>>= 32`, which shifts by 0). An odd
  // first code is therefore flushed on its own.
  if (((end - start) & 1) === 1) {
    const e = packed[src[--i]];
    acc = e >>> 4;
    bits = e & 15;
    view.setInt32(pos, acc, true);
    const whole = bits >>> 3;
    pos += whole;
    acc >>>= whole << 3;
    bits &= 7;
  }
  while (i > start) {
    const e1 = packed[src[i - 1]];
    const e2 = packed[src[i - 2]];
    i -= 2;
    acc |= (e1 >>> 4) << bits;
    bits += e1 & 15;
    acc |= (e2 >>> 4) << bits;
    bits += e2 & 15;
    view.setInt32(pos, acc, true);
    const whole = bits >>> 3;
    pos += whole;
    acc >>>= whole << 3;
    bits &= 7;
  }
  // End marker, then the partial byte.
  acc |= 1 << bits;
  bits++;
  while (bits > 0) {
    out[pos++] = acc & 0xff;
    acc >>>= 8;
    bits -= 8;
  }
  return pos;
}
