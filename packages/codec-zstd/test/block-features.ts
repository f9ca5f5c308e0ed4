/**
 * A test-side reader of zstd frame, block and section headers (RFC 8878), independent of
 * the decoder: it lists which format features a stream uses, so the tests can show that
 * their corpus exercises every path of the decoder (block types, literal modes and
 * stream counts, every compression mode of every sequence table, frame header variants).
 */

/** Names of the features `blockFeatures` reports. */
export const ALL_FEATURES = [
  "frame:content-size",
  "frame:no-content-size",
  "frame:single-segment",
  "frame:window-descriptor",
  "frame:checksum",
  "frame:multiple-blocks",
  "block:raw",
  "block:rle",
  "block:compressed",
  "literals:raw",
  "literals:rle",
  "literals:huffman-1-stream",
  "literals:huffman-4-streams",
  "literals:treeless",
  "literals:tree-direct-weights",
  "literals:tree-fse-weights",
  "sequences:none",
  "sequences:long-count",
  "LL:predefined",
  "LL:rle",
  "LL:fse",
  "LL:repeat",
  "OF:predefined",
  "OF:rle",
  "OF:fse",
  "OF:repeat",
  "ML:predefined",
  "ML:rle",
  "ML:fse",
  "ML:repeat",
] as const;

const MODES = ["predefined", "rle", "fse", "repeat"];

/** The features used by the zstd frames in `stream` (skippable frames are skipped). */
export function blockFeatures(stream: Uint8Array): Set<string> {
  const found = new Set<string>();
  const u32 = (i: number) => (stream[i] | (stream[i + 1] << 8) | (stream[i + 2] << 16) | (stream[i + 3] << 24)) >>> 0;
  let pos = 0;
  while (pos < stream.length) {
    const magic = u32(pos);
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      pos += 8 + u32(pos + 4);
      continue;
    }
    if (magic !== 0xfd2fb528) throw new Error(`not a zstd frame at ${pos}`);
    const fhd = stream[pos + 4];
    const single = (fhd & 0x20) !== 0;
    const fcsFlag = fhd >> 6;
    const fcsSize = fcsFlag === 0 ? (single ? 1 : 0) : [0, 2, 4, 8][fcsFlag];
    const dictSize = [0, 1, 2, 4][fhd & 3];
    found.add(fcsSize > 0 ? "frame:content-size" : "frame:no-content-size");
    found.add(single ? "frame:single-segment" : "frame:window-descriptor");
    if (fhd & 4) found.add("frame:checksum");
    pos += 5 + (single ? 0 : 1) + dictSize + fcsSize;
    let blocks = 0;
    for (;;) {
      const header = stream[pos] | (stream[pos + 1] << 8) | (stream[pos + 2] << 16);
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      pos += 3;
      blocks++;
      if (type === 0) found.add("block:raw");
      else if (type === 1) found.add("block:rle");
      else {
        found.add("block:compressed");
        compressedBlockFeatures(stream, pos, found);
      }
      pos += type === 1 ? 1 : size;
      if (header & 1) break;
    }
    if (blocks > 1) found.add("frame:multiple-blocks");
    if (fhd & 4) pos += 4;
  }
  return found;
}

function compressedBlockFeatures(b: Uint8Array, pos: number, found: Set<string>): void {
  const litType = b[pos] & 3;
  const sizeFormat = (b[pos] >> 2) & 3;
  let sectionEnd: number;
  if (litType < 2) {
    found.add(litType === 0 ? "literals:raw" : "literals:rle");
    const headerSize = (sizeFormat & 1) === 0 ? 1 : sizeFormat === 1 ? 2 : 3;
    const size =
      headerSize === 1 ? b[pos] >> 3 : headerSize === 2 ? (b[pos] >> 4) + (b[pos + 1] << 4) : (b[pos] >> 4) + (b[pos + 1] << 4) + (b[pos + 2] << 12);
    sectionEnd = pos + headerSize + (litType === 0 ? size : 1);
  } else {
    found.add(litType === 2 ? "literals:huffman" : "literals:treeless");
    found.add(sizeFormat === 0 ? "literals:huffman-1-stream" : "literals:huffman-4-streams");
    const headerSize = sizeFormat < 2 ? 3 : sizeFormat === 2 ? 4 : 5;
    let h = 0;
    for (let i = headerSize - 1; i >= 0; i--) h = h * 256 + b[pos + i];
    const bitsEach = headerSize === 3 ? 10 : headerSize === 4 ? 14 : 18;
    const compressed = Math.floor(h / 2 ** (4 + bitsEach)) % 2 ** bitsEach;
    if (litType === 2) found.add(b[pos + headerSize] >= 128 ? "literals:tree-direct-weights" : "literals:tree-fse-weights");
    sectionEnd = pos + headerSize + compressed;
  }
  let p = sectionEnd;
  const b0 = b[p];
  if (b0 === 0) {
    found.add("sequences:none");
    return;
  }
  if (b0 === 255) found.add("sequences:long-count");
  p += b0 < 128 ? 1 : b0 < 255 ? 2 : 3;
  const modes = b[p];
  found.add(`LL:${MODES[modes >> 6]}`);
  found.add(`OF:${MODES[(modes >> 4) & 3]}`);
  found.add(`ML:${MODES[(modes >> 2) & 3]}`);
}
