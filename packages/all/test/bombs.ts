/**
 * Decompression bombs: small inputs that would decode to 1 GiB, one per compressor, built
 * cheaply (by hand from the format where it allows, else by compressing zeros in pieces),
 * for the memory-bound tests in bombs.test.ts.
 */
import { createDeflate, createGzip } from "node:zlib";
import { bz2Compress } from "@zarr/codec-bz2";
import { xzCompress } from "@zarr/codec-lzma";

/** What every bomb decodes to. */
export const BOMB_BYTES = 2 ** 30;
const PIECE = 16 * 2 ** 20;
const PIECES = BOMB_BYTES / PIECE;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A zstd frame of `size` zero bytes made of RLE blocks (4 bytes per 128 KiB): with its
 * size in the header (single segment) or without (a 128 KiB window).
 */
export function zstdZeros(size: number, declared: boolean): Uint8Array {
  const block = 128 * 1024;
  const header = declared ? [0x28, 0xb5, 0x2f, 0xfd, 0xa0, size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, size >>> 24] : [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
  const blocks = Math.ceil(size / block);
  const out = new Uint8Array(header.length + 4 * blocks);
  out.set(header);
  for (let i = 0, at = header.length; i < blocks; i++, at += 4) {
    const n = Math.min(block, size - i * block);
    const h = (i === blocks - 1 ? 1 : 0) | (1 << 1) | (n << 3);
    out[at] = h & 0xff;
    out[at + 1] = (h >>> 8) & 0xff;
    out[at + 2] = h >>> 16;
    out[at + 3] = 0;
  }
  return out;
}

/** node:zlib compressing `BOMB_BYTES` zeros fed in 16 MiB pieces (a few seconds). */
function deflateZeros(stream: ReturnType<typeof createGzip>): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    stream.on("data", (p: Buffer) => parts.push(p));
    stream.on("end", () => resolve(concat(parts)));
    stream.on("error", reject);
    const zeros = Buffer.alloc(PIECE);
    for (let i = 0; i < PIECES; i++) stream.write(zeros);
    stream.end();
  });
}

/**
 * A numcodecs lz4 chunk of `BOMB_BYTES` zeros: the size header, one literal, one match of
 * offset 1 whose length takes ~4 MiB of 255s, and the five literals LZ4 ends with.
 */
function lz4Zeros(): Uint8Array {
  const matchLength = BOMB_BYTES - 6;
  const extra = matchLength - 4 - 15;
  const ones = Math.floor(extra / 255);
  const out = new Uint8Array(4 + 1 + 1 + 2 + ones + 1 + 1 + 5);
  new DataView(out.buffer).setUint32(0, BOMB_BYTES, true);
  let at = 4;
  out[at++] = (1 << 4) | 15; // one literal, match length 15+
  out[at++] = 0; // the literal
  out[at++] = 1; // offset 1 (little-endian)
  out[at++] = 0;
  out.fill(255, at, at + ones);
  at += ones;
  out[at++] = extra - 255 * ones;
  out[at++] = 5 << 4; // last sequence: five literals
  return out; // the literals are the zeros already there
}

/**
 * A c-blosc 1.x chunk of `BOMB_BYTES` zeros: 64 blocks of 16 MiB, each one unsplit zstd
 * stream of RLE blocks (~34 KB in all, within blosc's 32768:1 plausibility check for zstd).
 */
function bloscZeros(): Uint8Array {
  const frame = zstdZeros(PIECE, true);
  const headerAndStarts = 16 + 4 * PIECES;
  const streamBytes = 4 + frame.length;
  const out = new Uint8Array(headerAndStarts + PIECES * streamBytes);
  const view = new DataView(out.buffer);
  out[0] = 2; // format version
  out[1] = 1; // zstd stream format version
  out[2] = (4 << 5) | 0x10; // zstd, do not split
  out[3] = 1; // typesize
  view.setUint32(4, BOMB_BYTES, true);
  view.setUint32(8, PIECE, true);
  view.setUint32(12, out.length, true);
  for (let j = 0; j < PIECES; j++) {
    const at = headerAndStarts + j * streamBytes;
    view.setInt32(16 + 4 * j, at, true);
    view.setInt32(at, frame.length, true);
    out.set(frame, at + 4);
  }
  return out;
}

/** Every bomb, by the codec chain (after `bytes`) that reads it. */
export async function buildBombs(): Promise<Record<string, { codecs: unknown[]; bytes: Uint8Array }>> {
  const zeros = new Uint8Array(PIECE);
  const bz2Stream = bz2Compress(zeros, 9);
  const xzStream = xzCompress(zeros, { preset: 0 });
  return {
    gzip: { codecs: [{ name: "gzip", configuration: { level: 1 } }], bytes: await deflateZeros(createGzip({ level: 9 })) },
    zlib: { codecs: [{ name: "numcodecs.zlib", configuration: { level: 1 } }], bytes: await deflateZeros(createDeflate({ level: 9 })) },
    "zstd (declared size)": { codecs: [{ name: "zstd", configuration: { level: 1, checksum: false } }], bytes: zstdZeros(BOMB_BYTES, true) },
    "zstd (no declared size)": { codecs: [{ name: "zstd", configuration: { level: 1, checksum: false } }], bytes: zstdZeros(BOMB_BYTES, false) },
    // Concatenated streams decode to their concatenation (as Python's bz2 and lzma do).
    bz2: { codecs: [{ name: "numcodecs.bz2", configuration: { level: 1 } }], bytes: concat(new Array(PIECES).fill(bz2Stream)) },
    xz: { codecs: [{ name: "numcodecs.lzma", configuration: { format: 1, check: -1, preset: 0, filters: null } }], bytes: concat(new Array(PIECES).fill(xzStream)) },
    lz4: { codecs: [{ name: "numcodecs.lz4", configuration: { acceleration: 1 } }], bytes: lz4Zeros() },
    blosc: {
      codecs: [{ name: "blosc", configuration: { cname: "zstd", clevel: 1, shuffle: "noshuffle", typesize: 1, blocksize: 0 } }],
      bytes: bloscZeros(),
    },
  };
}
