/** The c-blosc 1.x header: flag bits, compressor codes and limits. */

/** Size of the header every blosc chunk starts with. */
export const HEADER_SIZE = 16;
/** c-blosc 1.x writes format version 2. */
export const FORMAT_VERSION = 2;
/** Version of every inner compressor's stream format in c-blosc 1.x. */
export const COMPRESSOR_FORMAT_VERSION = 1;

/** Flag: the blocks are byte-shuffled. */
export const FLAG_SHUFFLE = 0x01;
/** Flag: the data is stored uncompressed right after the header. */
export const FLAG_MEMCPYED = 0x02;
/** Flag: the blocks are bit-shuffled. */
export const FLAG_BITSHUFFLE = 0x04;
/** Flag: blocks are not split into one stream per byte of the element. */
export const FLAG_DONT_SPLIT = 0x10;

/** Buffers smaller than this are always stored uncompressed. */
export const MIN_BUFFERSIZE = 128;
/** Blocks are split only for element sizes up to this. */
export const MAX_SPLITS = 16;
/** Element sizes above this are treated as 1 (c-blosc's BLOSC_MAX_TYPESIZE). */
export const MAX_TYPESIZE = 255;
/** Largest input c-blosc accepts (INT32_MAX − 16). */
export const MAX_BUFFERSIZE = 0x7fffffff - HEADER_SIZE;

/** Compressor names as numcodecs and Zarr spell them. */
export type BloscCname = "blosclz" | "lz4" | "lz4hc" | "snappy" | "zlib" | "zstd";
/** All compressor names. */
export const CNAMES: readonly BloscCname[] = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"];

/** Compressor format codes stored in flag bits 5–7 (lz4 and lz4hc share one). */
export const FORMAT_BLOSCLZ = 0;
export const FORMAT_LZ4 = 1;
export const FORMAT_SNAPPY = 2;
export const FORMAT_ZLIB = 3;
export const FORMAT_ZSTD = 4;

/** The header format code of each compressor. */
export function formatOf(cname: BloscCname): number {
  switch (cname) {
    case "blosclz":
      return FORMAT_BLOSCLZ;
    case "lz4":
    case "lz4hc":
      return FORMAT_LZ4;
    case "snappy":
      return FORMAT_SNAPPY;
    case "zlib":
      return FORMAT_ZLIB;
    case "zstd":
      return FORMAT_ZSTD;
  }
}

/** The name of a header format code, for messages ("lz4" covers lz4hc). */
export const FORMAT_NAMES = ["blosclz", "lz4", "snappy", "zlib", "zstd"] as const;
