/**
 * Walks the frames of a zstd stream without decoding them: frame headers, block
 * headers, skippable frames and checksums. This validates the structure (magic,
 * reserved bits, block types and sizes, truncation) and yields for every frame an upper
 * bound of its decoded size computed from the blocks present, so nothing is allocated
 * because a header merely claims a size.
 */
import { ZarrError } from "@zarr/spec";

const MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const MAX_BLOCK = 128 * 1024;

/** One zstd frame found in the input. */
export interface FrameInfo {
  /** Offset of the frame's magic number. */
  readonly start: number;
  /** Offset just past the frame (including its checksum). */
  readonly end: number;
  /** Frame_Content_Size, or -1 when the header does not give it. */
  readonly contentSize: number;
  /** Window_Size (from the descriptor, or the content size for single-segment frames). */
  readonly windowSize: number;
  /** The most the frame's blocks can decode to (raw and RLE sizes plus 128 KiB per compressed block). */
  readonly maxDecodedSize: number;
  /** What raw and RLE blocks alone decode to. */
  readonly minDecodedSize: number;
  /** The stored Content_Checksum, or -1 when the frame has none. */
  readonly checksum: number;
  /** Offset of the frame's first block header (just past the frame header). */
  readonly headerEnd: number;
  /** Block_Maximum_Size: min(Window_Size, 128 KiB), for stored and decoded block sizes alike. */
  readonly blockMaximumSize: number;
}

function u32(b: Uint8Array, i: number): number {
  return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
}

/**
 * Lists the zstd frames of `input` (skippable frames are skipped). Throws a
 * `ZarrError` CODEC_FAILED (or UNSUPPORTED for dictionary frames) that names `where` and `key`.
 */
export function scanFrames(input: Uint8Array, where: string, key?: string): FrameInfo[] {
  const frames: FrameInfo[] = [];
  const n = input.length;
  const fail = (problem: string): never => {
    throw new ZarrError("CODEC_FAILED", `zstd: cannot decode ${where}: ${problem}`, { key });
  };
  if (n === 0) fail("the input is empty (no zstd frame)");
  let pos = 0;
  while (pos < n) {
    if (n - pos < 4) fail(`truncated input: ${n - pos} stray byte(s) at offset ${pos}`);
    const magic = u32(input, pos);
    if (((magic & SKIPPABLE_MASK) >>> 0) === SKIPPABLE_MAGIC) {
      if (n - pos < 8) fail(`truncated skippable frame at offset ${pos}`);
      const size = u32(input, pos + 4);
      if (size > n - pos - 8) fail(`truncated skippable frame at offset ${pos}`);
      pos += 8 + size;
      continue;
    }
    if (magic !== MAGIC) {
      fail(
        pos === 0
          ? "not zstd data (bad magic number)"
          : `unexpected bytes at offset ${pos} (neither a zstd frame nor a skippable frame)`,
      );
    }
    frames.push(scanFrame(input, pos, fail, where, key));
    pos = frames[frames.length - 1].end;
  }
  return frames;
}

function scanFrame(
  input: Uint8Array,
  start: number,
  fail: (problem: string) => never,
  where: string,
  key: string | undefined,
): FrameInfo {
  const n = input.length;
  let pos = start + 4;
  if (pos >= n) fail(`truncated frame header at offset ${start}`);
  const descriptor = input[pos++];
  const fcsFlag = descriptor >> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  if ((descriptor & 0x08) !== 0) fail(`reserved bit set in the frame header at offset ${start}`);
  const hasChecksum = (descriptor & 0x04) !== 0;
  const dictIdSize = [0, 1, 2, 4][descriptor & 3];
  const fcsSize = fcsFlag === 0 ? (singleSegment ? 1 : 0) : [0, 2, 4, 8][fcsFlag];
  const headerEnd = pos + (singleSegment ? 0 : 1) + dictIdSize + fcsSize;
  if (headerEnd > n) fail(`truncated frame header at offset ${start}`);

  let windowSize = 0;
  if (!singleSegment) {
    const wd = input[pos++];
    const windowLog = 10 + (wd >> 3);
    const base = 2 ** windowLog;
    windowSize = base + (base / 8) * (wd & 7);
  }
  let dictId = 0;
  for (let k = 0; k < dictIdSize; k++) dictId += input[pos++] * 2 ** (8 * k);
  if (dictId !== 0) {
    throw new ZarrError(
      "UNSUPPORTED",
      `zstd: cannot decode ${where}: the frame needs dictionary ${dictId}, and zstd dictionaries are not supported`,
      { key },
    );
  }
  let contentSize = -1;
  if (fcsSize > 0) {
    contentSize = 0;
    for (let k = 0; k < fcsSize; k++) contentSize += input[pos++] * 2 ** (8 * k);
    if (fcsSize === 2) contentSize += 256;
  }
  if (singleSegment) windowSize = contentSize;
  const blockMax = Math.min(windowSize, MAX_BLOCK);
  const firstBlock = pos;

  // Walk the blocks.
  let maxDecoded = 0;
  let minDecoded = 0;
  for (;;) {
    if (n - pos < 3) fail(`truncated block header at offset ${pos}`);
    const header = input[pos] | (input[pos + 1] << 8) | (input[pos + 2] << 16);
    const last = (header & 1) === 1;
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    pos += 3;
    if (type === 3) fail(`reserved block type at offset ${pos - 3}`);
    if (size > blockMax) {
      fail(`block at offset ${pos - 3} is ${size} bytes, over the frame's block limit of ${blockMax}`);
    }
    const stored = type === 1 ? 1 : size;
    if (stored > n - pos) fail(`truncated block at offset ${pos - 3} (needs ${stored} bytes, ${n - pos} left)`);
    if (type === 2) {
      if (size === 0) fail(`empty compressed block at offset ${pos - 3}`);
      maxDecoded += blockMax;
    } else {
      maxDecoded += size;
      minDecoded += size;
    }
    pos += stored;
    if (last) break;
  }
  let checksum = -1;
  if (hasChecksum) {
    if (n - pos < 4) fail(`truncated content checksum at offset ${pos}`);
    checksum = u32(input, pos);
    pos += 4;
  }
  if (contentSize >= 0 && (contentSize > maxDecoded || contentSize < minDecoded)) {
    fail(
      `the frame at offset ${start} declares ${contentSize} bytes of content but its blocks hold ` +
        (contentSize > maxDecoded ? `at most ${maxDecoded}` : `at least ${minDecoded}`),
    );
  }
  return {
    start,
    end: pos,
    contentSize,
    windowSize,
    maxDecodedSize: contentSize >= 0 ? contentSize : maxDecoded,
    minDecodedSize: minDecoded,
    checksum,
    headerEnd: firstBlock,
    blockMaximumSize: blockMax,
  };
}
