/**
 * LZ4 block format decoder (lz4/doc/lz4_Block_format.md).
 *
 * A block is a list of sequences: a token (high nibble literal length, low nibble
 * match length − 4, 15 meaning "more length bytes follow"), the literals, a 2-byte
 * little-endian offset and the optional match length bytes. The last sequence has
 * literals only. Every read and write is checked against the buffers, so corrupt input
 * throws instead of reading or writing out of bounds, and every loop advances through
 * the input, so it always terminates.
 */
import { ZarrError } from "@zarr/spec";
import { corruptLz4, LZ4_ERR, LZ4_PROBLEMS } from "./lz4-problems.js";

/** Literal runs at least this long are copied with `set` (cheaper than 8-byte steps). */
const LONG_LITERALS = 64;
/** Matches at least this long are copied with `copyWithin`. */
const LONG_MATCH = 32;
/** Bytes moved per step by the short-copy loops. */
const WILD = 8;

function corrupt(problem: string): never {
  throw corruptLz4(problem);
}

/** Throws the error of one of the problems both decoders detect. */
function fail(code: number): never {
  throw corruptLz4(LZ4_PROBLEMS[code]);
}

/**
 * Decodes the LZ4 block `input` into `output[outputStart, outputEnd)` and returns the
 * number of bytes written. Throws `CODEC_FAILED` when the block is corrupt or would
 * decode to more than `outputEnd − outputStart` bytes. Matches may only refer to bytes
 * written by this call (an independent block). Nothing outside
 * `[outputStart, outputEnd)` is touched, but bytes after the decoded data (up to 7) may
 * be overwritten when the block decodes to less than the window.
 *
 * @example
 * ```ts
 * const out = new Uint8Array(1024);
 * const written = lz4DecompressBlockInto(block, out, 0, out.length);
 * ```
 */
export function lz4DecompressBlockInto(
  input: Uint8Array,
  output: Uint8Array,
  outputStart = 0,
  outputEnd: number = output.length,
): number {
  if (outputStart < 0 || outputEnd > output.length || outputStart > outputEnd) {
    throw new ZarrError("INVALID_ARGUMENT", `LZ4 output range [${outputStart}, ${outputEnd}) is outside the buffer`);
  }
  const inEnd = input.length;
  if (inEnd === 0) fail(LZ4_ERR.empty);
  // DataViews move 8 bytes per step with two unaligned 32-bit loads and stores. Such a
  // "wild" copy may run up to 7 bytes past the end of the run, so it is only used where
  // those bytes are still inside the input and inside [outputStart, outputEnd); the
  // overrun is overwritten by the next sequence.
  const iv = new DataView(input.buffer, input.byteOffset, inEnd);
  const ov = new DataView(output.buffer, output.byteOffset, output.byteLength);
  const wildOutEnd = outputEnd - WILD;
  const wildInEnd = inEnd - WILD;
  let ip = 0;
  let op = outputStart;
  for (;;) {
    const token = input[ip++];

    // Literals.
    let literals = token >>> 4;
    if (literals !== 0) {
      if (literals === 15) {
        let b: number;
        do {
          if (ip >= inEnd) fail(LZ4_ERR.literalLength);
          b = input[ip++];
          literals += b;
        } while (b === 255);
      }
      const literalEnd = ip + literals;
      if (literalEnd > inEnd) fail(LZ4_ERR.literals);
      const literalOutEnd = op + literals;
      if (literalOutEnd > outputEnd) fail(LZ4_ERR.output);
      if (literals >= LONG_LITERALS) {
        output.set(input.subarray(ip, literalEnd), op);
      } else if (literalEnd <= wildInEnd && literalOutEnd <= wildOutEnd) {
        let i = ip;
        let o = op;
        do {
          ov.setInt32(o, iv.getInt32(i, true), true);
          ov.setInt32(o + 4, iv.getInt32(i + 4, true), true);
          i += 8;
          o += 8;
        } while (i < literalEnd);
      } else {
        for (let i = ip, o = op; i < literalEnd; i++, o++) output[o] = input[i];
      }
      ip = literalEnd;
      op = literalOutEnd;
    }
    if (ip === inEnd) break; // the last sequence has no match

    // Match.
    if (ip + 2 > inEnd) fail(LZ4_ERR.offsetTruncated);
    const offset = input[ip] | (input[ip + 1] << 8);
    ip += 2;
    let length = (token & 15) + 4;
    if (length === 19) {
      let b: number;
      do {
        if (ip >= inEnd) fail(LZ4_ERR.matchLength);
        b = input[ip++];
        length += b;
      } while (b === 255);
    }
    let ref = op - offset;
    const end = op + length;
    if (offset === 0) fail(LZ4_ERR.offsetZero);
    if (ref < outputStart) fail(LZ4_ERR.offsetBefore);
    if (end > outputEnd) fail(LZ4_ERR.output);
    if (length < LONG_MATCH) {
      if (offset >= WILD && end <= wildOutEnd) {
        // 8 bytes per step never reads a byte this copy has yet to write: offset ≥ 8.
        do {
          ov.setInt32(op, ov.getInt32(ref, true), true);
          ov.setInt32(op + 4, ov.getInt32(ref + 4, true), true);
          op += 8;
          ref += 8;
        } while (op < end);
      } else {
        while (op < end) output[op++] = output[ref++];
      }
      op = end;
    } else if (offset >= length) {
      output.copyWithin(op, ref, end - offset);
      op = end;
    } else {
      // Overlapping: the bytes [ref, op) repeat with period `offset`. Copying from
      // `ref` never overlaps as long as a copy is no longer than `op − ref`, and that
      // distance doubles with every copy.
      while (op < end) {
        const n = Math.min(op - ref, end - op);
        output.copyWithin(op, ref, ref + n);
        op += n;
      }
    }
  }
  return op - outputStart;
}

/**
 * Decodes an LZ4 block that holds exactly `outputSize` bytes. Throws `CODEC_FAILED`
 * when the block is corrupt or decodes to a different size.
 *
 * @example
 * ```ts
 * const bytes = lz4DecompressBlock(lz4CompressBlock(data), data.length);
 * ```
 */
export function lz4DecompressBlock(input: Uint8Array, outputSize: number): Uint8Array {
  if (!Number.isSafeInteger(outputSize) || outputSize < 0) {
    throw new ZarrError("INVALID_ARGUMENT", `LZ4 output size must be a non-negative integer, got ${outputSize}`);
  }
  const output = new Uint8Array(outputSize);
  const written = lz4DecompressBlockInto(input, output, 0, outputSize);
  if (written !== outputSize) corrupt(`decoded ${written} bytes, expected ${outputSize}`);
  return output;
}
