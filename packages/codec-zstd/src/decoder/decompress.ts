/**
 * zstd decompression: fzstd decodes the blocks; this module makes that safe for
 * untrusted chunks. fzstd trusts headers (it allocates whatever Frame_Content_Size or
 * Window_Size says), skips Content_Checksum without verifying it, ignores dictionary
 * IDs, and mishandles several frames decoded into one caller buffer. So the frames are
 * scanned first (structure, sizes, truncation), each frame is handed to fzstd alone, and
 * the XXH64 checksum is verified here. One gap remains: for a frame that declares its
 * content size, fzstd cannot report a corrupt block that decodes to fewer or more bytes
 * than declared (the output keeps the declared size); the checksum, when present,
 * catches that.
 */
import { ZarrError } from "@zarr/spec";
import { decompress as fzstdDecompress } from "fzstd";
import { zstdChecksum } from "../xxh64.js";
import { type FrameInfo, scanFrames } from "./frame-scan.js";

/** Largest decoded output accepted (2 GiB), whatever a header claims. */
export const MAX_DECODED_SIZE = 2 ** 31;

/**
 * Decodes every frame of `input`. `key` names the chunk in error messages;
 * `expectedSize`, when given, must equal the decoded size.
 */
export function decodeFrames(input: Uint8Array, expectedSize: number | undefined, key: string | undefined): Uint8Array {
  const where = key === undefined ? "the input" : `chunk "${key}"`;
  const fail = (problem: string, cause?: unknown): never => {
    throw new ZarrError("CODEC_FAILED", `zstd: cannot decode ${where}: ${problem}`, { key, cause });
  };
  if (expectedSize !== undefined && (!Number.isSafeInteger(expectedSize) || expectedSize < 0)) {
    throw new ZarrError("INVALID_ARGUMENT", `zstd: expectedSize must be a non-negative integer, got ${expectedSize}`, {
      key,
    });
  }
  const frames = scanFrames(input, where, key);

  let knownTotal = 0;
  let allKnown = true;
  for (const f of frames) {
    if (f.contentSize < 0) allKnown = false;
    else knownTotal += f.contentSize;
  }
  // Declared sizes are checked against the limits before anything is allocated.
  if (knownTotal > MAX_DECODED_SIZE) fail(`the frames declare ${knownTotal} bytes, over the ${MAX_DECODED_SIZE}-byte limit`);
  if (expectedSize !== undefined && (allKnown ? knownTotal !== expectedSize : knownTotal > expectedSize)) {
    fail(`the frames declare ${knownTotal} bytes of content, expected ${expectedSize}`);
  }

  const parts: Uint8Array[] = [];
  let total = 0;
  for (const f of frames) {
    const part = f.contentSize >= 0 ? decodeKnownSize(input, f, fail) : decodeUnknownSize(input, f, fail);
    verifyChecksum(f, part, where, key);
    total += part.length;
    if (total > MAX_DECODED_SIZE) fail(`the decoded data exceeds the ${MAX_DECODED_SIZE}-byte limit`);
    if (expectedSize !== undefined && total > expectedSize) {
      fail(`the data decodes to more than the expected ${expectedSize} bytes`);
    }
    parts.push(part);
  }
  if (expectedSize !== undefined && total !== expectedSize) {
    fail(`the data decodes to ${total} bytes, expected ${expectedSize}`);
  }
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Decodes a frame with a declared content size (already checked against what its
 * blocks can hold). fzstd allocates exactly that size and decodes into it.
 */
function decodeKnownSize(input: Uint8Array, f: FrameInfo, fail: (problem: string, cause?: unknown) => never): Uint8Array {
  // An empty frame has nothing to decode (and fzstd would allocate the window instead).
  if (f.contentSize === 0) return new Uint8Array(0);
  let result: Uint8Array;
  try {
    // No output buffer is passed on purpose: fzstd compares it with `== 1`, which turns
    // a typed array into a string of all its elements (slow for megabytes).
    result = fzstdDecompress(input.subarray(f.start, f.end));
  } catch (error) {
    return fail(`corrupt frame at offset ${f.start} (${(error as Error).message})`, error);
  }
  if (result.length !== f.contentSize) {
    fail(`the frame at offset ${f.start} decoded to ${result.length} bytes, its header says ${f.contentSize}`);
  }
  return result;
}

/**
 * Decodes a frame without Frame_Content_Size (streaming output). fzstd allocates the
 * declared window up front, so a window larger than the frame's blocks can produce is
 * lowered first (in a copy): no offset can reach further back than the data decoded.
 */
function decodeUnknownSize(input: Uint8Array, f: FrameInfo, fail: (problem: string, cause?: unknown) => never): Uint8Array {
  let frame = input.subarray(f.start, f.end);
  const needed = Math.max(f.maxDecodedSize, 1024);
  if (f.windowSize > needed && f.windowDescriptorOffset >= 0) {
    const windowLog = Math.max(10, Math.ceil(Math.log2(needed)));
    frame = frame.slice();
    frame[f.windowDescriptorOffset - f.start] = (windowLog - 10) << 3;
  }
  if (Math.min(f.windowSize, 2 ** Math.ceil(Math.log2(needed))) > MAX_DECODED_SIZE) {
    fail(`the frame at offset ${f.start} needs a window over the ${MAX_DECODED_SIZE}-byte limit`);
  }
  try {
    return fzstdDecompress(frame);
  } catch (error) {
    return fail(`corrupt frame at offset ${f.start} (${(error as Error).message})`, error);
  }
}

function verifyChecksum(f: FrameInfo, data: Uint8Array, where: string, key: string | undefined): void {
  if (f.checksum < 0) return;
  const actual = zstdChecksum(data);
  if (actual !== f.checksum) {
    throw new ZarrError(
      "CHECKSUM_MISMATCH",
      `zstd: checksum mismatch in ${where}: the frame at offset ${f.start} stores ${hex(f.checksum)}, the decoded data hashes to ${hex(actual)}`,
      { key },
    );
  }
}

function hex(v: number): string {
  return `0x${v.toString(16).padStart(8, "0")}`;
}

/**
 * Decompresses zstd data: one or more frames (skippable frames are skipped), with or
 * without Frame_Content_Size, verifying content checksums. Synchronous, pure TypeScript
 * (block decoding by fzstd).
 *
 * @param input The compressed bytes.
 * @param expectedSize When given, the decoded size must be exactly this.
 * @returns The decoded bytes.
 * @throws ZarrError CODEC_FAILED for corrupt, truncated or oversized input,
 *   CHECKSUM_MISMATCH when a frame's XXH64 checksum does not match, UNSUPPORTED for
 *   frames that need a dictionary.
 *
 * @example
 * ```ts
 * const bytes = zstdDecompress(zstdCompress(new Uint8Array([1, 2, 3])));
 * ```
 */
export function zstdDecompress(input: Uint8Array, expectedSize?: number): Uint8Array {
  return decodeFrames(input, expectedSize, undefined);
}
