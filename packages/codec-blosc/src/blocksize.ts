/**
 * How c-blosc 1.21 (the version numcodecs 0.11 bundles) chooses the block size and
 * whether blocks are split into per-byte streams. Checked against the library itself:
 * the interop tests compare the header fields numcodecs writes with ours.
 */
import type { BloscCname } from "./constants.js";
import { MAX_SPLITS, MIN_BUFFERSIZE } from "./constants.js";

const L1 = 32 * 1024;
/** c-blosc's BLOSC_MAX_BLOCKSIZE for a forced block size. */
const MAX_BLOCKSIZE = 0x7fffffff - 255 * 4;

/** Compressors meant for high compression ratios get larger blocks. */
function highRatio(cname: BloscCname): boolean {
  return cname === "lz4hc" || cname === "zlib" || cname === "zstd";
}

/**
 * c-blosc's "forward compatible" split rule: split a block into `typesize` streams
 * unless the compressor is zstd, the element is larger than 16 bytes, or the block
 * holds fewer than 128 elements.
 */
export function splitBlock(cname: BloscCname, typesize: number, blocksize: number): boolean {
  return cname !== "zstd" && typesize <= MAX_SPLITS && Math.floor(blocksize / typesize) >= MIN_BUFFERSIZE;
}

/**
 * c-blosc's compute_blocksize: the block size for `nbytes` bytes of `typesize`-byte
 * elements at compression level `clevel`; `forced` > 0 requests a block size (clamped
 * to at least 128 bytes).
 */
export function computeBlocksize(
  cname: BloscCname,
  clevel: number,
  typesize: number,
  nbytes: number,
  forced: number,
): number {
  if (nbytes < typesize) return 1;
  let blocksize = nbytes;
  if (forced > 0) {
    blocksize = Math.min(Math.max(forced, MIN_BUFFERSIZE), MAX_BLOCKSIZE);
  } else if (nbytes >= L1) {
    blocksize = highRatio(cname) ? 2 * L1 : L1;
    switch (clevel) {
      case 0:
        blocksize /= 4;
        break;
      case 1:
        blocksize /= 2;
        break;
      case 2:
        break;
      case 3:
        blocksize *= 2;
        break;
      case 4:
      case 5:
        blocksize *= 4;
        break;
      case 6:
      case 7:
      case 8:
        blocksize *= 8;
        break;
      default:
        blocksize *= highRatio(cname) ? 16 : 8;
        break;
    }
  }
  // Splitting compressors work on one stream per byte: size the streams, not the block.
  if (clevel > 0 && splitBlock(cname, typesize, blocksize)) {
    if (blocksize > 1 << 18) blocksize = 1 << 18;
    blocksize *= typesize;
    if (blocksize < 1 << 16) blocksize = 1 << 16;
    if (blocksize > 1 << 20) blocksize = 1 << 20;
  }
  if (blocksize > nbytes) blocksize = nbytes;
  if (blocksize > typesize) blocksize = Math.floor(blocksize / typesize) * typesize;
  return blocksize;
}
