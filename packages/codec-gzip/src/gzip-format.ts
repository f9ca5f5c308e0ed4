/**
 * The gzip container (RFC 1952) around deflate data: member headers and trailers. The
 * browser backend uses these to validate what fflate decodes, since fflate neither
 * checks header flags nor verifies a trailer's CRC-32 and length.
 */
import { crc32 } from "./crc32.js";

const FTEXT_FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const RESERVED_FLAGS = 0xe0;
/** The shortest deflate stream (an empty fixed-Huffman block) is 2 bytes. */
const MIN_DEFLATE_LENGTH = 2;
/** CRC-32 and ISIZE, both little-endian uint32. */
export const TRAILER_LENGTH = 8;

/** Reads a little-endian uint32. */
export function readUint32LE(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;
}

/**
 * Validates the header of the member starting at `start` (which must end before `limit`,
 * leaving room for deflate data and a trailer) and returns the header's length.
 */
export function parseMemberHeader(bytes: Uint8Array, start: number, limit: number): number {
  if (limit - start < 10) throw new Error(`truncated gzip header at byte ${start}`);
  if (bytes[start] !== 0x1f || bytes[start + 1] !== 0x8b) {
    throw new Error(`not gzip data: no gzip magic bytes at byte ${start}`);
  }
  if (bytes[start + 2] !== 8) throw new Error(`unsupported gzip compression method ${bytes[start + 2]}`);
  const flags = bytes[start + 3];
  if (flags & RESERVED_FLAGS) throw new Error(`reserved gzip header flags set (0x${flags.toString(16)})`);
  let p = start + 10;
  if (flags & FEXTRA) {
    if (p + 2 > limit) throw new Error("truncated gzip header (extra field)");
    p += 2 + (bytes[p] | (bytes[p + 1] << 8));
  }
  if (flags & FNAME) p = skipZeroTerminated(bytes, p, limit, "file name");
  if (flags & FCOMMENT) p = skipZeroTerminated(bytes, p, limit, "comment");
  if (flags & FTEXT_FHCRC) {
    if (p + 2 > limit) throw new Error("truncated gzip header (header CRC)");
    const stored = bytes[p] | (bytes[p + 1] << 8);
    if ((crc32(bytes.subarray(start, p)) & 0xffff) !== stored) throw new Error("gzip header CRC mismatch");
    p += 2;
  }
  if (p + MIN_DEFLATE_LENGTH + TRAILER_LENGTH > limit) throw new Error(`truncated gzip member at byte ${start}`);
  return p - start;
}

function skipZeroTerminated(bytes: Uint8Array, p: number, limit: number, what: string): number {
  const zero = bytes.subarray(0, limit).indexOf(0, p);
  if (zero < 0) throw new Error(`truncated gzip header (${what})`);
  return zero + 1;
}

/**
 * Checks every member's trailer against the decoded output. `starts` holds the offset of
 * each member (as fflate reported them). The last member may be followed by zero padding
 * starting somewhere at or after `zeroStart` (the start of the input's trailing run of
 * zero bytes, or its length), so its trailer is searched for among the few positions
 * where it can end.
 */
export function verifyMembers(bytes: Uint8Array, starts: readonly number[], zeroStart: number, output: Uint8Array): void {
  const n = bytes.length;
  let outPos = 0;
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k];
    const last = k === starts.length - 1;
    const limit = last ? n : starts[k + 1];
    const minEnd = start + parseMemberHeader(bytes, start, limit) + MIN_DEFLATE_LENGTH + TRAILER_LENGTH;
    if (!last) {
      const size = readUint32LE(bytes, limit - 4);
      if (size > output.length - outPos) throw new Error(`gzip member ${k + 1}: length check failed`);
      const crc = crc32(output.subarray(outPos, outPos + size));
      if (crc !== readUint32LE(bytes, limit - TRAILER_LENGTH)) throw new Error(`gzip member ${k + 1}: CRC-32 check failed`);
      outPos += size;
      continue;
    }
    // The last member owns the rest of the output. Its trailer ends at `n` unless zero
    // padding follows; then it ends in [zeroStart, zeroStart + 9]: the padding can swallow
    // at most the trailer (8 bytes, all zero only for an empty member) and the final zero
    // byte of an empty deflate block.
    const size = (output.length - outPos) >>> 0;
    const crc = crc32(output.subarray(outPos));
    const matches = (end: number) =>
      readUint32LE(bytes, end - 4) === size && readUint32LE(bytes, end - TRAILER_LENGTH) === crc;
    if (matches(n)) return;
    for (let end = Math.min(n - 1, zeroStart + 9); end >= Math.max(zeroStart, minEnd); end--) {
      if (matches(end)) return;
    }
    throw new Error("gzip trailer check failed (CRC-32 or length mismatch, or unexpected bytes after the last member)");
  }
}
