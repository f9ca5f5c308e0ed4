/**
 * The .xz container decoder: streams (header, blocks, index, footer), stream padding and
 * concatenated streams. Every block is LZMA2 with optional delta / x86 BCJ filters before it;
 * the block check (CRC32, CRC64 or SHA-256) is verified against the decoded data.
 */
import { ZarrError } from "@zarr/spec";
import { checkName, checkSize, computeCheck, isSupportedCheck } from "../check/check.js";
import { crc32 } from "../check/crc32.js";
import { checksumMismatch, corrupt } from "../errors.js";
import { deltaDecode } from "../filters/delta.js";
import { x86Convert } from "../filters/x86.js";
import { decodeLzma2, scanLzma2 } from "../lzma/lzma2-decoder.js";
import { OutputBuffer } from "../output-buffer.js";
import {
  FILTER_DELTA,
  FILTER_LZMA2,
  FILTER_X86,
  FOOTER_MAGIC,
  hasXzMagic,
  readU32,
  readVli,
  STREAM_HEADER_SIZE,
} from "./format.js";

/** A non-last filter of a block's chain, as the decoder applies it. */
interface BlockFilter {
  id: number;
  /** Delta distance, or x86 start offset. */
  param: number;
}

/** The BCJ filters defined by the .xz format that this package does not implement. */
const BCJ_NAMES: Record<number, string> = {
  5: "PowerPC",
  6: "IA-64",
  7: "ARM",
  8: "ARM-Thumb",
  9: "SPARC",
  10: "ARM64",
  11: "RISC-V",
};

/**
 * Decodes a complete .xz file (one or more streams, with optional stream padding).
 * Throws `CODEC_FAILED` for corrupt or truncated input and `CHECKSUM_MISMATCH` when a block
 * check does not match, naming `key` in both. Output past `maxSize` fails before it is
 * allocated: every block's size is known from a scan of its LZMA2 chunk headers first.
 */
export function decodeXzFile(input: Uint8Array, key: string, maxSize?: number): Uint8Array {
  const output = new OutputBuffer(0, key, maxSize);
  let pos = 0;
  for (;;) {
    pos = decodeStream(input, pos, output, key);
    // Stream padding: null bytes in multiples of four, then another stream or the end.
    let p = pos;
    while (p < input.length && input[p] === 0) p++;
    if ((p - pos) % 4 !== 0) throw corrupt(key, "invalid stream padding after an .xz stream");
    if (p === input.length) break;
    pos = p;
  }
  return output.result();
}

/** Decodes one stream at `pos`, appending to `output`; returns the offset after its footer. */
export function decodeStream(input: Uint8Array, pos: number, output: OutputBuffer, key: string): number {
  const n = input.length;
  if (!hasXzMagic(input, pos)) {
    throw corrupt(key, pos === 0 ? "not .xz data (bad magic bytes)" : "garbage after an .xz stream");
  }
  if (n - pos < STREAM_HEADER_SIZE) throw corrupt(key, "truncated .xz stream header");
  if (crc32(input, pos + 6, pos + 8) !== readU32(input, pos + 8)) {
    throw corrupt(key, "the .xz stream header CRC32 does not match");
  }
  const flags0 = input[pos + 6];
  const flags1 = input[pos + 7];
  if (flags0 !== 0 || (flags1 & 0xf0) !== 0) {
    throw new ZarrError("UNSUPPORTED", `lzma: "${key}" uses unsupported .xz stream flags`, { key });
  }
  const checkId = flags1 & 0x0f;
  const checkLen = checkSize(checkId);
  pos += STREAM_HEADER_SIZE;

  const unpaddedSizes: number[] = [];
  const uncompressedSizes: number[] = [];
  for (;;) {
    if (pos >= n) throw corrupt(key, "truncated .xz stream (no index)");
    if (input[pos] === 0) break; // The index indicator.
    const blockStart = pos;
    const outStart = output.length;
    const block = parseBlockHeader(input, pos, key);
    const dataStart = pos + block.headerSize;
    let dataEnd = n;
    if (block.compressedSize >= 0) {
      dataEnd = dataStart + block.compressedSize;
      if (dataEnd > n) throw corrupt(key, "truncated .xz block");
    }
    const scan = scanLzma2(input, dataStart, dataEnd, key);
    if (block.compressedSize >= 0 && scan.end !== dataEnd) {
      throw corrupt(key, "the .xz block's compressed size does not match its data");
    }
    if (block.uncompressedSize >= 0 && scan.size !== block.uncompressedSize) {
      throw corrupt(key, "the .xz block's uncompressed size does not match its data");
    }
    output.ensure(outStart + scan.size);
    pos = decodeLzma2(input, dataStart, scan.end, output, key);
    // Undo the non-last filters, last-applied first.
    for (let i = block.filters.length - 1; i >= 0; i--) {
      const f = block.filters[i];
      if (f.id === FILTER_DELTA) deltaDecode(output.bytes, outStart, output.length, f.param);
      else x86Convert(output.bytes, outStart, output.length, f.param, false);
    }
    const unpadded = pos - blockStart + checkLen;
    while ((pos - blockStart) % 4 !== 0) {
      if (pos >= n) throw corrupt(key, "truncated .xz block padding");
      if (input[pos++] !== 0) throw corrupt(key, "invalid .xz block padding");
    }
    if (pos + checkLen > n) throw corrupt(key, "truncated .xz block check");
    if (isSupportedCheck(checkId) && checkLen > 0) {
      const expected = computeCheck(checkId, output.bytes, outStart, output.length);
      for (let i = 0; i < checkLen; i++) {
        if (input[pos + i] !== expected[i]) throw checksumMismatch(key, `.xz block ${checkName(checkId)}`);
      }
    }
    // Reserved check ids (2, 3, 5-9, 11-15) are skipped unverified, as xz itself does.
    pos += checkLen;
    unpaddedSizes.push(unpadded);
    uncompressedSizes.push(output.length - outStart);
  }

  // The index must list exactly the blocks just decoded.
  const indexStart = pos;
  const cursor = { pos: pos + 1 };
  const count = readVli(input, cursor, n, key, "index record count");
  if (count !== unpaddedSizes.length) throw corrupt(key, "the .xz index does not match the blocks");
  for (let i = 0; i < count; i++) {
    const unpadded = readVli(input, cursor, n, key, "index record");
    const uncompressed = readVli(input, cursor, n, key, "index record");
    if (unpadded !== unpaddedSizes[i] || uncompressed !== uncompressedSizes[i]) {
      throw corrupt(key, "the .xz index does not match the blocks");
    }
  }
  pos = cursor.pos;
  while ((pos - indexStart) % 4 !== 0) {
    if (pos >= n) throw corrupt(key, "truncated .xz index");
    if (input[pos++] !== 0) throw corrupt(key, "invalid .xz index padding");
  }
  if (pos + 4 > n) throw corrupt(key, "truncated .xz index");
  if (crc32(input, indexStart, pos) !== readU32(input, pos)) throw corrupt(key, "the .xz index CRC32 does not match");
  pos += 4;
  const indexSize = pos - indexStart;

  // The footer repeats the flags and records the index size.
  if (pos + 12 > n) throw corrupt(key, "truncated .xz stream footer");
  if (crc32(input, pos + 4, pos + 10) !== readU32(input, pos)) {
    throw corrupt(key, "the .xz stream footer CRC32 does not match");
  }
  if ((readU32(input, pos + 4) + 1) * 4 !== indexSize) throw corrupt(key, "the .xz footer's index size is wrong");
  if (input[pos + 8] !== flags0 || input[pos + 9] !== flags1) {
    throw corrupt(key, "the .xz stream footer flags differ from the header");
  }
  if (input[pos + 10] !== FOOTER_MAGIC[0] || input[pos + 11] !== FOOTER_MAGIC[1]) {
    throw corrupt(key, "bad .xz footer magic bytes");
  }
  return pos + 12;
}

interface BlockHeader {
  headerSize: number;
  /** -1 when absent. */
  compressedSize: number;
  /** -1 when absent. */
  uncompressedSize: number;
  /** The non-last filters in chain order (the last filter is always LZMA2). */
  filters: BlockFilter[];
}

function parseBlockHeader(input: Uint8Array, pos: number, key: string): BlockHeader {
  const headerSize = (input[pos] + 1) * 4;
  if (pos + headerSize > input.length) throw corrupt(key, "truncated .xz block header");
  const crcPos = pos + headerSize - 4;
  if (crc32(input, pos, crcPos) !== readU32(input, crcPos)) {
    throw corrupt(key, "the .xz block header CRC32 does not match");
  }
  const flags = input[pos + 1];
  if ((flags & 0x3c) !== 0) {
    throw new ZarrError("UNSUPPORTED", `lzma: "${key}" uses unsupported .xz block flags`, { key });
  }
  const cursor = { pos: pos + 2 };
  let compressedSize = -1;
  let uncompressedSize = -1;
  if (flags & 0x40) {
    compressedSize = readVli(input, cursor, crcPos, key, "block compressed size");
    if (compressedSize === 0) throw corrupt(key, "an .xz block's compressed size is zero");
  }
  if (flags & 0x80) uncompressedSize = readVli(input, cursor, crcPos, key, "block uncompressed size");
  const numFilters = (flags & 3) + 1;
  const filters: BlockFilter[] = [];
  for (let i = 0; i < numFilters; i++) {
    const id = readVli(input, cursor, crcPos, key, "filter id");
    const propsSize = readVli(input, cursor, crcPos, key, "filter properties size");
    const propsPos = cursor.pos;
    if (propsPos + propsSize > crcPos) throw corrupt(key, "truncated .xz filter properties");
    cursor.pos += propsSize;
    const last = i === numFilters - 1;
    if (id === FILTER_LZMA2) {
      if (!last) throw corrupt(key, "LZMA2 is not the last filter of an .xz block");
      const byte = input[propsPos];
      if (propsSize !== 1 || (byte & 0xc0) !== 0 || byte > 40) throw corrupt(key, "invalid LZMA2 filter properties");
    } else if (last) {
      throw corrupt(key, `filter 0x${id.toString(16)} cannot end an .xz filter chain`);
    } else if (id === FILTER_DELTA) {
      if (propsSize !== 1) throw corrupt(key, "invalid delta filter properties");
      filters.push({ id, param: input[propsPos] + 1 });
    } else if (id === FILTER_X86) {
      if (propsSize !== 0 && propsSize !== 4) throw corrupt(key, "invalid x86 filter properties");
      filters.push({ id, param: propsSize === 4 ? readU32(input, propsPos) : 0 });
    } else {
      throw unsupportedFilter(key, id);
    }
  }
  for (let p = cursor.pos; p < crcPos; p++) {
    if (input[p] !== 0) throw corrupt(key, "invalid .xz block header padding");
  }
  return { headerSize, compressedSize, uncompressedSize, filters };
}

function unsupportedFilter(key: string, id: number): ZarrError {
  const name = BCJ_NAMES[id] === undefined ? `filter 0x${id.toString(16)}` : `the ${BCJ_NAMES[id]} BCJ filter`;
  return new ZarrError("UNSUPPORTED", `lzma: "${key}" uses ${name}, which is not supported`, { key });
}
