/**
 * Huffman-coded literals (RFC 8878 §4.2): the tree description (direct 4-bit weights
 * or FSE-compressed weights) turned into a single-lookup decoding table, and the
 * decoding of 1 or 4 backward bitstreams with it.
 *
 * The table has 2^maxBits entries (maxBits ≤ 11), indexed by the next maxBits bits of
 * the stream; each holds `symbol << 8 | Number_of_Bits`.
 *
 * Backward bit reading (used here and in sequences.ts): a 32-bit little-endian word is
 * loaded from `p` (the stream's next unread bytes end at p + 4) and bits are consumed
 * from its top; `c` counts the consumed bits. Refilling moves `p` back by whole bytes.
 * `p` never goes below the stream start, so the bits left are always
 * `(p - start) * 8 + 32 - c`, which must end at exactly 0. Streams shorter than 4 bytes
 * start with `p < start`: the word's low bytes are then bytes before the stream (always
 * inside the block), never consumed by valid data, and counted as negative above.
 */
import { corrupt } from "./corrupt.js";
import { buildFseTable, type FseDistribution, type FseTable, newDistribution, newFseTable, readDistribution } from "./fse.js";

/** Longest Huffman code zstd allows. */
export const HUFFMAN_MAX_BITS = 11;

/** A Huffman decoding table, kept between blocks for `Treeless_Literals_Block`. */
export interface HuffmanTable {
  /** `symbol << 8 | Number_of_Bits`, indexed by the next `maxBits` bits. */
  readonly entries: Uint16Array;
  /** The table's depth; 0 while no table has been read in the current frame. */
  maxBits: number;
}

/** An empty table holder. */
export function newHuffmanTable(): HuffmanTable {
  return { entries: new Uint16Array(1 << HUFFMAN_MAX_BITS), maxBits: 0 };
}

// Scratch for reading tree descriptions.
const weights = new Uint8Array(256);
const rankCount = new Uint16Array(HUFFMAN_MAX_BITS + 2);
const rankStart = new Uint32Array(HUFFMAN_MAX_BITS + 2);
const weightDist: FseDistribution = newDistribution(12);
const weightTable: FseTable = newFseTable(6);

/**
 * Reads a Huffman tree description at `src[pos..end)` and builds `table` from it.
 * Returns the offset just past the description.
 */
export function readHuffmanTable(src: Uint8Array, pos: number, end: number, table: HuffmanTable): number {
  if (pos >= end) corrupt("truncated Huffman tree description");
  const header = src[pos++];
  let count: number;
  if (header >= 128) {
    // Direct representation: 4 bits per weight, first weight in the high nibble.
    count = header - 127;
    const bytes = (count + 1) >> 1;
    if (pos + bytes > end) corrupt("truncated Huffman tree description");
    for (let i = 0; i < count; i += 2) {
      const b = src[pos + (i >> 1)];
      weights[i] = b >> 4;
      weights[i + 1] = b & 15;
    }
    pos += bytes;
  } else {
    if (header === 0 || pos + header > end) corrupt("truncated Huffman tree description");
    count = readFseWeights(src, pos, pos + header);
    pos += header;
  }
  buildHuffmanTable(count, table);
  return pos;
}

/** Bits left in the weight stream being read (negative once it is over-read). */
let weightBits = 0;

/** Takes the next `n` (≤ 6) bits of the weight stream `src[start..end)`; bits before it read as 0. */
function readWeightBits(src: Uint8Array, start: number, end: number, n: number): number {
  weightBits -= n;
  if (n === 0) return 0;
  const at = start * 8 + weightBits;
  const i = at >> 3;
  const b0 = i >= start && i < end ? src[i] : 0;
  const b1 = i + 1 >= start && i + 1 < end ? src[i + 1] : 0;
  return ((b0 | (b1 << 8)) >>> (at & 7)) & ((1 << n) - 1);
}

/**
 * Decodes FSE-compressed Huffman weights from `src[start..end)` into `weights`: a
 * distribution (accuracy log ≤ 6), then one backward bitstream read by two interleaved
 * states. The stream ends when a state update needs bits that are not there; the
 * other state's symbol is the last weight (libzstd's rule, RFC 8878 §4.2.1.2).
 */
function readFseWeights(src: Uint8Array, start: number, end: number): number {
  const streamStart = readDistribution(src, start, end, 6, 12, weightDist);
  if (streamStart >= end) corrupt("Huffman weights: empty bitstream");
  buildFseTable(weightDist, weightTable);
  const { symbol, nbBits, baseline, log } = weightTable;
  const last = src[end - 1];
  if (last === 0) corrupt("Huffman weights: bitstream without its end mark");
  // Bits left to read, counted from the stream start; bits before the start read as 0.
  weightBits = (end - streamStart) * 8 - (Math.clz32(last) - 23);
  let s1 = readWeightBits(src, streamStart, end, log);
  let s2 = readWeightBits(src, streamStart, end, log);
  let n = 0;
  for (;;) {
    if (n > 253) corrupt("Huffman weights: more than 255 weights");
    weights[n++] = symbol[s1];
    s1 = baseline[s1] + readWeightBits(src, streamStart, end, nbBits[s1]);
    if (weightBits < 0) {
      weights[n++] = symbol[s2];
      break;
    }
    if (n > 253) corrupt("Huffman weights: more than 255 weights");
    weights[n++] = symbol[s2];
    s2 = baseline[s2] + readWeightBits(src, streamStart, end, nbBits[s2]);
    if (weightBits < 0) {
      weights[n++] = symbol[s1];
      break;
    }
  }
  return n;
}

/** Completes the `count` weights with the implied last one and fills `table`. */
function buildHuffmanTable(count: number, table: HuffmanTable): void {
  rankCount.fill(0);
  let total = 0;
  for (let s = 0; s < count; s++) {
    const w = weights[s];
    if (w > HUFFMAN_MAX_BITS) corrupt(`Huffman weight ${w} is over ${HUFFMAN_MAX_BITS}`);
    rankCount[w]++;
    if (w > 0) total += 1 << (w - 1);
  }
  if (total === 0) corrupt("Huffman tree without symbols");
  const maxBits = 32 - Math.clz32(total); // highest bit + 1
  if (maxBits > HUFFMAN_MAX_BITS) corrupt(`Huffman tree deeper than ${HUFFMAN_MAX_BITS} bits`);
  const rest = (1 << maxBits) - total;
  const lastWeight = 32 - Math.clz32(rest);
  if (1 << (lastWeight - 1) !== rest) corrupt("Huffman weights do not complete to a power of 2");
  weights[count] = lastWeight;
  rankCount[lastWeight]++;
  count++;
  // A complete prefix code has an even number (≥ 2) of longest codes.
  if (rankCount[1] < 2 || (rankCount[1] & 1) !== 0) corrupt("Huffman weights describe no valid tree");
  // Codes are handed out from the lowest weight (longest code) up, symbols in order.
  let next = 0;
  for (let w = 1; w <= maxBits; w++) {
    rankStart[w] = next;
    next += rankCount[w] << (w - 1);
  }
  const entries = table.entries;
  for (let s = 0; s < count; s++) {
    const w = weights[s];
    if (w === 0) continue;
    const length = 1 << (w - 1);
    const at = rankStart[w];
    const entry = (s << 8) | (maxBits + 1 - w);
    if (length === 1) entries[at] = entry;
    else entries.fill(entry, at, at + length);
    rankStart[w] = at + length;
  }
  table.maxBits = maxBits;
}

function read32(src: Uint8Array, p: number): number {
  return src[p] | (src[p + 1] << 8) | (src[p + 2] << 16) | (src[p + 3] << 24);
}

/**
 * Decodes one Huffman stream `src[start..end)` into `dst[o..oEnd)`, from a given
 * reader state (`p`, `c`; the word is reloaded here). Returns the bits left in the
 * stream, which is 0 for a valid stream.
 */
function decodeStreamTail(
  src: Uint8Array,
  start: number,
  p: number,
  c: number,
  entries: Uint16Array,
  maxBits: number,
  dst: Uint8Array,
  o: number,
  oEnd: number,
): number {
  const shift = 32 - maxBits;
  let w = read32(src, p);
  while (o < oEnd) {
    // Refill, never moving before the stream start.
    const bytes = c >> 3;
    if (p - bytes >= start) {
      p -= bytes;
      c &= 7;
    } else if (p > start) {
      c -= (p - start) << 3;
      p = start;
    }
    w = read32(src, p);
    const e = entries[(w << c) >>> shift];
    c += e & 0xff;
    dst[o++] = e >> 8;
  }
  return (p - start) * 8 + 32 - c;
}

/** Reader start state of the stream ending at `end`: the word offset; sets `initConsumed`. */
let initConsumed = 0;
function initStream(src: Uint8Array, start: number, end: number): number {
  if (end <= start) corrupt("empty Huffman stream");
  const last = src[end - 1];
  if (last === 0) corrupt("Huffman stream without its end mark");
  initConsumed = Math.clz32(last) - 23; // leading zeros of the last byte + the mark bit
  return end - 4;
}

/**
 * Decodes `size` literals from a single Huffman stream `src[start..end)` into
 * `dst[o..)`.
 */
export function decodeHuffman1(
  src: Uint8Array,
  start: number,
  end: number,
  table: HuffmanTable,
  dst: Uint8Array,
  o: number,
  size: number,
): void {
  const p = initStream(src, start, end);
  const left = decodeStreamTail(src, start, p, initConsumed, table.entries, table.maxBits, dst, o, o + size);
  if (left !== 0) corrupt("Huffman stream not consumed exactly");
}

/**
 * Decodes `size` literals from 4 Huffman streams (a 6-byte jump table at `start`, then
 * the streams up to `end`) into `dst[o..)`. The four streams are decoded in one loop,
 * two symbols per stream between refills, while every stream is at least 4 bytes
 * from its start; the ends are finished one stream at a time.
 */
export function decodeHuffman4(
  src: Uint8Array,
  start: number,
  end: number,
  table: HuffmanTable,
  dst: Uint8Array,
  o: number,
  size: number,
): void {
  if (size < 6) corrupt("4-stream Huffman literals shorter than 6 bytes");
  if (end - start < 10) corrupt("truncated Huffman jump table");
  const s1 = start + 6;
  const s2 = s1 + (src[start] | (src[start + 1] << 8));
  const s3 = s2 + (src[start + 2] | (src[start + 3] << 8));
  const s4 = s3 + (src[start + 4] | (src[start + 5] << 8));
  if (s4 >= end) corrupt("Huffman jump table points past the literals");
  const segment = (size + 3) >> 2;
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const entries = table.entries;
  const maxBits = table.maxBits;
  const shift = 32 - maxBits;

  let p1 = initStream(src, s1, s2);
  let c1 = initConsumed;
  let p2 = initStream(src, s2, s3);
  let c2 = initConsumed;
  let p3 = initStream(src, s3, s4);
  let c3 = initConsumed;
  let p4 = initStream(src, s4, end);
  let c4 = initConsumed;
  const segment2 = 2 * segment;
  const segment3 = 3 * segment;
  let o1 = o;
  let o2 = o + segment;
  let o3 = o + segment2;
  let o4 = o + segment3;
  const end4 = o + size;

  // Each round takes 2 symbols (≤ 22 bits) per stream, so a refill moves back ≤ 3 bytes:
  // with every p ≥ start + 3, no refill needs clamping. Stream 4 is the shortest output.
  for (;;) {
    let rounds = Math.min(p1 - s1, p2 - s2, p3 - s3, p4 - s4) - 3;
    // Bits consumed per round ≤ 22, so `rounds` rounds move back ≤ (7 + 22·rounds) / 8 bytes.
    rounds = Math.min(Math.floor((rounds * 8 - 7) / 22), (end4 - o4) >> 1);
    if (rounds <= 0) break;
    let w1 = view.getInt32(p1, true);
    let w2 = view.getInt32(p2, true);
    let w3 = view.getInt32(p3, true);
    let w4 = view.getInt32(p4, true);
    // One output index for all four streams (their segments are `segment` apart).
    const stop = o1 + 2 * rounds;
    while (o1 < stop) {
      let e = entries[(w1 << c1) >>> shift];
      c1 += e & 0xff;
      dst[o1] = e >> 8;
      e = entries[(w2 << c2) >>> shift];
      c2 += e & 0xff;
      dst[o1 + segment] = e >> 8;
      e = entries[(w3 << c3) >>> shift];
      c3 += e & 0xff;
      dst[o1 + segment2] = e >> 8;
      e = entries[(w4 << c4) >>> shift];
      c4 += e & 0xff;
      dst[o1 + segment3] = e >> 8;
      e = entries[(w1 << c1) >>> shift];
      c1 += e & 0xff;
      dst[o1 + 1] = e >> 8;
      e = entries[(w2 << c2) >>> shift];
      c2 += e & 0xff;
      dst[o1 + segment + 1] = e >> 8;
      e = entries[(w3 << c3) >>> shift];
      c3 += e & 0xff;
      dst[o1 + segment2 + 1] = e >> 8;
      e = entries[(w4 << c4) >>> shift];
      c4 += e & 0xff;
      dst[o1 + segment3 + 1] = e >> 8;
      o1 += 2;
      p1 -= c1 >> 3;
      c1 &= 7;
      w1 = view.getInt32(p1, true);
      p2 -= c2 >> 3;
      c2 &= 7;
      w2 = view.getInt32(p2, true);
      p3 -= c3 >> 3;
      c3 &= 7;
      w3 = view.getInt32(p3, true);
      p4 -= c4 >> 3;
      c4 &= 7;
      w4 = view.getInt32(p4, true);
    }
    o2 = o1 + segment;
    o3 = o1 + segment2;
    o4 = o1 + segment3;
  }
  const left =
    decodeStreamTail(src, s1, p1, c1, entries, maxBits, dst, o1, o + segment) |
    decodeStreamTail(src, s2, p2, c2, entries, maxBits, dst, o2, o + 2 * segment) |
    decodeStreamTail(src, s3, p3, c3, entries, maxBits, dst, o3, o + 3 * segment) |
    decodeStreamTail(src, s4, p4, c4, entries, maxBits, dst, o4, end4);
  if (left !== 0) corrupt("Huffman stream not consumed exactly");
}
