/** The .xz container encoder: one stream holding one LZMA2 block (none for empty input). */
import { checkSize, computeCheck } from "../check/check.js";
import { crc32 } from "../check/crc32.js";
import { encodeLzma2 } from "../lzma/lzma-stream-encoder.js";
import { declaredDictSize, type LzmaEncoderSettings, lzma2DictByte } from "../lzma/settings.js";
import { OutputBuffer } from "../output-buffer.js";
import {
  FILTER_DELTA,
  FILTER_LZMA2,
  FILTER_X86,
  FOOTER_MAGIC,
  HEADER_MAGIC,
  vliSize,
  writeU32,
  writeVli,
} from "./format.js";

/** A non-last filter already applied to the data, to be recorded in the block header. */
export type AppliedFilter = { kind: "delta"; distance: number } | { kind: "x86"; startOffset: number };

/**
 * Builds a complete .xz stream. `filtered` is the input after the non-last `filters` were
 * applied (the same array as `original` when there are none); the check covers `original`.
 */
export function encodeXzStream(
  original: Uint8Array,
  filtered: Uint8Array,
  filters: readonly AppliedFilter[],
  settings: LzmaEncoderSettings,
  checkId: number,
  key: string,
): Uint8Array {
  const n = original.length;
  const checkLen = checkSize(checkId);
  let body: Uint8Array = new Uint8Array(0);
  let header: Uint8Array = new Uint8Array(0);
  let check: Uint8Array = new Uint8Array(0);
  if (n > 0) {
    // Room for the worst case (stored chunks: 3 bytes per 64 KiB), so it never grows.
    const out = new OutputBuffer(n + (n >>> 12) + 1024, key);
    encodeLzma2(filtered, settings, out);
    body = out.bytes.subarray(0, out.length);
    header = blockHeader(filters, settings, body.length, n);
    check = computeCheck(checkId, original, 0, n);
  }
  const blockPad = (4 - (body.length % 4)) % 4;
  const unpadded = header.length + body.length + checkLen;
  // Index: indicator, record count, (unpadded size, uncompressed size) per block, padding, CRC32.
  const recordsSize = n > 0 ? 1 + 1 + vliSize(unpadded) + vliSize(n) : 2;
  const indexSize = ((recordsSize + 3) & ~3) + 4;
  const total = 12 + header.length + body.length + blockPad + (n > 0 ? checkLen : 0) + indexSize + 12;
  const out = new Uint8Array(total);

  // Stream header.
  out.set(HEADER_MAGIC, 0);
  out[6] = 0;
  out[7] = checkId;
  writeU32(out, 8, crc32(out, 6, 8));
  let p = 12;
  if (n > 0) {
    out.set(header, p);
    p += header.length;
    out.set(body, p);
    p += body.length + blockPad;
    out.set(check, p);
    p += checkLen;
  }
  const indexStart = p;
  out[p++] = 0;
  if (n > 0) {
    p = writeVli(out, p, 1);
    p = writeVli(out, p, unpadded);
    p = writeVli(out, p, n);
  } else {
    p = writeVli(out, p, 0);
  }
  p = indexStart + indexSize - 4;
  writeU32(out, p, crc32(out, indexStart, p));
  p += 4;
  // Stream footer.
  writeU32(out, p + 4, indexSize / 4 - 1);
  out[p + 8] = 0;
  out[p + 9] = checkId;
  writeU32(out, p, crc32(out, p + 4, p + 10));
  out[p + 10] = FOOTER_MAGIC[0];
  out[p + 11] = FOOTER_MAGIC[1];
  return out;
}

/** The block header with both sizes and the filter flags, padded and CRC32-protected. */
function blockHeader(
  filters: readonly AppliedFilter[],
  settings: LzmaEncoderSettings,
  compressed: number,
  uncompressed: number,
): Uint8Array {
  const flags: number[] = [];
  for (const f of filters) {
    if (f.kind === "delta") {
      flags.push(FILTER_DELTA, 1, f.distance - 1);
    } else if (f.startOffset === 0) {
      flags.push(FILTER_X86, 0);
    } else {
      const o = f.startOffset;
      flags.push(FILTER_X86, 4, o & 0xff, (o >>> 8) & 0xff, (o >>> 16) & 0xff, o >>> 24);
    }
  }
  flags.push(FILTER_LZMA2, 1, lzma2DictByte(declaredDictSize(settings.dictSize, uncompressed)));
  const size = (2 + vliSize(compressed) + vliSize(uncompressed) + flags.length + 4 + 3) & ~3;
  const h = new Uint8Array(size);
  h[0] = size / 4 - 1;
  h[1] = filters.length | 0x40 | 0x80;
  let p = writeVli(h, 2, compressed);
  p = writeVli(h, p, uncompressed);
  h.set(flags, p);
  writeU32(h, size - 4, crc32(h, 0, size - 4));
  return h;
}
