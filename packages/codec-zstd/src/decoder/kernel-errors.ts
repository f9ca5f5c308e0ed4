/**
 * What each error code of the WebAssembly decoder (wasm/_zstd_dec_common.c, `ZD_E_*`, in the
 * same order) means, in the words the TypeScript decoder uses for the same problem, so both
 * paths report corrupt input alike.
 */

/** Codes the caller handles itself rather than reporting as corruption. */
export const KERNEL_DICTIONARY = 7;
export const KERNEL_CONTENT_SIZE = 14;
export const KERNEL_CHECKSUM = 15;
export const KERNEL_OUTPUT_FULL = 16;

/** The problem each code names (index = code). */
const PROBLEMS: readonly string[] = [
  "no error",
  "the input is empty (no zstd frame)",
  "truncated input: stray bytes after the last frame",
  "truncated skippable frame",
  "not zstd data (bad magic number)",
  "truncated frame header",
  "reserved bit set in the frame header",
  "the frame needs a dictionary",
  "truncated block header",
  "reserved block type",
  "a block is over the frame's block limit",
  "truncated block",
  "empty compressed block",
  "truncated content checksum",
  "the frame decodes to another size than its header says",
  "checksum mismatch",
  "the output is full",
  "the blocks decode past the frame's size",
  "block decodes past its size limit",
  "empty Huffman literals",
  "literals section overruns its block",
  "literals over the block limit",
  "treeless literals without a previous Huffman table",
  "truncated Huffman tree description",
  "Huffman weights: empty bitstream",
  "Huffman weights: bitstream without its end mark",
  "Huffman weights: more than 255 weights",
  "Huffman weight over 11",
  "Huffman tree without symbols",
  "Huffman tree deeper than 11 bits",
  "Huffman weights do not complete to a power of 2",
  "Huffman weights describe no valid tree",
  "empty Huffman stream",
  "Huffman stream without its end mark",
  "Huffman stream not consumed exactly",
  "4-stream Huffman literals shorter than 6 bytes",
  "truncated Huffman jump table",
  "Huffman jump table points past the literals",
  "block without a sequences section",
  "truncated sequences section header",
  "bytes after an empty sequences section",
  "reserved bits set in the symbol compression modes",
  "truncated RLE sequence table",
  "RLE sequence code is out of range",
  "truncated FSE table description",
  "FSE accuracy log is over the maximum",
  "FSE table description lists too many symbols",
  "FSE table description does not add up to its table size",
  "FSE table description does not fill its table",
  "Repeat_Mode without a previous sequence table",
  "empty sequence bitstream",
  "sequence bitstream without its end mark",
  "offset code is too large",
  "a sequence takes more literals than the block has",
  "a match offset reaches before the frame's start",
  "sequence bitstream not consumed exactly",
];

/** The problem a kernel error code names. */
export function kernelProblem(code: number): string {
  return PROBLEMS[code] ?? `unknown kernel error ${code}`;
}
