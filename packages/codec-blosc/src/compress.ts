/**
 * Encoding a c-blosc 1.x chunk the way c-blosc 1.21 does: the same block size, split
 * and shuffle decisions, streams stored raw when compressing them does not shrink them,
 * and the whole chunk stored uncompressed ("memcpyed") for clevel 0, inputs under
 * 128 bytes, or when the compressed chunk would not fit in `nbytes + 16` bytes.
 */
import { ZarrError } from "@zarr/spec";
import { bitShuffle } from "./bitshuffle.js";
import { computeBlocksize, splitBlock } from "./blocksize.js";
import { bloscKernel, encodeLz4Chunk, lz4ChunkEncodeBytes, shuffleBytes, shuffleChunk } from "./blosc-kernel.js";
import {
  type BloscCname,
  CNAMES,
  COMPRESSOR_FORMAT_VERSION,
  FLAG_BITSHUFFLE,
  FLAG_DONT_SPLIT,
  FLAG_MEMCPYED,
  FLAG_SHUFFLE,
  FORMAT_VERSION,
  formatOf,
  HEADER_SIZE,
  MAX_BUFFERSIZE,
  MAX_TYPESIZE,
  MIN_BUFFERSIZE,
} from "./constants.js";
import { encodeStream } from "./inner.js";
import { byteShuffle } from "./shuffle.js";

/** Shuffle names, and numcodecs' numbers: 0 none, 1 byte, 2 bit, −1 automatic. */
export type BloscShuffle = "noshuffle" | "shuffle" | "bitshuffle" | 0 | 1 | 2 | -1;

/** Options of {@link bloscCompress}. */
export interface BloscCompressOptions {
  /** Inner compressor; default "lz4". */
  cname?: BloscCname;
  /** 0 (store) to 9; default 5. */
  clevel?: number;
  /** Default "shuffle". −1 (numcodecs' AUTOSHUFFLE) means "shuffle" when typesize > 1, else "bitshuffle". */
  shuffle?: BloscShuffle;
  /** Element size in bytes (1–255; larger is treated as 1, as c-blosc does); default 1. */
  typesize?: number;
  /** Block size in bytes; 0 (default) lets c-blosc's rule choose. */
  blocksize?: number;
}

/** The shuffle mode as 0 (none), 1 (byte) or 2 (bit) for a given element size. */
export function shuffleMode(shuffle: BloscShuffle, typesize: number): 0 | 1 | 2 {
  switch (shuffle) {
    case "noshuffle":
    case 0:
      return 0;
    case "shuffle":
    case 1:
      return 1;
    case "bitshuffle":
    case 2:
      return 2;
    case -1:
      return typesize > 1 ? 1 : 2;
  }
  throw new ZarrError("INVALID_ARGUMENT", `blosc shuffle must be "noshuffle", "shuffle", "bitshuffle", 0, 1, 2 or -1, got ${String(shuffle)}`);
}

const KEEP_SCRATCH = 4 << 20;
let outScratch = new Uint8Array(0);
let shuffleScratch = new Uint8Array(0);

function outBuffer(size: number): Uint8Array {
  if (outScratch.length >= size) return outScratch;
  const buffer = new Uint8Array(size);
  if (size <= KEEP_SCRATCH) outScratch = buffer;
  return buffer;
}

function shuffleBuffer(size: number): Uint8Array {
  if (shuffleScratch.length >= size) return shuffleScratch;
  const buffer = new Uint8Array(size);
  if (size <= KEEP_SCRATCH) shuffleScratch = buffer;
  return buffer;
}

function writeInt32(b: Uint8Array, i: number, v: number): void {
  b[i] = v;
  b[i + 1] = v >>> 8;
  b[i + 2] = v >>> 16;
  b[i + 3] = v >>> 24;
}

function writeHeader(
  out: Uint8Array,
  flags: number,
  typesize: number,
  nbytes: number,
  blocksize: number,
  cbytes: number,
): void {
  out[0] = FORMAT_VERSION;
  out[1] = COMPRESSOR_FORMAT_VERSION;
  out[2] = flags;
  out[3] = typesize;
  writeInt32(out, 4, nbytes);
  writeInt32(out, 8, blocksize);
  writeInt32(out, 12, cbytes);
}

function checkInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ZarrError("INVALID_ARGUMENT", `blosc ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
}

/**
 * Compresses `input` into a blosc (c-blosc 1.x format) chunk that numcodecs, c-blosc
 * and zarr-python read. Throws `INVALID_ARGUMENT` for bad options or inputs over
 * 2^31 − 17 bytes.
 *
 * @example
 * ```ts
 * const chunk = bloscCompress(new Uint8Array(new Float32Array(1024).buffer), {
 *   cname: "zstd", clevel: 5, shuffle: "bitshuffle", typesize: 4,
 * });
 * ```
 */
export function bloscCompress(input: Uint8Array, options: BloscCompressOptions = {}): Uint8Array {
  const cname = options.cname ?? "lz4";
  if (!CNAMES.includes(cname)) {
    throw new ZarrError("INVALID_ARGUMENT", `blosc cname must be one of ${CNAMES.join(", ")}, got ${String(cname)}`);
  }
  const clevel = options.clevel ?? 5;
  checkInteger("clevel", clevel, 0, 9);
  const requestedTypesize = options.typesize ?? 1;
  checkInteger("typesize", requestedTypesize, 1, Number.MAX_SAFE_INTEGER);
  const typesize = requestedTypesize > MAX_TYPESIZE ? 1 : requestedTypesize;
  const forced = options.blocksize ?? 0;
  checkInteger("blocksize", forced, 0, 0x7fffffff);
  const mode = shuffleMode(options.shuffle ?? "shuffle", typesize);
  const nbytes = input.length;
  if (nbytes > MAX_BUFFERSIZE) {
    throw new ZarrError("INVALID_ARGUMENT", `blosc cannot compress ${nbytes} bytes (the limit is ${MAX_BUFFERSIZE})`);
  }

  const blocksize = computeBlocksize(cname, clevel, typesize, nbytes, forced);
  const dontSplit = !splitBlock(cname, typesize, blocksize);
  let flags = (formatOf(cname) << 5) | (dontSplit ? FLAG_DONT_SPLIT : 0);
  if (mode === 1) flags |= FLAG_SHUFFLE;
  else if (mode === 2) flags |= FLAG_BITSHUFFLE;

  if (clevel > 0 && nbytes >= MIN_BUFFERSIZE) {
    const chunk = compressChunk(input, { cname, clevel, mode, typesize, blocksize, dontSplit });
    if (chunk !== undefined) {
      writeHeader(chunk, flags, typesize, nbytes, blocksize, chunk.length);
      return chunk;
    }
  }
  // Stored uncompressed: the header, then the input as is.
  const out = new Uint8Array(nbytes + HEADER_SIZE);
  writeHeader(out, flags | FLAG_MEMCPYED, typesize, nbytes, blocksize, nbytes + HEADER_SIZE);
  out.set(input, HEADER_SIZE);
  return out;
}

/** How a chunk is encoded: compressor, level, filter (0 none, 1 byte, 2 bit), element and block size, split. */
interface ChunkLayout {
  cname: BloscCname;
  clevel: number;
  mode: 0 | 1 | 2;
  typesize: number;
  blocksize: number;
  dontSplit: boolean;
}

/**
 * The compressed chunk with room for its header, or `undefined` when it does not fit in
 * `nbytes + 16` bytes. LZ4 chunks are encoded wholly in the WebAssembly kernel; other
 * compressors' filtered chunks are shuffled in it and their streams encoded here; the
 * rest (or all, without a kernel) in TypeScript. Both paths write the same bytes.
 */
function compressChunk(input: Uint8Array, layout: ChunkLayout): Uint8Array | undefined {
  const { cname, clevel, mode, typesize, blocksize, dontSplit } = layout;
  const nbytes = input.length;
  let src = input;
  let filter = mode;
  if (cname === "lz4") {
    const kernel = bloscKernel(lz4ChunkEncodeBytes(nbytes, blocksize));
    // c-blosc maps its level to LZ4's acceleration.
    if (kernel !== undefined) return encodeLz4Chunk(kernel, input, typesize, blocksize, mode, dontSplit, 10 - clevel);
  } else if (mode !== 0) {
    const kernel = bloscKernel(shuffleBytes(nbytes));
    if (kernel !== undefined) {
      src = shuffleChunk(kernel, input, blocksize, typesize, mode);
      filter = 0;
    }
  }
  const out = outBuffer(nbytes + HEADER_SIZE);
  const cbytes = compressBlocks(src, out, { ...layout, mode: filter });
  return cbytes > 0 ? out.slice(0, cbytes) : undefined;
}

/**
 * Writes the block offsets and blocks after the header; returns the chunk's total size,
 * or 0 when it does not fit in `nbytes + 16` bytes (the chunk is then memcpyed).
 */
function compressBlocks(input: Uint8Array, out: Uint8Array, layout: ChunkLayout): number {
  const { cname, clevel, mode, typesize, blocksize, dontSplit } = layout;
  const nbytes = input.length;
  const maxbytes = nbytes + HEADER_SIZE;
  const nblocks = Math.ceil(nbytes / blocksize);
  const leftover = nbytes % blocksize;
  let ntbytes = HEADER_SIZE + 4 * nblocks;
  if (ntbytes > maxbytes) return 0;
  const tmp = mode === 0 ? input : shuffleBuffer(blocksize);

  for (let j = 0; j < nblocks; j++) {
    writeInt32(out, HEADER_SIZE + 4 * j, ntbytes);
    const isLeftover = j === nblocks - 1 && leftover > 0;
    const bsize = isLeftover ? leftover : blocksize;
    const blockStart = j * blocksize;
    let src = input;
    let srcStart = blockStart;
    if (mode === 1 && typesize > 1) {
      byteShuffle(input, blockStart, tmp, 0, bsize, typesize);
      src = tmp;
      srcStart = 0;
    } else if (mode === 2 && bsize >= typesize) {
      bitShuffle(input, blockStart, tmp, 0, bsize, typesize);
      src = tmp;
      srcStart = 0;
    }
    const nsplits = !dontSplit && !isLeftover ? typesize : 1;
    const neblock = Math.floor(bsize / nsplits);
    for (let s = 0; s < nsplits; s++) {
      const sizeAt = ntbytes;
      ntbytes += 4;
      // A stream must come out smaller than its input, or it is stored raw.
      const room = Math.min(neblock - 1, maxbytes - ntbytes);
      const streamStart = srcStart + s * neblock;
      let csize = room > 0 ? encodeStream(cname, clevel, src, streamStart, neblock, out, ntbytes, ntbytes + room) : 0;
      if (csize === 0) {
        if (ntbytes + neblock > maxbytes) return 0;
        out.set(src.subarray(streamStart, streamStart + neblock), ntbytes);
        csize = neblock;
      }
      writeInt32(out, sizeAt, csize);
      ntbytes += csize;
    }
  }
  return ntbytes;
}
