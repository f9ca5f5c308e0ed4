/**
 * Hand-made zstd frames and frame rewrites the decoder tests share: a frame using the features
 * no compressor here emits, and streamed (size-less) rewrites of a frame's header.
 */

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * Rewrites a frame's header as a streaming compressor writes it: no Frame_Content_Size,
 * a window descriptor (2^windowLog), optionally no checksum flag change. Blocks are kept.
 */
export function streamedHeader(frame: Uint8Array, windowLog: number): Uint8Array {
  const fhd = frame[4];
  const single = (fhd & 0x20) !== 0;
  const fcsFlag = fhd >> 6;
  const fcsSize = fcsFlag === 0 ? (single ? 1 : 0) : [0, 2, 4, 8][fcsFlag];
  const headerEnd = 5 + (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3] + fcsSize;
  return concat(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, fhd & 0x04, (windowLog - 10) << 3]), frame.subarray(headerEnd));
}

/**
 * A hand-built two-block frame: block 1 has RLE literals (32 513 × "a"), 32 513
 * sequences (the 3-byte count) with RLE tables for all three symbol types (literal
 * length 1, Offset_Value 1 = repeat offset 1, match length 3), so the bitstream holds
 * only its end mark; block 2 (5 × "b" literals, 5 sequences) repeats those tables with
 * Repeat_Mode. Every sequence writes one literal and copies it 3 times.
 */
export function rleTablesFrame(): { name: string; data: Uint8Array; frame: Uint8Array } {
  const n1 = 0x7f00 + 1;
  const n2 = 5;
  const total = 4 * (n1 + n2);
  const block1 = new Uint8Array([
    // RLE literals, 3-byte header (Size_Format 3), n1 bytes of "a".
    1 | (3 << 2) | ((n1 & 0xf) << 4),
    (n1 >> 4) & 0xff,
    n1 >> 12,
    0x61,
    // Number_of_Sequences = byte1 + (byte2 << 8) + 0x7F00.
    255,
    (n1 - 0x7f00) & 0xff,
    (n1 - 0x7f00) >> 8,
    // Modes: LL, OF, ML all RLE; then their codes: LL 1, OF 0, ML 0.
    0x54,
    1,
    0,
    0,
    // The bitstream: just the end mark.
    0x01,
  ]);
  const block2 = new Uint8Array([1 | (n2 << 3), 0x62, n2, 0xfc, 0x01]);
  const header = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xa0, total & 0xff, (total >> 8) & 0xff, total >> 16, 0]);
  const blockHeader = (size: number, last: boolean) => new Uint8Array([(size << 3) | (2 << 1) | (last ? 1 : 0), size >> 5, size >> 13]);
  const frame = concat(header, blockHeader(block1.length, false), block1, blockHeader(block2.length, true), block2);
  const data = new Uint8Array(total);
  data.fill(0x61, 0, 4 * n1);
  data.fill(0x62, 4 * n1);
  return { name: "hand-built RLE tables frame", data, frame };
}
