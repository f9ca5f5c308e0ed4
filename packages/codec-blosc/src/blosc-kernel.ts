/**
 * The blosc WebAssembly kernel (wasm/blosc.c): whole LZ4 chunks decoded and encoded in it
 * (one copy in, one copy out), and the shuffle filters of chunks whose streams another
 * compressor's TypeScript decodes or encodes straight in the kernel's memory. Imported
 * only by the codec's modules, which the lazy entry loads on first use.
 */
import { lz4KernelError } from "@zarr/codec-lz4";
import { runKernel, type WasmKernel, wasmKernelLoader, ZarrError } from "@zarr/spec";
import { HEADER_SIZE } from "./constants.js";
import { wrongSize } from "./inner.js";
import { WASM_BASE64 } from "./wasm/blosc-wasm.js";

interface BloscExports {
  decode_chunk(chunk: number, cbytes: number, out: number, tmp: number): number;
  stream_got(): number;
  stream_want(): number;
  encode_lz4_chunk(
    src: number,
    nbytes: number,
    out: number,
    tmp: number,
    typesize: number,
    blocksize: number,
    mode: number,
    dontSplit: number,
    acceleration: number,
  ): number;
  shuffle_chunk(src: number, dst: number, nbytes: number, blocksize: number, typesize: number, mode: number): void;
  unshuffle_chunk(src: number, dst: number, nbytes: number, blocksize: number, typesize: number, flags: number): void;
}

/** A blosc kernel instance. */
export type BloscKernel = WasmKernel<BloscExports>;

const loader = wasmKernelLoader<BloscExports>(WASM_BASE64);

/**
 * Calls needing more kernel memory than this take the TypeScript path: a huge chunk's
 * second copy, in a kernel's memory, might not be allocatable.
 */
const MAX_KERNEL_BYTES = 1 << 30;

/** Kernel error numbers besides LZ4's (BLOSC_ERR_* in wasm/blosc.c). */
const ERR_STREAM_SIZE = 101;
/** The LZ4 format code in the header flags. */
const FORMAT_LZ4 = 1;

/** Bytes from the start of one region of `bytes` bytes to the next, kept 16-byte aligned. */
const span = (bytes: number): number => (bytes + 15) & ~15;

/** Starts compiling the kernel (called when a codec is created, so it overlaps the first fetch). */
export function prepareBloscKernel(): void {
  void loader.ready();
}

/** The kernel for a call needing `bytes` bytes of its memory, or `undefined` (use TypeScript). */
export function bloscKernel(bytes: number): BloscKernel | undefined {
  return bytes <= MAX_KERNEL_BYTES ? loader.forCall(bytes) : undefined;
}

/** The error of a kernel's error number, as the TypeScript decoder words it. */
function kernelError(kernel: BloscKernel, code: number): ZarrError {
  if (code === ERR_STREAM_SIZE) return wrongSize(FORMAT_LZ4, kernel.exports.stream_got(), kernel.exports.stream_want());
  return lz4KernelError(code) ?? new ZarrError("CODEC_FAILED", `the WebAssembly kernel rejected the chunk (error ${code})`);
}

/** Memory {@link decodeLz4Chunk} needs for a chunk of `cbytes` bytes decoding to `nbytes` in blocks of `block`. */
export function lz4ChunkDecodeBytes(cbytes: number, nbytes: number, block: number): number {
  return span(cbytes) + span(nbytes) + block;
}

/**
 * Decodes an LZ4 chunk (its header and stream layout already checked; not memcpyed) into
 * `out` (its decoded size). Throws the errors the TypeScript decoder throws for the chunk.
 */
export function decodeLz4Chunk(kernel: BloscKernel, input: Uint8Array, cbytes: number, nbytes: number, block: number, out: Uint8Array): void {
  const chunk = kernel.base;
  const decoded = chunk + span(cbytes);
  const tmp = decoded + span(nbytes);
  const memory = kernel.reserve(lz4ChunkDecodeBytes(cbytes, nbytes, block));
  memory.set(input.subarray(0, cbytes), chunk);
  const code = runKernel(kernel, "a blosc chunk", () => kernel.exports.decode_chunk(chunk, cbytes, decoded, tmp));
  if (code < 0) throw kernelError(kernel, -code);
  out.set(memory.subarray(decoded, decoded + nbytes));
}

/** Memory {@link unshuffleChunk} needs for `nbytes` decoded bytes. */
export function unshuffleBytes(nbytes: number): number {
  return 2 * span(nbytes);
}

/**
 * Decodes a filtered chunk: `decodeStreams` writes its blocks, still shuffled, into the
 * window of the kernel's memory it is given; the kernel unshuffles them (as the header's
 * `flags` say) and the result is copied to `out`.
 */
export function unshuffleChunk(
  kernel: BloscKernel,
  nbytes: number,
  blocksize: number,
  typesize: number,
  flags: number,
  out: Uint8Array,
  decodeStreams: (shuffled: Uint8Array) => void,
): void {
  const shuffled = kernel.base;
  const decoded = shuffled + span(nbytes);
  const memory = kernel.reserve(unshuffleBytes(nbytes));
  decodeStreams(memory.subarray(shuffled, shuffled + nbytes));
  runKernel(kernel, "a blosc chunk", () => kernel.exports.unshuffle_chunk(shuffled, decoded, nbytes, blocksize, typesize, flags));
  out.set(memory.subarray(decoded, decoded + nbytes));
}

/** Memory {@link encodeLz4Chunk} needs for `nbytes` bytes in blocks of `blocksize`. */
export function lz4ChunkEncodeBytes(nbytes: number, blocksize: number): number {
  return span(nbytes) + span(nbytes + HEADER_SIZE) + blocksize;
}

/**
 * Encodes the blocks of an LZ4 chunk as compressBlocks does (filter `mode` 0, 1 or 2):
 * a new array of the chunk's size with the header left for the caller, or `undefined`
 * when the chunk does not fit in `input.length + 16` bytes.
 */
export function encodeLz4Chunk(
  kernel: BloscKernel,
  input: Uint8Array,
  typesize: number,
  blocksize: number,
  mode: number,
  dontSplit: boolean,
  acceleration: number,
): Uint8Array | undefined {
  const nbytes = input.length;
  const src = kernel.base;
  const out = src + span(nbytes);
  const tmp = out + span(nbytes + HEADER_SIZE);
  const memory = kernel.reserve(lz4ChunkEncodeBytes(nbytes, blocksize));
  memory.set(input, src);
  const cbytes = runKernel(kernel, "a blosc chunk", () =>
    kernel.exports.encode_lz4_chunk(src, nbytes, out, tmp, typesize, blocksize, mode, dontSplit ? 1 : 0, acceleration),
  );
  return cbytes === 0 ? undefined : memory.slice(out, out + cbytes);
}

/** Memory {@link shuffleChunk} needs for `nbytes` bytes. */
export function shuffleBytes(nbytes: number): number {
  return 2 * span(nbytes);
}

/**
 * The blocks of `input` shuffled (filter `mode` 1 or 2): a view of the kernel's memory,
 * valid until the kernel's next call.
 */
export function shuffleChunk(kernel: BloscKernel, input: Uint8Array, blocksize: number, typesize: number, mode: number): Uint8Array {
  const nbytes = input.length;
  const src = kernel.base;
  const shuffled = src + span(nbytes);
  const memory = kernel.reserve(shuffleBytes(nbytes));
  memory.set(input, src);
  runKernel(kernel, "a blosc chunk", () => kernel.exports.shuffle_chunk(src, shuffled, nbytes, blocksize, typesize, mode));
  return memory.subarray(shuffled, shuffled + nbytes);
}
