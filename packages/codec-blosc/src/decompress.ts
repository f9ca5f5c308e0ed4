/**
 * Decoding a c-blosc 1.x chunk: header, then one int32 start offset per block, then
 * the blocks. A block is one stream, or (when split) `typesize` streams, one per byte
 * of the element; each stream is an int32 compressed size and the compressed bytes,
 * stored raw when that size equals the stream's decoded size. Blocks decompress
 * straight into the output, or into a reused scratch buffer that is then unshuffled
 * into the output.
 */
import { decodedSizeExceeded, ZarrError } from "@zarr/spec";
import { allocUninitialized } from "./alloc.js";
import { bitShuffleApplies, bitUnshuffle } from "./bitshuffle.js";
import { bloscKernel, decodeLz4Chunk, lz4ChunkDecodeBytes, unshuffleBytes, unshuffleChunk } from "./blosc-kernel.js";
import {
  FLAG_BITSHUFFLE,
  FLAG_DONT_SPLIT,
  FLAG_SHUFFLE,
  FORMAT_LZ4,
  HEADER_SIZE,
  MAX_SPLITS,
  MIN_BUFFERSIZE,
} from "./constants.js";
import { type BloscHeader, checkBloscHeader, MAX_RATIO, readBloscHeader } from "./header.js";
import { decodeStream } from "./inner.js";
import { byteUnshuffle } from "./shuffle.js";

/** Scratch buffers up to this size are kept for the next call. */
const KEEP_SCRATCH = 4 << 20;
let scratch = new Uint8Array(0);

function scratchOf(size: number): Uint8Array {
  if (scratch.length >= size) return scratch;
  const buffer = new Uint8Array(size);
  if (size <= KEEP_SCRATCH) scratch = buffer;
  return buffer;
}

function readInt32(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

function corrupt(key: string, problem: string): never {
  throw new ZarrError("CODEC_FAILED", `blosc chunk "${key}" is corrupt: ${problem}`, { key });
}

/**
 * Decodes a blosc (c-blosc 1.x format) chunk. `key` names the chunk in error messages.
 * Throws `CODEC_FAILED` for corrupt or truncated input: every block offset and stream
 * size is checked against the input before the output is allocated, and the output is
 * never larger than the header's decoded size (itself checked against what the
 * compressed bytes can expand to, and against `maxSize` when given). With `into` at least
 * as long as the decoded chunk, the chunk is decoded into its start and a view of it is
 * returned (no allocation).
 *
 * @example
 * ```ts
 * const bytes = bloscDecompress(chunk, "temperature/c/0/0");
 * const values = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
 * ```
 */
export function bloscDecompress(input: Uint8Array, key = "(unknown)", into?: Uint8Array, maxSize?: number): Uint8Array {
  const h = readBloscHeader(input, key);
  checkBloscHeader(h, input.length, key);
  const nbytes = h.nbytes;
  if (maxSize !== undefined && nbytes > maxSize) throw decodedSizeExceeded("blosc", { key, maxDecodedBytes: maxSize }, nbytes);
  if (nbytes === 0) return new Uint8Array(0);
  if (!h.memcpyed) checkStreams(input, h.cbytes, h.flags, h.typesize, nbytes, h.blocksize, key);
  let out: Uint8Array;
  try {
    out = into !== undefined && into.length >= nbytes ? into.subarray(0, nbytes) : allocUninitialized(nbytes);
  } catch (error) {
    throw new ZarrError("CODEC_FAILED", `blosc chunk "${key}" needs ${nbytes} bytes, which cannot be allocated`, {
      key,
      cause: error,
    });
  }
  if (h.memcpyed) {
    out.set(input.subarray(HEADER_SIZE, HEADER_SIZE + nbytes));
    return out;
  }
  try {
    decodeChunk(input, h, out);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const code = error instanceof ZarrError && error.code === "CHECKSUM_MISMATCH" ? error.code : "CODEC_FAILED";
    throw new ZarrError(code, `Cannot decode blosc chunk "${key}": ${detail}`, { key, cause: error });
  }
  return out;
}

/** The block layout both passes share: block size, count and the size of the last one. */
function blockCount(nbytes: number, blocksize: number): number {
  return Math.ceil(nbytes / Math.min(blocksize, nbytes));
}

/** Number of streams c-blosc's decoder reads for a block (the split rule of its decoder). */
function splitsOf(flags: number, typesize: number, bsize: number, isLeftover: boolean): number {
  const split =
    (flags & FLAG_DONT_SPLIT) === 0 && !isLeftover && typesize <= MAX_SPLITS && Math.floor(bsize / typesize) >= MIN_BUFFERSIZE;
  return split ? typesize : 1;
}

/**
 * Checks every block offset and stream size against the chunk before anything is
 * allocated: offsets and sizes inside the chunk, streams that divide their block, and
 * no stream claiming to expand beyond what its compressor can.
 */
function checkStreams(
  input: Uint8Array,
  cbytes: number,
  flags: number,
  typesize: number,
  nbytes: number,
  blocksize: number,
  key: string,
): void {
  const ratio = MAX_RATIO[flags >>> 5];
  const block = Math.min(blocksize, nbytes);
  const nblocks = blockCount(nbytes, blocksize);
  const leftover = nbytes % block;
  for (let j = 0; j < nblocks; j++) {
    const isLeftover = j === nblocks - 1 && leftover > 0;
    const bsize = isLeftover ? leftover : block;
    const nsplits = splitsOf(flags, typesize, bsize, isLeftover);
    if (bsize % nsplits !== 0) corrupt(key, `block ${j} of ${bsize} bytes cannot be split into ${nsplits} streams`);
    const neblock = bsize / nsplits;
    let sp = readInt32(input, HEADER_SIZE + 4 * j);
    for (let s = 0; s < nsplits; s++) {
      if (sp < HEADER_SIZE || sp > cbytes - 4) corrupt(key, `stream ${s} of block ${j} starts at ${sp}, outside the chunk`);
      const csize = readInt32(input, sp);
      sp += 4;
      if (csize < 0 || csize > cbytes - sp) {
        corrupt(key, `stream ${s} of block ${j} claims ${csize} bytes, beyond the end of the chunk`);
      }
      if (csize !== neblock && neblock > csize * ratio) {
        corrupt(key, `stream ${s} of block ${j} claims to expand ${csize} bytes to ${neblock}`);
      }
      sp += csize;
    }
  }
}

/**
 * Decodes a chunk that {@link checkStreams} accepted: LZ4 chunks wholly in the WebAssembly
 * kernel, other filtered chunks with their streams decoded here and unshuffled in the
 * kernel, the rest (or all, without a kernel) in TypeScript.
 */
function decodeChunk(input: Uint8Array, h: BloscHeader, out: Uint8Array): void {
  const { cbytes, flags, typesize, nbytes, blocksize } = h;
  const block = Math.min(blocksize, nbytes);
  if (flags >>> 5 === FORMAT_LZ4) {
    const kernel = bloscKernel(lz4ChunkDecodeBytes(cbytes, nbytes, block));
    if (kernel !== undefined) {
      decodeLz4Chunk(kernel, input, cbytes, nbytes, block, out);
      return;
    }
  } else if (((flags & FLAG_SHUFFLE) !== 0 && typesize > 1) || (flags & FLAG_BITSHUFFLE) !== 0) {
    const kernel = bloscKernel(unshuffleBytes(nbytes));
    const streamsOnly = flags & ~(FLAG_SHUFFLE | FLAG_BITSHUFFLE);
    if (kernel !== undefined) {
      unshuffleChunk(kernel, nbytes, blocksize, typesize, flags, out, (shuffled) =>
        decodeBlocks(input, streamsOnly, typesize, nbytes, blocksize, shuffled),
      );
      return;
    }
  }
  decodeBlocks(input, flags, typesize, nbytes, blocksize, out);
}

/** Decodes the blocks of a chunk that {@link checkStreams} accepted, in TypeScript. */
function decodeBlocks(input: Uint8Array, flags: number, typesize: number, nbytes: number, blocksize: number, out: Uint8Array): void {
  const format = flags >>> 5;
  const block = Math.min(blocksize, nbytes);
  const nblocks = blockCount(nbytes, blocksize);
  const leftover = nbytes % block;
  const byteShuffled = (flags & FLAG_SHUFFLE) !== 0 && typesize > 1;
  const bitShuffled = !byteShuffled && (flags & FLAG_BITSHUFFLE) !== 0;
  const tmp = byteShuffled || bitShuffled ? scratchOf(block) : out;

  for (let j = 0; j < nblocks; j++) {
    const isLeftover = j === nblocks - 1 && leftover > 0;
    const bsize = isLeftover ? leftover : block;
    const dstStart = j * block;
    // c-blosc bit-shuffles a block only when it holds a multiple of 8 elements.
    const unshuffle = byteShuffled || (bitShuffled && bsize >= typesize && bitShuffleApplies(bsize, typesize));
    const target = unshuffle ? tmp : out;
    const targetStart = unshuffle ? 0 : dstStart;
    const nsplits = splitsOf(flags, typesize, bsize, isLeftover);
    const neblock = bsize / nsplits;
    let sp = readInt32(input, HEADER_SIZE + 4 * j);
    for (let s = 0; s < nsplits; s++) {
      const csize = readInt32(input, sp);
      sp += 4;
      const streamStart = targetStart + s * neblock;
      if (csize === neblock) {
        target.set(input.subarray(sp, sp + neblock), streamStart);
      } else {
        decodeStream(format, input.subarray(sp, sp + csize), target, streamStart, neblock);
      }
      sp += csize;
    }
    if (byteShuffled) byteUnshuffle(tmp, 0, out, dstStart, bsize, typesize);
    else if (unshuffle) bitUnshuffle(tmp, 0, out, dstStart, bsize, typesize);
  }
}
