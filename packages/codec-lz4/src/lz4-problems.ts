/**
 * What can be wrong with a corrupt LZ4 block: the messages of the TypeScript decoder, and
 * of the WebAssembly kernels, which return the problem's number negated (`LZ4_ERR_*` in
 * wasm/_lz4_decode.c), so both paths fail with the same error.
 */
import { ZarrError } from "@zarr/spec";

/** The kernel error numbers (`LZ4_ERR_*` in wasm/_lz4_decode.c). */
export const LZ4_ERR = {
  empty: 1,
  literalLength: 2,
  literals: 3,
  output: 4,
  offsetTruncated: 5,
  matchLength: 6,
  offsetZero: 7,
  offsetBefore: 8,
} as const;

/** The problems, at the index of their kernel error number (0 is not an error). */
export const LZ4_PROBLEMS = [
  "",
  "the block is empty (even an empty input encodes to one byte)",
  "literal length runs past the end of the block",
  "literals run past the end of the block",
  "output is larger than expected",
  "truncated match offset",
  "match length runs past the end of the block",
  "match offset 0",
  "match offset points before the start of the output",
] as const;

/** The error of a corrupt LZ4 block. */
export function corruptLz4(problem: string): ZarrError {
  return new ZarrError("CODEC_FAILED", `Corrupt LZ4 block: ${problem}`);
}

/**
 * The `CODEC_FAILED` error for an LZ4 kernel's error number (1–8, as the kernels of
 * @zarr/codec-lz4 and @zarr/codec-blosc return it negated): the error the TypeScript
 * decoder throws for the same block; `undefined` for a number that is not an LZ4 error.
 *
 * @example
 * ```ts
 * console.log(lz4KernelError(7)?.message); // Corrupt LZ4 block: match offset 0
 * ```
 */
export function lz4KernelError(code: number): ZarrError | undefined {
  return code >= 1 && code < LZ4_PROBLEMS.length ? corruptLz4(LZ4_PROBLEMS[code]) : undefined;
}
