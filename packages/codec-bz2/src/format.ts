/** Constants of the bzip2 stream format shared by the encoder and the decoder. */

/** Block header magic 0x314159265359 (BCD pi), as two 24-bit halves. */
export const BLOCK_MAGIC_HI = 0x314159;
export const BLOCK_MAGIC_LO = 0x265359;
/** End-of-stream magic 0x177245385090 (BCD sqrt(pi)), as two 24-bit halves. */
export const EOS_MAGIC_HI = 0x177245;
export const EOS_MAGIC_LO = 0x385090;

/** Bytes of a block (after the first run-length stage) per block-size level. */
export const BLOCK_SIZE_UNIT = 100_000;
/** Symbols coded with one Huffman table before the next selector applies. */
export const GROUP_SIZE = 50;
/** Fewest and most Huffman tables a block may carry. */
export const MIN_TABLES = 2;
export const MAX_TABLES = 6;
/** Longest code length the format can express. */
export const MAX_CODE_LEN = 20;
/** The most selectors a decoder needs to keep (900 000 / 50 + 2); more may be present. */
export const MAX_SELECTORS = 18_002;
/**
 * The largest alphabet (RUNA, RUNB, MTF positions 1–255, end-of-block), used as the
 * stride of per-table arrays indexed by symbol.
 */
export const ALPHA_STRIDE = 258;
