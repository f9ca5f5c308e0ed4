/**
 * The zstd frame writer (RFC 8878 §3.1.1): magic number, frame header with
 * `Frame_Content_Size` (always written, so every zstd reader, including ones that
 * need the size up front, can decode the output), then blocks of at most 128 KiB —
 * RLE when the block is one repeated byte, compressed when that pays, raw otherwise —
 * and the optional XXH64 content checksum.
 */
import { ZarrError } from "@zarr/spec";
import { zstdChecksum } from "../xxh64.js";
import { DEFAULT_LEVEL, levelParams, MAX_LEVEL, MIN_LEVEL } from "./levels.js";
import { writeLiterals } from "./literals.js";
import { MatchFinder } from "./match-finder.js";
import { MAX_BLOCK_SIZE, SequenceStore } from "./sequence-store.js";
import { SequenceEncoder } from "./sequences.js";

const MAGIC = 0xfd2fb528;
const BLOCK_RAW = 0;
const BLOCK_RLE = 1;
const BLOCK_COMPRESSED = 2;

// Per-process scratch reused by every call (compression is synchronous, so no sharing issue).
let shared: { store: SequenceStore; encoder: SequenceEncoder; scratch: Uint8Array } | undefined;

function scratchState(): { store: SequenceStore; encoder: SequenceEncoder; scratch: Uint8Array } {
  if (shared === undefined) {
    // Worst case of a compressed attempt: raw literals plus up to ~11 bytes per sequence.
    const scratch = new Uint8Array(MAX_BLOCK_SIZE + 1024 + Math.ceil(MAX_BLOCK_SIZE / 3 + 1) * 11);
    shared = { store: new SequenceStore(), encoder: new SequenceEncoder(), scratch };
  }
  return shared;
}

/**
 * Compresses `input` into one zstd frame (RFC 8878), synchronously and in pure
 * TypeScript. Any zstd decoder reads the result (libzstd, numcodecs, zarr-python, fzstd).
 *
 * @param input The bytes to compress.
 * @param level −131072…22 like libzstd: negative = fastest, 0 = default (3), 22 = smallest output.
 * @param checksum Append the XXH64 content checksum (verified by decoders).
 * @returns The frame.
 * @throws ZarrError INVALID_ARGUMENT when `level` is not an integer in range.
 *
 * @example
 * ```ts
 * const frame = zstdCompress(new TextEncoder().encode("hello hello hello"), 3, true);
 * ```
 */
export function zstdCompress(input: Uint8Array, level: number = DEFAULT_LEVEL, checksum = false): Uint8Array {
  if (!Number.isInteger(level) || level < MIN_LEVEL || level > MAX_LEVEL) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `zstd level must be an integer from ${MIN_LEVEL} to ${MAX_LEVEL}, got ${String(level)}`,
    );
  }
  const params = levelParams(level);
  const n = input.length;
  const windowLimit = 2 ** params.windowLog;
  // A frame whose content fits the window is "single segment": no window descriptor,
  // and the decoder's window is the content itself.
  const singleSegment = n <= windowLimit;
  const windowSize = singleSegment ? Math.max(n, 1) : windowLimit;

  const nbBlocks = Math.max(1, Math.ceil(n / MAX_BLOCK_SIZE));
  const out = new Uint8Array(18 + nbBlocks * 3 + n + 4);
  let pos = writeFrameHeader(out, n, singleSegment, params.windowLog, checksum);

  if (n === 0) {
    // One empty raw block, marked last.
    writeBlockHeader(out, pos, true, BLOCK_RAW, 0);
    pos += 3;
  } else {
    const { store, encoder, scratch } = scratchState();
    const finder = new MatchFinder(input, params, windowSize);
    for (let start = 0; start < n; start += MAX_BLOCK_SIZE) {
      const end = Math.min(start + MAX_BLOCK_SIZE, n);
      const size = end - start;
      const last = end === n;
      if (isSingleByte(input, start, end)) {
        writeBlockHeader(out, pos, last, BLOCK_RLE, size);
        out[pos + 3] = input[start];
        pos += 4;
        continue;
      }
      // Raw and RLE blocks leave the decoder's repeat offsets alone: restore ours if
      // this block is not stored compressed.
      const rep0 = finder.rep0;
      const rep1 = finder.rep1;
      const rep2 = finder.rep2;
      store.reset();
      finder.findSequences(start, end, store);
      let compressedSize = writeLiterals(store.literals, store.nbLiterals, scratch, 0, params.huffmanLiterals);
      compressedSize = encoder.write(store, scratch, compressedSize);
      // Keep the compressed form only when it saves a little more than nothing
      // (raw blocks decode faster), as libzstd does.
      if (compressedSize < size - ((size >> 6) + 2)) {
        writeBlockHeader(out, pos, last, BLOCK_COMPRESSED, compressedSize);
        out.set(scratch.subarray(0, compressedSize), pos + 3);
        pos += 3 + compressedSize;
      } else {
        finder.rep0 = rep0;
        finder.rep1 = rep1;
        finder.rep2 = rep2;
        writeBlockHeader(out, pos, last, BLOCK_RAW, size);
        out.set(input.subarray(start, end), pos + 3);
        pos += 3 + size;
      }
    }
  }

  if (checksum) {
    const c = zstdChecksum(input);
    out[pos] = c & 0xff;
    out[pos + 1] = (c >>> 8) & 0xff;
    out[pos + 2] = (c >>> 16) & 0xff;
    out[pos + 3] = c >>> 24;
    pos += 4;
  }
  return out.slice(0, pos);
}

function isSingleByte(src: Uint8Array, start: number, end: number): boolean {
  const b = src[start];
  for (let i = start + 1; i < end; i++) if (src[i] !== b) return false;
  return true;
}

function writeBlockHeader(out: Uint8Array, pos: number, last: boolean, type: number, size: number): void {
  const v = (last ? 1 : 0) | (type << 1) | (size << 3);
  out[pos] = v & 0xff;
  out[pos + 1] = (v >>> 8) & 0xff;
  out[pos + 2] = (v >>> 16) & 0xff;
}

/** Magic number and frame header; returns the position after them. */
function writeFrameHeader(
  out: Uint8Array,
  n: number,
  singleSegment: boolean,
  windowLog: number,
  checksum: boolean,
): number {
  out[0] = MAGIC & 0xff;
  out[1] = (MAGIC >>> 8) & 0xff;
  out[2] = (MAGIC >>> 16) & 0xff;
  out[3] = MAGIC >>> 24;
  // Frame_Content_Size field: 1 byte (single segment only), 2 bytes (value − 256), 4 or 8.
  let fcsFlag: number;
  if (singleSegment && n < 256) fcsFlag = 0;
  else if (n >= 256 && n < 65536 + 256) fcsFlag = 1;
  else if (n < 2 ** 32) fcsFlag = 2;
  else fcsFlag = 3;
  out[4] = (fcsFlag << 6) | (singleSegment ? 1 << 5 : 0) | (checksum ? 1 << 2 : 0);
  let pos = 5;
  if (!singleSegment) out[pos++] = (windowLog - 10) << 3;
  switch (fcsFlag) {
    case 0:
      out[pos++] = n;
      break;
    case 1: {
      const v = n - 256;
      out[pos++] = v & 0xff;
      out[pos++] = v >>> 8;
      break;
    }
    case 2:
      out[pos++] = n & 0xff;
      out[pos++] = (n >>> 8) & 0xff;
      out[pos++] = (n >>> 16) & 0xff;
      out[pos++] = n >>> 24;
      break;
    default: {
      const lo = n % 2 ** 32;
      const hi = Math.floor(n / 2 ** 32);
      for (let k = 0; k < 4; k++) out[pos++] = (lo >>> (8 * k)) & 0xff;
      for (let k = 0; k < 4; k++) out[pos++] = (hi >>> (8 * k)) & 0xff;
    }
  }
  return pos;
}
