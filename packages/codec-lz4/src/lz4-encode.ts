/**
 * LZ4 block format encoder, fast variant: one hash table of 4-byte sequences, greedy
 * matching, and LZ4's acceleration (the search step grows with every miss, starting at
 * `acceleration`). Output respects the block format's end conditions: the last 5
 * bytes are literals and the last match starts at least 12 bytes before the end.
 */
import { ZarrError } from "@zarr/spec";
import { matchEnd } from "./lz4-match.js";
import { writeLastLiterals, writeSequence } from "./lz4-write.js";

/** Bytes at the end of a block that are always literals. */
export const LAST_LITERALS = 5;
/** A match must start at least this many bytes before the end of the block. */
export const MF_LIMIT = 12;
/** Largest offset the format can express. */
export const MAX_OFFSET = 65535;
/** LZ4's upper bound on acceleration. */
const MAX_ACCELERATION = 65537;

/** The acceleration the encoders use for a requested one: an integer from 1 to 65537. */
export function clampAcceleration(acceleration: number): number {
  return Math.min(Math.max(Math.trunc(acceleration) || 1, 1), MAX_ACCELERATION);
}

const HASH_LOG = 12;
// Reused between calls: JavaScript runs one call at a time per thread.
const hashTable = new Int32Array(1 << HASH_LOG);

/** Worst-case size of the LZ4 block for `inputSize` bytes (LZ4_compressBound). */
export function lz4CompressBound(inputSize: number): number {
  return inputSize + Math.floor(inputSize / 255) + 16;
}


/**
 * Compresses `input` as one LZ4 block into `output[outputStart, outputEnd)`. Returns the
 * number of bytes written, or 0 when the block does not fit (like
 * `LZ4_compress_fast` with a limited output).
 *
 * @example
 * ```ts
 * const out = new Uint8Array(lz4CompressBound(data.length));
 * const n = lz4CompressBlockInto(data, out, 0, out.length, 1);
 * ```
 */
export function lz4CompressBlockInto(
  input: Uint8Array,
  output: Uint8Array,
  outputStart = 0,
  outputEnd: number = output.length,
  acceleration = 1,
): number {
  if (outputStart < 0 || outputEnd > output.length || outputStart > outputEnd) {
    throw new ZarrError("INVALID_ARGUMENT", `LZ4 output range [${outputStart}, ${outputEnd}) is outside the buffer`);
  }
  const accel = clampAcceleration(acceleration);
  const n = input.length;
  let op = outputStart;
  let anchor = 0;
  if (n > MF_LIMIT) {
    // Words are read through a DataView: one unaligned load each, where four byte loads
    // and shifts cost about twice as much.
    const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
    const table = hashTable;
    table.fill(0);
    const shift = 32 - HASH_LOG;
    const lastMatchStart = n - MF_LIMIT;
    const matchLimit = n - LAST_LITERALS;
    let ip = 1;
    table[Math.imul(view.getInt32(0, true), -1640531535) >>> shift] = 0;
    search: for (;;) {
      // Find a 4-byte match, stepping faster through data that does not compress.
      let searches = accel << 6;
      let ref = 0;
      for (;;) {
        if (ip > lastMatchStart) break search;
        const seq = view.getInt32(ip, true);
        const h = Math.imul(seq, -1640531535) >>> shift;
        ref = table[h];
        table[h] = ip;
        if (ip - ref <= MAX_OFFSET && ref < ip && view.getInt32(ref, true) === seq) break;
        ip += searches++ >> 6;
      }
      // Extend backwards over literals, then forwards.
      while (ip > anchor && ref > 0 && input[ip - 1] === input[ref - 1]) {
        ip--;
        ref--;
      }
      const end = matchEnd(input, view, ip + 4, ref + 4, matchLimit);
      op = writeSequence(input, anchor, ip - anchor, ip - ref, end - ip, output, op, outputEnd);
      if (op < 0) return 0;
      ip = end;
      anchor = end;
      if (ip > lastMatchStart) break;
      // Remember a position inside the match, as LZ4 does, for the next search.
      table[Math.imul(view.getInt32(ip - 2, true), -1640531535) >>> shift] = ip - 2;
    }
  }
  op = writeLastLiterals(input, anchor, n - anchor, output, op, outputEnd);
  if (op < 0) return 0;
  return op - outputStart;
}

/**
 * Compresses `input` as one LZ4 block (the LZ4 "fast" algorithm; higher
 * `acceleration` is faster and compresses less; default 1).
 *
 * @example
 * ```ts
 * const block = lz4CompressBlock(new TextEncoder().encode("hello hello hello hello"));
 * ```
 */
export function lz4CompressBlock(input: Uint8Array, acceleration = 1): Uint8Array {
  const out = new Uint8Array(lz4CompressBound(input.length));
  const n = lz4CompressBlockInto(input, out, 0, out.length, acceleration);
  return out.slice(0, n);
}
