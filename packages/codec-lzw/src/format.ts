/** TIFF LZW's constants (TIFF 6.0, section 13). */

/** Resets the table and the code width. */
export const CLEAR = 256;
/** Ends the stream. */
export const EOI = 257;
/** The first code of a string longer than one byte. */
export const FIRST = 258;
/** Codes start 9 bits wide... */
export const MIN_WIDTH = 9;
/** ...and grow to at most 12. */
export const MAX_WIDTH = 12;
/** 12-bit codes: 4096 entries. */
export const TABLE_SIZE = 4096;
