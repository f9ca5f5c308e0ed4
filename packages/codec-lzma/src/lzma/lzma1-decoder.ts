/**
 * LZMA1 streams: the legacy .lzma ("alone") format with its 13-byte header, and raw LZMA1
 * (FORMAT_RAW with an LZMA1 filter), which must end with the end-of-payload marker.
 */
import { corrupt } from "../errors.js";
import { MAX_OUTPUT, type OutputBuffer } from "../output-buffer.js";
import { DECODE_BAD_DISTANCE, DECODE_END_MARKER, DECODE_LIMIT, LzmaDecoder } from "./decoder.js";
import { decodePropsByte } from "./model.js";

/** Size of the .lzma header: properties byte, dictionary size, uncompressed size. */
export const ALONE_HEADER_SIZE = 13;

/**
 * Upper bound on how much one LZMA1 byte can expand (see `maxChunkOutput`). Used only to
 * cap the first allocation when a header declares a size: more than this cannot be decoded
 * from the input, and the buffer still grows if it ever were.
 */
const MAX_EXPANSION = 8192;

/**
 * Decodes one .lzma stream at `pos` and appends it to `output`. Returns the offset after
 * the stream (after its end marker, or where the range coder stopped when the header gives
 * the size).
 */
export function decodeAlone(input: Uint8Array, pos: number, end: number, output: OutputBuffer, key: string): number {
  if (end - pos < ALONE_HEADER_SIZE) throw corrupt(key, "truncated .lzma header");
  const props = decodePropsByte(input[pos]);
  if (props === undefined) throw corrupt(key, "invalid .lzma properties byte");
  const sizeLow = (input[pos + 5] | (input[pos + 6] << 8) | (input[pos + 7] << 16) | (input[pos + 8] << 24)) >>> 0;
  const sizeHigh = (input[pos + 9] | (input[pos + 10] << 8) | (input[pos + 11] << 16) | (input[pos + 12] << 24)) >>> 0;
  let size = -1;
  if (sizeLow !== 0xffffffff || sizeHigh !== 0xffffffff) {
    size = sizeHigh * 2 ** 32 + sizeLow;
    if (size > MAX_OUTPUT) throw corrupt(key, `the .lzma header declares ${size} bytes, more than can be decoded`);
    if (output.length + size > output.limit) {
      throw corrupt(key, `the .lzma header declares ${size} bytes, more than the ${output.limit}-byte limit`);
    }
  }
  return decodeLzma1(input, pos + ALONE_HEADER_SIZE, end, output, key, props.lc, props.lp, props.pb, size);
}

/**
 * Decodes raw LZMA1 data at `pos` with the given properties and appends it to `output`.
 * `size` is the uncompressed size, or -1 when unknown (the end marker is then required).
 * Returns the offset after the compressed data.
 */
export function decodeLzma1(
  input: Uint8Array,
  pos: number,
  end: number,
  output: OutputBuffer,
  key: string,
  lc: number,
  lp: number,
  pb: number,
  size: number,
): number {
  const dec = new LzmaDecoder(lc, lp, pb);
  const start = output.length;
  dec.dictStart = start;
  if (!dec.initRange(input, pos, end)) throw corrupt(key, "truncated or invalid LZMA data");
  const compressed = end - pos;
  const firstGuess = compressed * (size >= 0 ? MAX_EXPANSION : 4) + 65536;
  const target = size >= 0 ? start + size : output.limit;
  if (target > output.limit) throw corrupt(key, `the LZMA data declares ${size} bytes, more than the ${output.limit}-byte limit`);
  output.ensure(Math.min(target, start + (size >= 0 ? Math.min(size, firstGuess) : firstGuess)));
  for (;;) {
    dec.out = output.bytes;
    dec.outPos = output.length;
    const status = dec.decode(Math.min(target, output.bytes.length), end);
    output.length = dec.outPos;
    if (status === DECODE_END_MARKER) {
      if (size >= 0 && output.length !== target) throw corrupt(key, "LZMA end marker before the declared size");
      break;
    }
    if (status === DECODE_BAD_DISTANCE) throw corrupt(key, "LZMA match distance exceeds the decoded data");
    if (status !== DECODE_LIMIT) throw corrupt(key, "LZMA data is truncated or corrupt");
    if (output.length === target) {
      if (dec.pendingLen !== 0) {
        throw corrupt(key, size < 0 ? `the LZMA data decodes to more than the ${output.limit}-byte limit` : "an LZMA match runs past the declared size");
      }
      if (size >= 0 && dec.finishedCleanly()) break;
      // An end marker may still follow (with a declared size the format allows both). The
      // probe may not grow the buffer past its limit: a byte it would decode is dropped by
      // the typed array, and the status says there was one.
      if (output.bytes.length === output.length && output.length < output.limit) output.ensure(output.length + 1);
      dec.out = output.bytes;
      const after = dec.decode(output.length + 1, end);
      if (after === DECODE_END_MARKER) break;
      throw corrupt(key, size < 0 ? `the LZMA data decodes to more than the ${output.limit}-byte limit` : "LZMA data continues past the declared size");
    }
    output.ensure(Math.min(target, output.length + Math.max(65536, output.length - start)));
  }
  if (!dec.finishedCleanly()) throw corrupt(key, "LZMA data is corrupt (range coder did not end cleanly)");
  return dec.inPos;
}
