/**
 * TIFF LZW decompression (TIFF 6.0, section 13): codes of 9 to 12 bits packed MSB-first,
 * Clear (256) resets the table, EndOfInformation (257) ends the stream, and the code width
 * grows one code early (when the next free entry is 511, 1023 or 2047), as libtiff and
 * every TIFF writer since 1992 do. The old pre-6.0 LSB-first variant is refused.
 */
import { ZarrError } from "@zarr/spec";
import { CLEAR, EOI, FIRST, MAX_WIDTH, MIN_WIDTH, TABLE_SIZE } from "./format.js";

/** Options of {@link lzwDecompress}. */
export interface LzwDecompressOptions {
  /** Named in errors (the chunk key). */
  key?: string;
  /** Output larger than this fails before it is allocated (a decompression bomb). */
  maxOutputLength?: number;
}

function corrupt(key: string | undefined, problem: string): never {
  throw new ZarrError("CODEC_FAILED", `lzw: ${problem}${key === undefined ? "" : ` in chunk "${key}"`}`, key === undefined ? undefined : { key });
}

/**
 * Decompresses one TIFF LZW stream. It ends at EndOfInformation or, as libtiff allows,
 * where the input runs out between codes.
 *
 * @example
 * ```ts
 * const bytes = lzwDecompress(lzwCompress(new TextEncoder().encode("TOBEORNOTTOBE")));
 * ```
 */
export function lzwDecompress(input: Uint8Array, options: LzwDecompressOptions = {}): Uint8Array {
  const { key } = options;
  const limit = options.maxOutputLength ?? Number.POSITIVE_INFINITY;
  // Pre-6.0 writers put the codes LSB-first; their streams start with a zero byte and an odd one (libtiff's test).
  if (input.length >= 2 && input[0] === 0 && (input[1] & 1) === 1) corrupt(key, "the stream is old-style (LSB-first) LZW, which this codec does not read");
  // Each entry is an earlier entry (prefix) plus one byte; its string is rebuilt backwards.
  const prefix = new Uint16Array(TABLE_SIZE);
  const suffix = new Uint8Array(TABLE_SIZE);
  const first = new Uint8Array(TABLE_SIZE);
  const length = new Uint32Array(TABLE_SIZE);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  let out = new Uint8Array(Math.min(limit, Math.max(1024, input.length * 3)));
  let n = 0;
  let width = MIN_WIDTH;
  let next = FIRST;
  let previous = -1;
  let bitBuffer = 0;
  let bitCount = 0;
  let pos = 0;
  for (;;) {
    while (bitCount < width && pos < input.length) {
      bitBuffer = ((bitBuffer << 8) | input[pos++]) >>> 0;
      bitCount += 8;
    }
    if (bitCount < width) break; // out of input between codes: as libtiff, the stream ends
    const code = (bitBuffer >>> (bitCount - width)) & ((1 << width) - 1);
    bitCount -= width;
    bitBuffer &= (1 << bitCount) - 1;
    if (code === EOI) break;
    if (code === CLEAR) {
      width = MIN_WIDTH;
      next = FIRST;
      previous = -1;
      continue;
    }
    let entry: number;
    if (code < next) {
      entry = code;
    } else if (code === next && previous >= 0) {
      entry = -1; // KwKwK: the previous string plus its own first byte
    } else {
      corrupt(key, `code ${code} at byte ${pos} is not in the table (next free code ${next})`);
    }
    if (previous < 0 && entry < 0) corrupt(key, `code ${code} at byte ${pos} refers to no string`);
    const len = entry >= 0 ? length[entry] : length[previous] + 1;
    if (n + len > out.length) {
      if (n + len > limit) corrupt(key, `the output passes the limit of ${limit} bytes`);
      const grown = new Uint8Array(Math.min(limit, Math.max(n + len, out.length * 2)));
      grown.set(out.subarray(0, n));
      out = grown;
    }
    // Write the string backwards from its last byte.
    let at = n + len - 1;
    let c = entry;
    if (entry < 0) {
      out[at--] = first[previous];
      c = previous;
    }
    while (c >= 256) {
      out[at--] = suffix[c];
      c = prefix[c];
    }
    out[at] = c;
    const head = out[n];
    n += len;
    if (previous >= 0 && next < TABLE_SIZE) {
      prefix[next] = previous;
      suffix[next] = head;
      first[next] = first[previous];
      length[next] = length[previous] + 1;
      next++;
      // Early change: widen when the next free code is one below the next power of two.
      if (next >= (1 << width) - 1 && width < MAX_WIDTH) width++;
    }
    previous = code;
  }
  return out.length === n ? out : out.slice(0, n);
}
