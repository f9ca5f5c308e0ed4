/**
 * The vlen frame shared by `vlen-utf8` and `vlen-bytes` (the numcodecs VLenUTF8 /
 * VLenBytes layout): a little-endian uint32 item count, then per item a little-endian
 * uint32 byte length followed by that many bytes.
 *
 * Reading validates every length against the input before anything is allocated, so
 * a corrupt header can never trigger a huge allocation.
 */
import { ZarrError } from "@zarr/spec";

/** Bytes of the item count, and of each item's length prefix. */
export const HEADER_BYTES = 4;

/** Where the items of a frame are: item `i` is `bytes[starts[i], starts[i] + lengths[i])`. */
export interface FrameIndex {
  starts: Uint32Array;
  lengths: Uint32Array;
  /** Sum of the item lengths. */
  payloadBytes: number;
}

/** A `CODEC_FAILED` error naming the codec and the chunk key. */
export function corrupt(codec: string, key: string, problem: string): ZarrError {
  return new ZarrError("CODEC_FAILED", `Cannot decode chunk "${key}" with ${codec}: ${problem}`, { key });
}

/** Reads a little-endian uint32 at `pos` (the caller checked the bounds). */
export function readU32(bytes: Uint8Array, pos: number): number {
  return (bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 24)) >>> 0;
}

/** Writes a little-endian uint32 at `pos`. */
export function writeU32(bytes: Uint8Array, pos: number, value: number): void {
  bytes[pos] = value;
  bytes[pos + 1] = value >>> 8;
  bytes[pos + 2] = value >>> 16;
  bytes[pos + 3] = value >>> 24;
}

/**
 * Validates a frame that must hold exactly `expected` items and indexes its items.
 * Throws `CODEC_FAILED` (naming `key`) on a missing or truncated header, a wrong item
 * count, an item running past the end, or bytes left over after the last item.
 */
export function indexFrame(bytes: Uint8Array, expected: number, codec: string, key: string): FrameIndex {
  const end = bytes.length;
  if (end < HEADER_BYTES) throw corrupt(codec, key, `${end} bytes is too short for the item count header`);
  const count = readU32(bytes, 0);
  if (count !== expected) throw corrupt(codec, key, `the chunk holds ${count} items, expected ${expected}`);
  if (HEADER_BYTES + count * HEADER_BYTES > end) {
    throw corrupt(codec, key, `${end} bytes cannot hold ${count} items (truncated data)`);
  }
  const starts = new Uint32Array(count);
  const lengths = new Uint32Array(count);
  let pos = HEADER_BYTES;
  for (let i = 0; i < count; i++) {
    if (pos + HEADER_BYTES > end) throw corrupt(codec, key, `truncated data: the length of item ${i} is missing`);
    const len = readU32(bytes, pos);
    pos += HEADER_BYTES;
    if (len > end - pos) {
      throw corrupt(codec, key, `truncated data: item ${i} needs ${len} bytes, ${end - pos} are left`);
    }
    starts[i] = pos;
    lengths[i] = len;
    pos += len;
  }
  if (pos !== end) throw corrupt(codec, key, `${end - pos} unexpected bytes after the last item`);
  return { starts, lengths, payloadBytes: end - HEADER_BYTES * (count + 1) };
}
