/**
 * Drives the LZMA encoder over a whole input: LZMA2 chunking (and the stored-chunk fallback)
 * and plain LZMA1 streams with an end marker.
 */
import type { OutputBuffer } from "../output-buffer.js";
import { LzmaEncoder } from "./encoder.js";
import { LZMA2_CHUNK_COMPRESSED_MAX, LZMA2_CHUNK_UNCOMPRESSED_MAX } from "./lzma2-decoder.js";
import { BinaryTreeMatchFinder, HashChainMatchFinder, type MatchFinder } from "./match-finder.js";
import { propsByte } from "./model.js";
import { OptimalParser } from "./parse-optimal.js";
import { FastParser } from "./parse-fast.js";
import type { Parser } from "./parser.js";
import { effectiveDepth, type LzmaEncoderSettings } from "./settings.js";

/**
 * Inputs are indexed in windows of at most this many bytes (stored positions must fit in an
 * Int32Array); matches never cross a window boundary. Only inputs over 1 GiB have several.
 */
const WINDOW = 1 << 30;
/** Room left in a chunk for one more symbol plus the range coder flush. */
const SYMBOL_MARGIN = 64;
/** Largest stored chunk. */
const STORED_CHUNK_MAX = 1 << 16;

function newParser(enc: LzmaEncoder, settings: LzmaEncoderSettings, start: number, end: number): Parser {
  const options = { dictSize: settings.dictSize, niceLen: settings.niceLen, depth: effectiveDepth(settings) };
  const mf: MatchFinder =
    settings.matchFinder === "bt"
      ? new BinaryTreeMatchFinder(enc.data, start, end, options)
      : new HashChainMatchFinder(enc.data, start, end, options);
  const nice = Math.min(settings.niceLen, 273);
  return settings.mode === "fast"
    ? new FastParser(enc, mf, start, end, nice)
    : new OptimalParser(enc, mf, start, end, nice);
}

/**
 * Encodes `data` as an LZMA2 stream (chunks and the 0x00 end marker) appended to `out`.
 * Chunks hold at most 2 MiB of input and 64 KiB of output; a chunk that does not shrink is
 * stored instead, after which the coder state is reset (the decoder never saw those symbols).
 */
export function encodeLzma2(data: Uint8Array, settings: LzmaEncoderSettings, out: OutputBuffer): void {
  const enc = new LzmaEncoder(data, settings.lc, settings.lp, settings.pb);
  const rc = enc.rc;
  const props = propsByte(settings.lc, settings.lp, settings.pb);
  // 3: dictionary reset + new properties + state reset; 2: properties + state; 1: state; 0: none.
  let reset = 3;
  for (let windowStart = 0; windowStart < data.length; windowStart += WINDOW) {
    const windowEnd = Math.min(data.length, windowStart + WINDOW);
    const parser = newParser(enc, settings, windowStart, windowEnd);
    let pos = windowStart;
    let pending = false; // A decision made but not coded yet (it did not fit the last chunk).
    while (pos < windowEnd) {
      const headerPos = out.length;
      const headerSize = reset >= 2 ? 6 : 5;
      out.ensure(headerPos + headerSize + LZMA2_CHUNK_COMPRESSED_MAX + SYMBOL_MARGIN);
      const dataPos = headerPos + headerSize;
      rc.reset(out.bytes, dataPos);
      const chunkStart = pos;
      while (pos < windowEnd && rc.pendingSize(dataPos) <= LZMA2_CHUNK_COMPRESSED_MAX - SYMBOL_MARGIN) {
        if (!pending) {
          parser.next(pos);
          pending = true;
        }
        if (pos - chunkStart + parser.len > LZMA2_CHUNK_UNCOMPRESSED_MAX) break;
        enc.encodeDecision(pos, parser.len, parser.dist);
        pos += parser.len;
        pending = false;
      }
      rc.flush();
      const compressed = rc.pos - dataPos;
      const uncompressed = pos - chunkStart;
      const o = out.bytes;
      if (compressed >= uncompressed) {
        // Store the chunk's bytes instead (in pieces of at most 64 KiB).
        let p = headerPos;
        for (let s = chunkStart; s < pos; s += STORED_CHUNK_MAX) {
          const n = Math.min(STORED_CHUNK_MAX, pos - s);
          out.ensure(p + 3 + n);
          const ob = out.bytes;
          ob[p] = reset === 3 ? 1 : 2;
          ob[p + 1] = (n - 1) >>> 8;
          ob[p + 2] = (n - 1) & 0xff;
          ob.set(data.subarray(s, s + n), p + 3);
          p += 3 + n;
          if (reset === 3) reset = 2;
        }
        out.length = p;
        enc.resetState();
        if (reset === 0) reset = 1;
      } else {
        o[headerPos] = 0x80 | (reset << 5) | ((uncompressed - 1) >>> 16);
        o[headerPos + 1] = ((uncompressed - 1) >>> 8) & 0xff;
        o[headerPos + 2] = (uncompressed - 1) & 0xff;
        o[headerPos + 3] = (compressed - 1) >>> 8;
        o[headerPos + 4] = (compressed - 1) & 0xff;
        if (reset >= 2) o[headerPos + 5] = props;
        out.length = dataPos + compressed;
        reset = 0;
      }
    }
  }
  out.ensure(out.length + 1);
  out.bytes[out.length++] = 0x00;
}

/**
 * Encodes `data` as one LZMA1 range-coded stream ending with the end-of-payload marker,
 * appended to `out` (the .lzma body, or raw LZMA1).
 */
export function encodeLzma1(data: Uint8Array, settings: LzmaEncoderSettings, out: OutputBuffer): void {
  const enc = new LzmaEncoder(data, settings.lc, settings.lp, settings.pb);
  const rc = enc.rc;
  out.ensure(out.length + 4096);
  rc.reset(out.bytes, out.length);
  for (let windowStart = 0; windowStart < data.length; windowStart += WINDOW) {
    const windowEnd = Math.min(data.length, windowStart + WINDOW);
    const parser = newParser(enc, settings, windowStart, windowEnd);
    let pos = windowStart;
    while (pos < windowEnd) {
      // Keep room for one symbol and any run of carry-pending bytes.
      if (rc.pos + rc.cacheSize + SYMBOL_MARGIN > rc.out.length) {
        out.length = rc.pos;
        out.ensure(rc.pos + rc.cacheSize + SYMBOL_MARGIN + (rc.pos >>> 1));
        rc.out = out.bytes;
      }
      parser.next(pos);
      enc.encodeDecision(pos, parser.len, parser.dist);
      pos += parser.len;
    }
  }
  if (rc.pos + rc.cacheSize + SYMBOL_MARGIN > rc.out.length) {
    out.length = rc.pos;
    out.ensure(rc.pos + rc.cacheSize + SYMBOL_MARGIN);
    rc.out = out.bytes;
  }
  enc.encodeEndMarker(data.length);
  rc.flush();
  out.length = rc.pos;
}
