/**
 * zstd decompression (RFC 8878) for untrusted chunks. The input is scanned first
 * (frame-scan.ts: structure, sizes, truncation, dictionary IDs); the output is then
 * allocated once from the declared sizes — or, for frames without Frame_Content_Size,
 * grown geometrically up to what the blocks present can produce — and every frame is
 * decoded into it by this package's block decoder, its XXH64 checksum verified.
 *
 * Where the WebAssembly kernel runs (kernel.ts), it decodes every frame instead, into an
 * output span of the same size: the declared total, or for frames without a declared size
 * the same first guess, doubled and decoded again while the span fills up before the limit.
 */
import { ZarrError } from "@zarr/spec";
import { zstdChecksum } from "../xxh64.js";
import { ZstdCorruption } from "./corrupt.js";
import { decodeFrame, OutputBuffer } from "./frame.js";
import { type FrameInfo, scanFrames } from "./frame-scan.js";
import { type KernelFailure, kernelDecode, prepareDecodeKernel } from "./kernel.js";
import { KERNEL_CHECKSUM, KERNEL_CONTENT_SIZE, KERNEL_OUTPUT_FULL, kernelProblem } from "./kernel-errors.js";

/** Largest decoded output accepted (2 GiB − 1: positions stay int32), whatever a header claims. */
export const MAX_DECODED_SIZE = 2 ** 31 - 1;

/**
 * First allocation for a frame without a declared size, per byte of compressed frame
 * (at least 1 MiB, at most what its blocks can produce); the buffer doubles from there.
 */
const UNKNOWN_SIZE_GUESS_RATIO = 16;

/**
 * Decodes every frame of `input`. `key` names the chunk in error messages;
 * `expectedSize`, when given, must equal the decoded size. `into` is a buffer to decode
 * into: with `expectedSize` (its length) it is filled exactly; without, its start is used
 * when the frames declare their sizes and they fit, else a new buffer is allocated.
 * `maxSize` bounds the output: frames declaring more fail before anything is allocated,
 * and frames without a declared size stop growing the output there and fail.
 */
export function decodeFrames(
  input: Uint8Array,
  expectedSize: number | undefined,
  key: string | undefined,
  into?: Uint8Array,
  maxSize: number = MAX_DECODED_SIZE,
): Uint8Array {
  const where = key === undefined ? "the input" : `chunk "${key}"`;
  const fail = (problem: string, cause?: unknown): never => {
    throw new ZarrError("CODEC_FAILED", `zstd: cannot decode ${where}: ${problem}`, { key, cause });
  };
  if (expectedSize !== undefined && (!Number.isSafeInteger(expectedSize) || expectedSize < 0)) {
    throw new ZarrError("INVALID_ARGUMENT", `zstd: expectedSize must be a non-negative integer, got ${expectedSize}`, {
      key,
    });
  }
  const frames = scanFrames(input, where, key);

  let knownTotal = 0;
  let allKnown = true;
  let bound = 0;
  let guess = 0;
  for (const f of frames) {
    if (f.contentSize < 0) {
      allKnown = false;
      guess += Math.min(f.maxDecodedSize, Math.max(1 << 20, UNKNOWN_SIZE_GUESS_RATIO * (f.end - f.start)));
    } else {
      knownTotal += f.contentSize;
      guess += f.contentSize;
    }
    bound += f.maxDecodedSize;
  }
  // Declared sizes are checked against the limits before anything is allocated.
  const limit = Math.min(MAX_DECODED_SIZE, maxSize);
  if (knownTotal > limit) fail(`the frames declare ${knownTotal} bytes, over the ${limit}-byte limit`);
  if (expectedSize !== undefined && (allKnown ? knownTotal !== expectedSize : knownTotal > expectedSize)) {
    fail(`the frames declare ${knownTotal} bytes of content, expected ${expectedSize}`);
  }
  // The most the output may ever hold: the limit, the expected size, what the blocks can produce.
  const maxTotal = Math.min(limit, expectedSize ?? limit, bound);
  // Decoding into the caller's buffer never grows it: all of it when the size is expected,
  // its start when the declared sizes fit.
  let target = into;
  if (into !== undefined && expectedSize === undefined) {
    target = allKnown && knownTotal <= into.length ? into.subarray(0, knownTotal) : undefined;
  }
  const firstCapacity = target?.length ?? Math.min(guess, maxTotal);
  const decoded = decodeWithKernel(input, frames, firstCapacity, maxTotal, target, where, key);
  if (decoded !== undefined) {
    if (expectedSize !== undefined && decoded.length !== expectedSize) {
      fail(`the data decodes to ${decoded.length} bytes, expected ${expectedSize}`);
    }
    return decoded;
  }
  const out = new OutputBuffer(target ?? firstCapacity);

  let op = 0;
  let knownLeft = knownTotal;
  for (const f of frames) {
    const frameStart = op;
    // A frame without a declared size may use what its blocks can produce, within what
    // the limits leave after the declared sizes of the frames still to come.
    if (f.contentSize >= 0) knownLeft -= f.contentSize;
    const limit =
      f.contentSize >= 0 ? frameStart + f.contentSize : Math.min(frameStart + f.maxDecodedSize, maxTotal - knownLeft);
    try {
      op = decodeFrame(input, f, out, op, limit);
    } catch (error) {
      if (error instanceof ZarrError) throw error;
      // A frame without a declared size stopped where the bound, not its own blocks, ends it.
      if (f.contentSize < 0 && limit < frameStart + f.maxDecodedSize && error instanceof ZstdCorruption && error.message.includes("past")) {
        const at = ` (${error.message})`;
        return fail(`the frame at offset ${f.start} decodes to more than the ${maxTotal}-byte limit${at}`, error);
      }
      const problem = error instanceof ZstdCorruption ? error.message : `unexpected failure (${String(error)})`;
      return fail(`corrupt frame at offset ${f.start} (${problem})`, error);
    }
    if (f.contentSize >= 0 && op - frameStart !== f.contentSize) {
      fail(`the frame at offset ${f.start} decoded to ${op - frameStart} bytes, its header says ${f.contentSize}`);
    }
    verifyChecksum(f, out.bytes.subarray(frameStart, op), where, key);
  }
  if (expectedSize !== undefined && op !== expectedSize) {
    fail(`the data decodes to ${op} bytes, expected ${expectedSize}`);
  }
  const bytes = out.bytes;
  // Sized output is exact; grown output is trimmed so callers get a buffer of their data alone.
  return op === bytes.length ? bytes : bytes.slice(0, op);
}

/**
 * Every frame decoded by the WebAssembly kernel into `capacity` bytes (copied to `target` when
 * given), or undefined when no kernel runs on this thread now. Frames without a declared size
 * that fill the span are decoded again into one twice as large, up to `maxTotal`.
 */
function decodeWithKernel(
  input: Uint8Array,
  frames: readonly FrameInfo[],
  capacity: number,
  maxTotal: number,
  target: Uint8Array | undefined,
  where: string,
  key: string | undefined,
): Uint8Array | undefined {
  for (;;) {
    const outcome = kernelDecode(input, capacity, target, where);
    if (outcome === undefined || outcome.ok) return outcome?.bytes;
    if (outcome.code !== KERNEL_OUTPUT_FULL || target !== undefined || capacity >= maxTotal) {
      throw kernelError(outcome, frames, maxTotal, where, key);
    }
    capacity = Math.min(maxTotal, Math.max(2 * capacity, 1 << 16));
  }
}

/** The error for a kernel failure: the TypeScript path's code and wording for the same problem. */
function kernelError(failure: KernelFailure, frames: readonly FrameInfo[], maxTotal: number, where: string, key: string | undefined): ZarrError {
  const at = failure.frameOffset;
  const problem = (text: string) => new ZarrError("CODEC_FAILED", `zstd: cannot decode ${where}: ${text}`, { key });
  switch (failure.code) {
    case KERNEL_CHECKSUM:
      return checksumMismatch(at, failure.storedChecksum, failure.actualChecksum, where, key);
    case KERNEL_CONTENT_SIZE: {
      const declared = frames.find((f) => f.start === at)?.contentSize;
      return problem(`the frame at offset ${at} decoded to ${failure.decoded} bytes, its header says ${declared}`);
    }
    case KERNEL_OUTPUT_FULL:
      return problem(`the frame at offset ${at} decodes to more than the ${maxTotal}-byte limit`);
    default:
      return problem(`corrupt frame at offset ${at} (${kernelProblem(failure.code)})`);
  }
}

function checksumMismatch(start: number, stored: number, actual: number, where: string, key: string | undefined): ZarrError {
  return new ZarrError(
    "CHECKSUM_MISMATCH",
    `zstd: checksum mismatch in ${where}: the frame at offset ${start} stores ${hex(stored)}, the decoded data hashes to ${hex(actual)}`,
    { key },
  );
}

function verifyChecksum(f: FrameInfo, data: Uint8Array, where: string, key: string | undefined): void {
  if (f.checksum < 0) return;
  const actual = zstdChecksum(data);
  if (actual !== f.checksum) throw checksumMismatch(f.start, f.checksum, actual, where, key);
}

function hex(v: number): string {
  return `0x${v.toString(16).padStart(8, "0")}`;
}

/**
 * Decompresses zstd data: one or more frames (skippable frames are skipped), with or
 * without Frame_Content_Size, verifying content checksums. Synchronous, pure TypeScript.
 *
 * @param input The compressed bytes.
 * @param expectedSize When given, the decoded size must be exactly this.
 * @returns The decoded bytes.
 * @throws ZarrError CODEC_FAILED for corrupt, truncated or oversized input,
 *   CHECKSUM_MISMATCH when a frame's XXH64 checksum does not match, UNSUPPORTED for
 *   frames that need a dictionary.
 *
 * @example
 * ```ts
 * const bytes = zstdDecompress(zstdCompress(new Uint8Array([1, 2, 3])));
 * ```
 */
export function zstdDecompress(input: Uint8Array, expectedSize?: number): Uint8Array {
  return decodeFrames(input, expectedSize, undefined);
}

/**
 * Decompresses zstd data into `output`, which it must fill exactly (like
 * {@link zstdDecompress} with `expectedSize = output.length`), without allocating an
 * output buffer: for callers that decode into a larger buffer (blosc blocks).
 *
 * @throws ZarrError as {@link zstdDecompress}; `output` may be partly written then.
 *
 * @example
 * ```ts
 * const block = new Uint8Array(4);
 * zstdDecompressInto(zstdCompress(new Uint8Array([1, 2, 3, 4])), block);
 * ```
 */
export function zstdDecompressInto(input: Uint8Array, output: Uint8Array): void {
  decodeFrames(input, output.length, undefined, output);
}

/**
 * Starts compiling the WebAssembly decoder for this thread and returns at once, so it is ready
 * when the first frames arrive: on a browser's main thread, which compiles asynchronously,
 * calls made before it is ready take the TypeScript decoder. `createZstdCodec` calls it; callers
 * of the raw functions that know zstd data is coming (`@zarr/codec-blosc` for a blosc codec
 * whose compressor is zstd) call it ahead of their first chunk. Safe to call any number of times.
 *
 * @example
 * ```ts
 * prepareZstdDecoder(); // then fetch the first chunk; zstdDecompress uses the kernel once compiled
 * ```
 */
export function prepareZstdDecoder(): void {
  prepareDecodeKernel();
}
