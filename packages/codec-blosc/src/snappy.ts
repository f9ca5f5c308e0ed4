/**
 * The Snappy raw format (what c-blosc's snappy compressor stores): a varint with the
 * uncompressed length, then elements whose tag byte's low 2 bits say the kind:
 * 00 literal (length−1 in the upper 6 bits, or in the 1–4 bytes after when those say
 * 60–63), 01 copy with length 4–11 and an 11-bit offset, 10 copy with length 1–64 and a
 * 16-bit offset, 11 copy with length 1–64 and a 32-bit offset.
 */
import { ZarrError } from "@zarr/spec";

function corrupt(problem: string): never {
  throw new ZarrError("CODEC_FAILED", `Corrupt Snappy stream: ${problem}`);
}

/**
 * Decodes one Snappy stream into `output[outputStart, outputEnd)`; returns the number of
 * bytes written (the length the stream declares). Throws `CODEC_FAILED` on corrupt input.
 *
 * @example
 * ```ts
 * const n = snappyDecompressInto(stream, out, 0, out.length);
 * ```
 */
export function snappyDecompressInto(
  input: Uint8Array,
  output: Uint8Array,
  outputStart: number,
  outputEnd: number,
): number {
  const inEnd = input.length;
  let ip = 0;
  let declared = 0;
  for (let shift = 0; ; shift += 7) {
    if (ip >= inEnd || shift > 28) corrupt("bad length preamble");
    const b = input[ip++];
    declared += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  if (declared > outputEnd - outputStart) corrupt(`declares ${declared} bytes, more than expected`);
  const end = outputStart + declared;
  let op = outputStart;
  while (ip < inEnd) {
    const tag = input[ip++];
    const kind = tag & 3;
    if (kind === 0) {
      let length = tag >>> 2;
      if (length >= 60) {
        const extra = length - 59;
        if (ip + extra > inEnd) corrupt("truncated literal length");
        length = 0;
        for (let k = 0; k < extra; k++) length += input[ip + k] * 2 ** (8 * k);
        ip += extra;
      }
      length += 1;
      if (ip + length > inEnd) corrupt("literals run past the end");
      if (op + length > end) corrupt("output is larger than declared");
      if (length < 32) {
        for (let k = 0; k < length; k++) output[op + k] = input[ip + k];
      } else {
        output.set(input.subarray(ip, ip + length), op);
      }
      op += length;
      ip += length;
      continue;
    }
    let length: number;
    let offset: number;
    if (kind === 1) {
      if (ip >= inEnd) corrupt("truncated copy");
      length = 4 + ((tag >>> 2) & 7);
      offset = ((tag >>> 5) << 8) | input[ip++];
    } else if (kind === 2) {
      if (ip + 2 > inEnd) corrupt("truncated copy");
      length = (tag >>> 2) + 1;
      offset = input[ip] | (input[ip + 1] << 8);
      ip += 2;
    } else {
      if (ip + 4 > inEnd) corrupt("truncated copy");
      length = (tag >>> 2) + 1;
      offset = (input[ip] | (input[ip + 1] << 8) | (input[ip + 2] << 16) | (input[ip + 3] << 24)) >>> 0;
      ip += 4;
    }
    if (offset === 0 || offset > op - outputStart) corrupt("copy offset out of range");
    if (op + length > end) corrupt("output is larger than declared");
    let ref = op - offset;
    const stop = op + length;
    while (op < stop) output[op++] = output[ref++];
  }
  if (op !== end) corrupt(`decoded ${op - outputStart} bytes, the stream declares ${declared}`);
  return declared;
}

/** Worst-case Snappy stream size for `n` input bytes (snappy's MaxCompressedLength). */
export function snappyMaxCompressedLength(n: number): number {
  return 32 + n + Math.floor(n / 6);
}

function read32(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

function writeLiteral(input: Uint8Array, from: number, count: number, output: Uint8Array, op: number, end: number): number {
  if (count === 0) return op;
  if (op + count + 5 > end) return -1;
  const n = count - 1;
  if (n < 60) {
    output[op++] = n << 2;
  } else if (n < 0x100) {
    output[op++] = 60 << 2;
    output[op++] = n;
  } else if (n < 0x10000) {
    output[op++] = 61 << 2;
    output[op++] = n & 0xff;
    output[op++] = n >>> 8;
  } else if (n < 0x1000000) {
    output[op++] = 62 << 2;
    output[op++] = n & 0xff;
    output[op++] = (n >>> 8) & 0xff;
    output[op++] = n >>> 16;
  } else {
    output[op++] = 63 << 2;
    output[op++] = n & 0xff;
    output[op++] = (n >>> 8) & 0xff;
    output[op++] = (n >>> 16) & 0xff;
    output[op++] = n >>> 24;
  }
  output.set(input.subarray(from, from + count), op);
  return op + count;
}

function writeCopy(offset: number, length: number, output: Uint8Array, op: number, end: number): number {
  // Pieces of 64 (keeping the last piece ≥ 4), each a 3-byte copy with a 2-byte offset,
  // or a 2-byte copy with an 11-bit offset when short and near enough.
  if (op + 3 * Math.ceil(length / 60) > end) return -1;
  while (length >= 68) {
    output[op++] = (63 << 2) | 2;
    output[op++] = offset & 0xff;
    output[op++] = offset >>> 8;
    length -= 64;
  }
  if (length > 64) {
    output[op++] = (59 << 2) | 2;
    output[op++] = offset & 0xff;
    output[op++] = offset >>> 8;
    length -= 60;
  }
  if (length < 12 && offset < 2048) {
    output[op++] = 1 | ((length - 4) << 2) | ((offset >>> 8) << 5);
    output[op++] = offset & 0xff;
  } else {
    output[op++] = 2 | ((length - 1) << 2);
    output[op++] = offset & 0xff;
    output[op++] = offset >>> 8;
  }
  return op;
}

const HASH_LOG = 14;
const hashTable = new Int32Array(1 << HASH_LOG);

/**
 * Compresses `input[inputStart, inputStart + length)` as one Snappy stream into
 * `output[outputStart, outputEnd)`. Returns the bytes written, or 0 when it does not fit.
 *
 * @example
 * ```ts
 * const n = snappyCompressInto(block, 0, block.length, out, 0, out.length);
 * ```
 */
export function snappyCompressInto(
  input: Uint8Array,
  inputStart: number,
  length: number,
  output: Uint8Array,
  outputStart: number,
  outputEnd: number,
): number {
  let op = outputStart;
  // Length preamble.
  let v = length;
  for (;;) {
    if (op >= outputEnd) return 0;
    if (v < 0x80) {
      output[op++] = v;
      break;
    }
    output[op++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  const table = hashTable;
  table.fill(-1);
  const shift = 32 - HASH_LOG;
  const inEnd = inputStart + length;
  const lastSearch = inEnd - 4;
  let anchor = inputStart;
  let ip = inputStart;
  while (ip < lastSearch) {
    const seq = read32(input, ip);
    const h = Math.imul(seq, 0x1e35a7bd) >>> shift;
    const ref = table[h];
    table[h] = ip;
    if (ref < inputStart || ip - ref > 65535 || read32(input, ref) !== seq) {
      ip++;
      continue;
    }
    let end = ip + 4;
    let r = ref + 4;
    while (end < inEnd && input[end] === input[r]) {
      end++;
      r++;
    }
    op = writeLiteral(input, anchor, ip - anchor, output, op, outputEnd);
    if (op < 0) return 0;
    op = writeCopy(ip - ref, end - ip, output, op, outputEnd);
    if (op < 0) return 0;
    ip = end;
    anchor = end;
  }
  op = writeLiteral(input, anchor, inEnd - anchor, output, op, outputEnd);
  if (op < 0) return 0;
  return op - outputStart;
}
