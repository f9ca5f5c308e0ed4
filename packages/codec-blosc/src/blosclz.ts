/**
 * BloscLZ, the FastLZ-derived default compressor of c-blosc 1.x (stream format version
 * 1). A stream is a list of tokens; the top 3 bits of a token byte are the match length
 * code (0 = literal run):
 *
 * - literal run: `000LLLLL`, then L+1 (1–32) literal bytes. The very first token is
 *   always a literal run and carries a format marker in its top bits (masked off).
 * - match: `lllDDDDD` with l = 1–6 meaning length l+2 (3–8); l = 7 adds the following
 *   bytes (255 means "add 255 and continue") for length 9+. Then the low byte of the
 *   biased distance d = distance − 1: near matches have d = DDDDD·256 + low < 8191.
 *   DDDDD = 31 with low byte 255 marks a far match: two more bytes (big-endian) hold
 *   d − 8191.
 *
 * The decoder checks every read and write; the encoder is our own (greedy hash
 * matching) and writes streams any BloscLZ decoder reads.
 */
import { ZarrError } from "@zarr/spec";

/** Largest biased distance of a near match (+1). */
const MAX_DISTANCE = 8191;
/** Matches must be closer than this (c-blosc's MAX_FARDISTANCE). */
const MAX_FAR_DISTANCE = 65535 + MAX_DISTANCE - 1;
const HASH_LOG = 14;
// Reused between calls: JavaScript runs one call at a time per thread.
const hashTable = new Int32Array(1 << HASH_LOG);

function corrupt(problem: string): never {
  throw new ZarrError("CODEC_FAILED", `Corrupt BloscLZ stream: ${problem}`);
}

/**
 * Decodes one BloscLZ stream into `output[outputStart, outputEnd)`; returns the number
 * of bytes written. Throws `CODEC_FAILED` on corrupt input.
 *
 * @example
 * ```ts
 * const n = blosclzDecompressInto(stream, out, 0, out.length);
 * ```
 */
export function blosclzDecompressInto(
  input: Uint8Array,
  output: Uint8Array,
  outputStart: number,
  outputEnd: number,
): number {
  const inEnd = input.length;
  if (inEnd === 0) corrupt("empty stream");
  let ip = 1;
  let op = outputStart;
  let ctrl = input[0] & 31;
  for (;;) {
    if (ctrl >= 32) {
      let length = (ctrl >>> 5) - 1;
      let ofs = (ctrl & 31) << 8;
      if (length === 6) {
        let code: number;
        do {
          if (ip >= inEnd) corrupt("match length runs past the end");
          code = input[ip++];
          length += code;
        } while (code === 255);
      }
      if (ip >= inEnd) corrupt("truncated match distance");
      const low = input[ip++];
      length += 3;
      let ref: number;
      if (low === 255 && ofs === 31 << 8) {
        if (ip + 2 > inEnd) corrupt("truncated far match distance");
        ofs = (input[ip] << 8) | input[ip + 1];
        ip += 2;
        ref = op - ofs - MAX_DISTANCE - 1;
      } else {
        ref = op - ofs - low - 1;
      }
      if (ref < outputStart) corrupt("match distance points before the start of the output");
      if (op + length > outputEnd) corrupt("output is larger than expected");
      if (op - ref >= length && length >= 32) {
        output.copyWithin(op, ref, ref + length);
        op += length;
      } else {
        const end = op + length;
        while (op < end) output[op++] = output[ref++];
      }
    } else {
      const count = ctrl + 1;
      if (ip + count > inEnd) corrupt("literals run past the end");
      if (op + count > outputEnd) corrupt("output is larger than expected");
      const end = ip + count;
      while (ip < end) output[op++] = input[ip++];
    }
    if (ip >= inEnd) break;
    ctrl = input[ip++];
  }
  return op - outputStart;
}

function read32(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

/** Writes `count` literals as runs of at most 32; returns the new position or −1. */
function writeLiterals(input: Uint8Array, from: number, count: number, output: Uint8Array, op: number, end: number): number {
  if (op + count + ((count + 31) >>> 5) > end) return -1;
  while (count > 0) {
    const run = Math.min(count, 32);
    output[op++] = run - 1;
    for (let i = 0; i < run; i++) output[op++] = input[from + i];
    from += run;
    count -= run;
  }
  return op;
}

/** Writes a match token; returns the new position or −1. */
function writeMatch(distance: number, length: number, output: Uint8Array, op: number, end: number): number {
  const d = distance - 1;
  let l = length - 2;
  if (op + 5 + ((l / 255) | 0) > end) return -1;
  if (d < MAX_DISTANCE) {
    if (l < 7) {
      output[op++] = (l << 5) + (d >>> 8);
    } else {
      output[op++] = (7 << 5) + (d >>> 8);
      for (l -= 7; l >= 255; l -= 255) output[op++] = 255;
      output[op++] = l;
    }
    output[op++] = d & 255;
  } else {
    const far = d - MAX_DISTANCE;
    if (l < 7) {
      output[op++] = (l << 5) + 31;
    } else {
      output[op++] = (7 << 5) + 31;
      for (l -= 7; l >= 255; l -= 255) output[op++] = 255;
      output[op++] = l;
    }
    output[op++] = 255;
    output[op++] = far >>> 8;
    output[op++] = far & 255;
  }
  return op;
}

/**
 * Compresses `input[inputStart, inputStart + length)` as one BloscLZ stream into
 * `output[outputStart, outputEnd)`. Returns the bytes written, or 0 when the stream
 * does not fit (the caller then stores the data raw, as c-blosc does).
 *
 * @example
 * ```ts
 * const n = blosclzCompressInto(block, 0, block.length, out, 0, block.length - 1);
 * ```
 */
export function blosclzCompressInto(
  input: Uint8Array,
  inputStart: number,
  length: number,
  output: Uint8Array,
  outputStart: number,
  outputEnd: number,
): number {
  if (length === 0) return 0;
  const table = hashTable;
  table.fill(-1);
  const shift = 32 - HASH_LOG;
  const inEnd = inputStart + length;
  // Searching stops 12 bytes before the end, and matches end 4 bytes before it, so the
  // stream always ends with literals.
  const lastSearch = inEnd - 12;
  const matchLimit = inEnd - 4;
  let op = outputStart;
  let anchor = inputStart;
  let ip = inputStart + 1;
  while (ip < lastSearch) {
    const seq = read32(input, ip);
    const h = Math.imul(seq, -1640531535) >>> shift;
    let ref = table[h];
    table[h] = ip;
    const distance = ip - ref;
    if (ref < inputStart || distance >= MAX_FAR_DISTANCE || read32(input, ref) !== seq) {
      ip++;
      continue;
    }
    let end = ip + 4;
    let r = ref + 4;
    while (end < matchLimit && input[end] === input[r]) {
      end++;
      r++;
    }
    // Far matches cost 4 bytes; they must be worth it.
    if (distance - 1 >= MAX_DISTANCE && end - ip < 5) {
      ip++;
      continue;
    }
    let start = ip;
    while (start > anchor && ref > inputStart && input[start - 1] === input[ref - 1]) {
      start--;
      ref--;
    }
    if (start === inputStart) {
      // The stream must open with a literal run.
      start++;
      ref++;
    }
    op = writeLiterals(input, anchor, start - anchor, output, op, outputEnd);
    if (op < 0) return 0;
    op = writeMatch(distance, end - start, output, op, outputEnd);
    if (op < 0) return 0;
    ip = end;
    anchor = end;
    if (ip < lastSearch) table[Math.imul(read32(input, ip - 1), -1640531535) >>> shift] = ip - 1;
  }
  op = writeLiterals(input, anchor, inEnd - anchor, output, op, outputEnd);
  if (op < 0) return 0;
  // The format marker in the top bits of the first byte (decoders mask it off).
  output[outputStart] |= 1 << 5;
  return op - outputStart;
}
