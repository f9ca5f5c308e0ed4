/**
 * LZMA2 decoding: a sequence of chunks, each either stored (uncompressed) or LZMA-compressed
 * with an optional state reset, new properties and dictionary reset, ended by a 0x00 byte.
 */
import { corrupt } from "../errors.js";
import type { OutputBuffer } from "../output-buffer.js";
import { DECODE_BAD_DISTANCE, DECODE_END_MARKER, DECODE_LIMIT, LzmaDecoder } from "./decoder.js";
import { decodePropsByte } from "./model.js";

/** Largest uncompressed size of one LZMA2 chunk (21 bits + 1). */
export const LZMA2_CHUNK_UNCOMPRESSED_MAX = 1 << 21;
/** Largest compressed size of one LZMA2 chunk (16 bits + 1). */
export const LZMA2_CHUNK_COMPRESSED_MAX = 1 << 16;

/**
 * Most output one LZMA chunk can produce from `comp` compressed bytes. The range decoder
 * reads a byte per 8 bits of narrowing and starts with 32; every coded bit narrows by at
 * least -log2(2017/2048) ≈ 0.022 bits (probabilities stay within 31..2017 of 2048), and
 * the cheapest symbol, a 273-byte rep0 match, takes 14 coded bits: at most about
 * 273 / (14 × 0.022) ≈ 886 bytes per bit read. So no chunk, valid or not, decodes to more
 * than 8192 × comp + 32768 bytes; claiming more is corrupt.
 */
export function maxChunkOutput(comp: number): number {
  return comp * 8192 + 32768;
}

/** Dictionary size from an LZMA2 properties byte (xz filter properties), or -1 when invalid. */
export function lzma2DictSize(byte: number): number {
  if (byte > 40) return -1;
  if (byte === 40) return 0xffffffff;
  return (2 | (byte & 1)) * 2 ** ((byte >>> 1) + 11);
}

/**
 * Walks the chunk headers of an LZMA2 stream without decoding, returning the total
 * uncompressed size and the offset after the end marker. Used to size the output exactly
 * before decoding, and as the guard against sizes the input cannot hold (see
 * {@link maxChunkOutput}): the total never exceeds about 8192 × the input size.
 */
export function scanLzma2(input: Uint8Array, pos: number, end: number, key: string): { size: number; end: number } {
  let size = 0;
  for (;;) {
    if (pos >= end) throw corrupt(key, "LZMA2 data is truncated (no end marker)");
    const control = input[pos];
    if (control === 0) return { size, end: pos + 1 };
    if (control >= 0x80) {
      if (pos + 5 > end) throw corrupt(key, "LZMA2 chunk header is truncated");
      const unc = ((control & 0x1f) << 16) + (input[pos + 1] << 8) + input[pos + 2] + 1;
      const comp = ((input[pos + 3] << 8) | input[pos + 4]) + 1;
      if (unc > maxChunkOutput(comp)) throw corrupt(key, "an LZMA2 chunk claims more data than it can hold");
      size += unc;
      pos += 5 + comp + (control >= 0xc0 ? 1 : 0);
    } else if (control <= 2) {
      if (pos + 3 > end) throw corrupt(key, "LZMA2 chunk header is truncated");
      const n = ((input[pos + 1] << 8) | input[pos + 2]) + 1;
      size += n;
      pos += 3 + n;
    } else {
      throw corrupt(key, `invalid LZMA2 control byte 0x${control.toString(16)}`);
    }
  }
}

/**
 * Decodes one LZMA2 stream from `input[pos, end)` and appends it to `output`. Returns the
 * offset just after the end marker. Matches may not reach before the output's length at the
 * call (each LZMA2 stream starts with a dictionary reset).
 */
export function decodeLzma2(input: Uint8Array, pos: number, end: number, output: OutputBuffer, key: string): number {
  const dec = new LzmaDecoder(0, 0, 0);
  let needDictReset = true;
  let needProps = true;
  for (;;) {
    if (pos >= end) throw corrupt(key, "LZMA2 data is truncated (no end marker)");
    const control = input[pos++];
    if (control === 0) return pos;
    if (control >= 0xe0 || control === 1) {
      // A dictionary reset: later matches may not reach before this point, and the next
      // LZMA chunk must bring properties (and so a state reset).
      needProps = true;
      needDictReset = false;
      dec.dictStart = output.length;
    } else if (needDictReset) {
      throw corrupt(key, "the first LZMA2 chunk does not reset the dictionary");
    }
    if (control >= 0x80) {
      if (pos + 4 > end) throw corrupt(key, "LZMA2 chunk header is truncated");
      const unc = ((control & 0x1f) << 16) + (input[pos] << 8) + input[pos + 1] + 1;
      const comp = (input[pos + 2] << 8) + input[pos + 3] + 1;
      pos += 4;
      const reset = (control >>> 5) & 3;
      if (reset >= 2) {
        if (pos >= end) throw corrupt(key, "LZMA2 chunk header is truncated");
        const props = decodePropsByte(input[pos++]);
        if (props === undefined || props.lc + props.lp > 4) throw corrupt(key, "invalid LZMA2 properties");
        dec.setProperties(props.lc, props.lp, props.pb);
        needProps = false;
      } else if (needProps) {
        throw corrupt(key, "an LZMA2 chunk lacks the properties it needs");
      } else if (reset === 1) {
        dec.resetState();
      }
      const chunkEnd = pos + comp;
      if (chunkEnd > end) throw corrupt(key, "LZMA2 chunk is truncated");
      if (unc > maxChunkOutput(comp)) throw corrupt(key, "an LZMA2 chunk claims more data than it can hold");
      output.ensure(output.length + unc);
      dec.out = output.bytes;
      dec.outPos = output.length;
      if (!dec.initRange(input, pos, chunkEnd)) throw corrupt(key, "invalid LZMA2 chunk (bad range coder start)");
      const status = dec.decode(output.length + unc, chunkEnd);
      if (status !== DECODE_LIMIT) {
        if (status === DECODE_BAD_DISTANCE) throw corrupt(key, "LZMA match distance exceeds the decoded data");
        if (status === DECODE_END_MARKER) throw corrupt(key, "unexpected end marker inside an LZMA2 chunk");
        throw corrupt(key, "LZMA2 chunk is truncated or corrupt");
      }
      if (dec.pendingLen !== 0 || dec.inPos !== chunkEnd || !dec.finishedCleanly()) {
        throw corrupt(key, "LZMA2 chunk sizes do not match its data");
      }
      output.length += unc;
      pos = chunkEnd;
    } else {
      if (control > 2) throw corrupt(key, `invalid LZMA2 control byte 0x${control.toString(16)}`);
      if (pos + 2 > end) throw corrupt(key, "LZMA2 chunk header is truncated");
      const n = ((input[pos] << 8) | input[pos + 1]) + 1;
      pos += 2;
      if (pos + n > end) throw corrupt(key, "LZMA2 chunk is truncated");
      output.append(input.subarray(pos, pos + n));
      pos += n;
    }
  }
}
