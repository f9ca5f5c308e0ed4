/** Constants and small helpers of the .xz container format. */
import { corrupt } from "../errors.js";

/** The first six bytes of every .xz stream. */
export const HEADER_MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];
/** The last two bytes of every .xz stream. */
export const FOOTER_MAGIC = [0x59, 0x5a];
/** Size of the stream header (and of the footer). */
export const STREAM_HEADER_SIZE = 12;

// Filter ids as stored in block headers (and numcodecs/Python's `lzma.FILTER_*`).
/** The delta filter (`lzma.FILTER_DELTA`), option `dist` 1..256. */
export const FILTER_DELTA = 0x03;
/** The x86 BCJ filter (`lzma.FILTER_X86`), option `start_offset`. */
export const FILTER_X86 = 0x04;
/** LZMA2 (`lzma.FILTER_LZMA2`), the compressor of .xz and of raw LZMA2. */
export const FILTER_LZMA2 = 0x21;
/** liblzma's id for raw LZMA1 (2^62 + 1): only meaningful for FORMAT_ALONE and FORMAT_RAW. */
export const FILTER_LZMA1 = 0x4000000000000001n;

/** True when `input[pos..]` starts with the .xz header magic. */
export function hasXzMagic(input: Uint8Array, pos = 0): boolean {
  if (input.length - pos < 6) return false;
  for (let i = 0; i < 6; i++) if (input[pos + i] !== HEADER_MAGIC[i]) return false;
  return true;
}

/** Little-endian uint32 at `pos`. */
export function readU32(input: Uint8Array, pos: number): number {
  return (input[pos] | (input[pos + 1] << 8) | (input[pos + 2] << 16) | (input[pos + 3] << 24)) >>> 0;
}

/** Writes a little-endian uint32 at `pos`. */
export function writeU32(out: Uint8Array, pos: number, value: number): void {
  out[pos] = value & 0xff;
  out[pos + 1] = (value >>> 8) & 0xff;
  out[pos + 2] = (value >>> 16) & 0xff;
  out[pos + 3] = (value >>> 24) & 0xff;
}

/**
 * Reads an .xz variable-length integer (7 bits per byte, little-endian, at most 9 bytes,
 * no redundant trailing zero byte) from `input[cursor.pos, limit)`, advancing the cursor.
 * Values above 2^53 cannot be sizes of anything held in memory and are rejected.
 */
export function readVli(input: Uint8Array, cursor: { pos: number }, limit: number, key: string, what: string): number {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 9; i++) {
    if (cursor.pos >= limit) throw corrupt(key, `truncated ${what}`);
    const b = input[cursor.pos++];
    value += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) {
      if (b === 0 && i > 0) throw corrupt(key, `invalid ${what} (non-minimal integer encoding)`);
      if (value > Number.MAX_SAFE_INTEGER) throw corrupt(key, `${what} is too large`);
      return value;
    }
    scale *= 128;
  }
  throw corrupt(key, `invalid ${what} (integer longer than 9 bytes)`);
}

/** Number of bytes `value` takes as a variable-length integer. */
export function vliSize(value: number): number {
  let n = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    n++;
  }
  return n;
}

/** Writes `value` as a variable-length integer at `pos`; returns the position after it. */
export function writeVli(out: Uint8Array, pos: number, value: number): number {
  while (value >= 128) {
    out[pos++] = (value % 128) | 0x80;
    value = Math.floor(value / 128);
  }
  out[pos++] = value;
  return pos;
}
