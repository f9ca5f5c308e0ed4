/**
 * The `Literals_Section` of a compressed block (RFC 8878 §3.1.1.3.1): raw, RLE, or
 * Huffman-compressed with one stream (few literals) or four streams plus a jump table.
 * Huffman is used only when it beats storing the bytes as they are.
 */
import { buildHuffmanTable, huffmanPayloadBits, writeHuffmanStream, writeTreeDescription } from "./huffman.js";

// Below this many literals a Huffman description rarely pays for itself.
const MIN_HUFFMAN_LITERALS = 32;
// Below this many literals a single stream is used (the four-stream jump table costs 6 bytes).
const SINGLE_STREAM_LIMIT = 256;

const counts = new Uint32Array(256);
// Three more histograms: consecutive bytes count into different tables, so runs of one
// byte value do not wait on the previous increment of the same counter.
const counts1 = new Uint32Array(256);
const counts2 = new Uint32Array(256);
const counts3 = new Uint32Array(256);

/** Fills `counts` with the histogram of `lits[0..n)`. */
function countBytes(lits: Uint8Array, n: number): void {
  counts.fill(0);
  counts1.fill(0);
  counts2.fill(0);
  counts3.fill(0);
  let i = 0;
  for (; i + 3 < n; i += 4) {
    counts[lits[i]]++;
    counts1[lits[i + 1]]++;
    counts2[lits[i + 2]]++;
    counts3[lits[i + 3]]++;
  }
  for (; i < n; i++) counts[lits[i]]++;
  for (let s = 0; s < 256; s++) counts[s] += counts1[s] + counts2[s] + counts3[s];
}

/** Writes a raw literals section of `lits[0..n)` at `out[pos]`; returns the end. */
export function writeRawLiterals(lits: Uint8Array, n: number, out: Uint8Array, pos: number): number {
  pos = writeRawHeader(0, n, out, pos);
  out.set(lits.subarray(0, n), pos);
  return pos + n;
}

/** Raw (type 0) and RLE (type 1) headers: 1, 2 or 3 bytes depending on the size. */
function writeRawHeader(type: number, n: number, out: Uint8Array, pos: number): number {
  if (n < 32) {
    out[pos] = type | (n << 3);
    return pos + 1;
  }
  if (n < 4096) {
    const v = type | (1 << 2) | (n << 4);
    out[pos] = v & 0xff;
    out[pos + 1] = v >>> 8;
    return pos + 2;
  }
  const v = type | (3 << 2) | (n << 4);
  out[pos] = v & 0xff;
  out[pos + 1] = (v >>> 8) & 0xff;
  out[pos + 2] = v >>> 16;
  return pos + 3;
}

/**
 * Writes the literals section for `lits[0..n)` at `out[pos]` choosing the smallest of
 * raw, RLE and Huffman; returns the end position. `out` needs room for the raw form
 * plus 256 bytes (Huffman output is tried in place and kept only if smaller).
 * With `allowHuffman` false (the fastest levels) literals are never entropy-coded.
 */
export function writeLiterals(lits: Uint8Array, n: number, out: Uint8Array, pos: number, allowHuffman: boolean): number {
  if (n === 0) {
    out[pos] = 0;
    return pos + 1;
  }
  countBytes(lits, n);
  let distinct = 0;
  for (let s = 0; s < 256; s++) if (counts[s] !== 0) distinct++;
  if (distinct === 1) {
    pos = writeRawHeader(1, n, out, pos);
    out[pos] = lits[0];
    return pos + 1;
  }
  const rawSize = (n < 32 ? 1 : n < 4096 ? 2 : 3) + n;
  if (!allowHuffman || n < MIN_HUFFMAN_LITERALS) return writeRawLiterals(lits, n, out, pos);

  const table = buildHuffmanTable(counts);
  const single = n < SINGLE_STREAM_LIMIT;
  // Estimate first: the payload size is exact, the tree description at most 129 bytes.
  const payload = (huffmanPayloadBits(counts, table) + 7) >> 3;
  if (payload + (single ? 3 : 12) >= rawSize) return writeRawLiterals(lits, n, out, pos);

  // Write the body after room for the largest header, then slide it into place.
  const headerRoom = 5;
  const bodyStart = pos + headerRoom;
  let p = writeTreeDescription(table, out, bodyStart);
  if (p < 0) return writeRawLiterals(lits, n, out, pos);
  if (single) {
    p = writeHuffmanStream(lits, 0, n, table, out, p);
  } else {
    const segment = (n + 3) >> 2;
    const jump = p;
    p += 6;
    let start = 0;
    for (let k = 0; k < 4; k++) {
      const end = Math.min(start + segment, n);
      const streamStart = p;
      p = writeHuffmanStream(lits, start, end, table, out, p);
      const size = p - streamStart;
      if (k < 3) {
        if (size > 0xffff) return writeRawLiterals(lits, n, out, pos);
        out[jump + 2 * k] = size & 0xff;
        out[jump + 2 * k + 1] = size >>> 8;
      }
      start = end;
    }
  }
  const compressed = p - bodyStart;
  let headerSize: number;
  let sizeFormat: number;
  const largest = Math.max(n, compressed);
  if (single) {
    if (largest > 1023) return writeRawLiterals(lits, n, out, pos);
    headerSize = 3;
    sizeFormat = 0;
  } else if (largest <= 1023) {
    headerSize = 3;
    sizeFormat = 1;
  } else if (largest <= 16383) {
    headerSize = 4;
    sizeFormat = 2;
  } else {
    headerSize = 5;
    sizeFormat = 3;
  }
  if (headerSize + compressed >= rawSize) return writeRawLiterals(lits, n, out, pos);
  // Literals_Block_Type 2 (compressed, with tree), Size_Format, then Regenerated_Size and
  // Compressed_Size back to back. Plain arithmetic: 5-byte headers exceed 32-bit integers.
  const sizeBits = headerSize === 3 ? 10 : headerSize === 4 ? 14 : 18;
  const value = 2 + sizeFormat * 4 + n * 16 + compressed * 2 ** (4 + sizeBits);
  let v = value;
  for (let k = 0; k < headerSize; k++) {
    out[pos + k] = v % 256;
    v = Math.floor(v / 256);
  }
  out.copyWithin(pos + headerSize, bodyStart, p);
  return pos + headerSize + compressed;
}
