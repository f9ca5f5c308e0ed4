/**
 * The inner compressors, behind two functions that switch on the header's compressor
 * code (no closures or per-call objects in the block loops): decode one stream into a
 * window of the output, encode one stream into a window of the destination.
 */
import { lz4CompressBlockHCInto, lz4CompressBlockInto, lz4DecompressBlockInto } from "@zarr/codec-lz4";
import { zstdCompress, zstdDecompressInto } from "@zarr/codec-zstd";
import { adler32, ZarrError } from "@zarr/spec";
import { unzlibSync, zlibSync } from "fflate";
import { blosclzCompressInto, blosclzDecompressInto } from "./blosclz.js";
import {
  type BloscCname,
  FORMAT_BLOSCLZ,
  FORMAT_LZ4,
  FORMAT_NAMES,
  FORMAT_SNAPPY,
  FORMAT_ZLIB,
  FORMAT_ZSTD,
} from "./constants.js";
import { snappyCompressInto, snappyDecompressInto } from "./snappy.js";

/** The error of a stream that decoded to `got` bytes instead of its `want`. */
export function wrongSize(format: number, got: number, want: number): ZarrError {
  return new ZarrError("CODEC_FAILED", `${FORMAT_NAMES[format]} stream decoded to ${got} bytes, expected ${want}`);
}

/**
 * Decodes one compressed stream (`src`, exactly the stream's bytes) into
 * `dst[dstStart, dstStart + size)`. Throws `CODEC_FAILED` unless it yields exactly `size` bytes.
 */
export function decodeStream(format: number, src: Uint8Array, dst: Uint8Array, dstStart: number, size: number): void {
  let written: number;
  switch (format) {
    case FORMAT_LZ4:
      written = lz4DecompressBlockInto(src, dst, dstStart, dstStart + size);
      break;
    case FORMAT_BLOSCLZ:
      written = blosclzDecompressInto(src, dst, dstStart, dstStart + size);
      break;
    case FORMAT_ZSTD:
      // Straight into the block's window; throws unless it decodes to exactly `size` bytes.
      zstdDecompressInto(src, dst.subarray(dstStart, dstStart + size));
      written = size;
      break;
    case FORMAT_ZLIB: {
      const window = dst.subarray(dstStart, dstStart + size);
      let out: Uint8Array;
      try {
        out = unzlibSync(src, { out: window });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new ZarrError("CODEC_FAILED", `Corrupt zlib stream: ${detail}`, { cause: error });
      }
      written = out.length;
      if (written === size) {
        // fflate does not check the Adler-32 trailer; zlib (what c-blosc uses) does.
        const end = src.length;
        const stored = end < 6 ? -1 : ((src[end - 4] << 24) | (src[end - 3] << 16) | (src[end - 2] << 8) | src[end - 1]) >>> 0;
        if (adler32(window) !== stored) {
          throw new ZarrError("CODEC_FAILED", "Corrupt zlib stream: Adler-32 checksum mismatch");
        }
      }
      break;
    }
    case FORMAT_SNAPPY:
      written = snappyDecompressInto(src, dst, dstStart, dstStart + size);
      break;
    default:
      throw new ZarrError("CODEC_FAILED", `unknown blosc compressor code ${format}`);
  }
  if (written !== size) throw wrongSize(format, written, size);
}

/** Copies an encoder's output into the destination window when it fits; 0 when not. */
function place(encoded: Uint8Array, dst: Uint8Array, dstStart: number, dstEnd: number): number {
  if (encoded.length > dstEnd - dstStart) return 0;
  dst.set(encoded, dstStart);
  return encoded.length;
}

/**
 * Encodes `src[srcStart, srcStart + size)` as one stream of `cname` into
 * `dst[dstStart, dstEnd)`. Returns the bytes written, or 0 when the stream would not
 * fit (the caller stores the bytes raw). `clevel` is blosc's 1–9 level.
 */
export function encodeStream(
  cname: BloscCname,
  clevel: number,
  src: Uint8Array,
  srcStart: number,
  size: number,
  dst: Uint8Array,
  dstStart: number,
  dstEnd: number,
): number {
  if (dstEnd <= dstStart) return 0;
  switch (cname) {
    case "lz4":
      // c-blosc maps its level to LZ4's acceleration.
      return lz4CompressBlockInto(src.subarray(srcStart, srcStart + size), dst, dstStart, dstEnd, 10 - clevel);
    case "lz4hc":
      return lz4CompressBlockHCInto(src.subarray(srcStart, srcStart + size), dst, dstStart, dstEnd, clevel);
    case "blosclz":
      return blosclzCompressInto(src, srcStart, size, dst, dstStart, dstEnd);
    case "snappy":
      return snappyCompressInto(src, srcStart, size, dst, dstStart, dstEnd);
    case "zlib":
      return place(zlibSync(src.subarray(srcStart, srcStart + size), { level: clevel as 1 }), dst, dstStart, dstEnd);
    case "zstd":
      // c-blosc's zstd levels: 2·clevel − 1, and zstd's maximum (22) for clevel 9.
      return place(zstdCompress(src.subarray(srcStart, srcStart + size), clevel < 9 ? 2 * clevel - 1 : 22, false), dst, dstStart, dstEnd);
  }
}
