/**
 * Reading and checking the 16-byte blosc header (c-blosc README_HEADER):
 * version, versionlz, flags, typesize (uint8 each), then nbytes, blocksize and cbytes
 * (uint32 little-endian): the decoded size, the block size and the chunk's total size.
 */
import { ZarrError } from "@zarr/spec";
import {
  COMPRESSOR_FORMAT_VERSION,
  FLAG_BITSHUFFLE,
  FLAG_DONT_SPLIT,
  FLAG_MEMCPYED,
  FLAG_SHUFFLE,
  FORMAT_NAMES,
  FORMAT_VERSION,
  HEADER_SIZE,
} from "./constants.js";

/** What a blosc header says. */
export interface BloscHeader {
  /** Format version (c-blosc 1.x writes 2). */
  version: number;
  /** Version of the inner compressor's format (1). */
  versionlz: number;
  /** The raw flags byte. */
  flags: number;
  /** Element size used for shuffling and splitting. */
  typesize: number;
  /** Decoded size in bytes. */
  nbytes: number;
  /** Block size in bytes. */
  blocksize: number;
  /** Size of the whole chunk, header included. */
  cbytes: number;
  /** Compressor name ("lz4" also stands for lz4hc: they share a format). */
  cname: "blosclz" | "lz4" | "snappy" | "zlib" | "zstd";
  /** Shuffle applied to the blocks. */
  shuffle: "noshuffle" | "shuffle" | "bitshuffle";
  /** True when the data is stored uncompressed after the header. */
  memcpyed: boolean;
  /** True when blocks are not split into per-byte streams. */
  dontSplit: boolean;
}

/**
 * Reads the header of a blosc chunk without checking it further. Throws
 * `CODEC_FAILED` when `input` is shorter than 16 bytes or names an unknown compressor.
 *
 * @example
 * ```ts
 * const { nbytes, cname, shuffle, typesize } = readBloscHeader(chunk);
 * ```
 */
export function readBloscHeader(input: Uint8Array, key = "(unknown)"): BloscHeader {
  if (input.length < HEADER_SIZE) {
    throw new ZarrError("CODEC_FAILED", `blosc chunk "${key}" is ${input.length} bytes, shorter than the 16-byte header`, {
      key,
    });
  }
  const view = new DataView(input.buffer, input.byteOffset, HEADER_SIZE);
  const flags = input[2];
  const format = flags >>> 5;
  if (format >= FORMAT_NAMES.length) {
    throw new ZarrError("CODEC_FAILED", `blosc chunk "${key}" names compressor code ${format}, which c-blosc 1.x does not have`, {
      key,
    });
  }
  return {
    version: input[0],
    versionlz: input[1],
    flags,
    typesize: input[3],
    nbytes: view.getUint32(4, true),
    blocksize: view.getUint32(8, true),
    cbytes: view.getUint32(12, true),
    cname: FORMAT_NAMES[format],
    shuffle: flags & FLAG_SHUFFLE ? "shuffle" : flags & FLAG_BITSHUFFLE ? "bitshuffle" : "noshuffle",
    memcpyed: (flags & FLAG_MEMCPYED) !== 0,
    dontSplit: (flags & FLAG_DONT_SPLIT) !== 0,
  };
}

/**
 * The largest expansion each inner format allows, so a header claiming more is
 * rejected before anything is allocated: blosclz and LZ4 reach about 255:1 (a run
 * costs one length byte per 255 bytes), Snappy about 22:1 (3 bytes per 64-byte copy),
 * DEFLATE 1032:1, zstd 32768:1 (a 4-byte RLE block yields up to 128 KiB).
 */
export const MAX_RATIO = [256, 256, 32, 1040, 32768];

/**
 * Checks a header against the chunk's length before decoding: version, compressor
 * version, sizes within c-blosc's limits and plausible for the compressor.
 */
export function checkBloscHeader(h: BloscHeader, inputLength: number, key: string): void {
  const fail = (problem: string): never => {
    throw new ZarrError("CODEC_FAILED", `blosc chunk "${key}" is corrupt: ${problem}`, { key });
  };
  if (h.version === 0 || h.version > FORMAT_VERSION) {
    fail(`format version ${h.version} (c-blosc 1.x chunks have version 1 or 2; c-blosc2 chunks are not supported)`);
  }
  if (h.cbytes < HEADER_SIZE) fail(`its header gives a total size of ${h.cbytes} bytes`);
  if (h.cbytes > inputLength) fail(`its header gives a total size of ${h.cbytes} bytes, but only ${inputLength} are present`);
  if (h.nbytes > 0x7fffffff) fail(`it claims ${h.nbytes} decoded bytes (more than 2^31 − 1)`);
  const payload = h.cbytes - HEADER_SIZE;
  if (h.memcpyed) {
    if (payload < h.nbytes) fail(`it stores ${h.nbytes} bytes uncompressed but has only ${payload} after the header`);
    return;
  }
  if (h.nbytes === 0) return;
  if (h.versionlz !== COMPRESSOR_FORMAT_VERSION) fail(`${h.cname} stream format version ${h.versionlz} (expected 1)`);
  if (h.typesize === 0) fail("typesize 0");
  if (h.blocksize === 0) fail("block size 0");
  const ratio = MAX_RATIO[h.flags >>> 5];
  if (h.nbytes > payload * ratio) {
    fail(`it claims ${h.nbytes} decoded bytes from ${payload} compressed bytes, more than ${h.cname} can expand to`);
  }
  const nblocks = Math.ceil(h.nbytes / h.blocksize);
  if (HEADER_SIZE + 4 * nblocks > h.cbytes) fail(`${nblocks} block offsets do not fit in ${h.cbytes} bytes`);
}
