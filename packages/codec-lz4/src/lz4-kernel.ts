/**
 * The LZ4 WebAssembly kernel (wasm/lz4.c) behind the numcodecs lz4 codec: each call copies
 * the input into the kernel's memory once and the output out once. Loaded only by the
 * codec's module, so the kernel's bytes stay out of bundles that use the block functions.
 */
import { runKernel, type WasmKernel, wasmKernelLoader } from "@zarr/spec";
import { clampAcceleration, lz4CompressBound } from "./lz4-encode.js";
import { corruptLz4, lz4KernelError } from "./lz4-problems.js";
import { WASM_BASE64 } from "./wasm/lz4-wasm.js";

interface Lz4Exports {
  lz4_decode(src: number, srcLength: number, dst: number, dstLength: number): number;
  lz4_encode(src: number, length: number, dst: number, capacity: number, acceleration: number): number;
}

const loader = wasmKernelLoader<Lz4Exports>(WASM_BASE64);

/**
 * Calls needing more kernel memory than this take the TypeScript path: a huge chunk's
 * second copy, in a kernel's memory, might not be allocatable.
 */
const MAX_KERNEL_BYTES = 1 << 30;

/** Start of the region after one of `bytes` bytes at `at`, on a 16-byte boundary. */
const after = (at: number, bytes: number): number => (at + bytes + 15) & ~15;

/** Starts compiling the kernel (call when a codec is created, so it overlaps the first fetch). */
export function prepareLz4Kernel(): void {
  void loader.ready();
}

/** The kernel for a call needing `bytes` bytes of its memory, or `undefined` (use TypeScript). */
export function lz4Kernel(bytes: number): WasmKernel<Lz4Exports> | undefined {
  return bytes <= MAX_KERNEL_BYTES ? loader.forCall(bytes) : undefined;
}

/** Memory a decode of a `blockLength`-byte block into `size` bytes needs. */
export function decodeBytes(blockLength: number, size: number): number {
  return blockLength + size + 32;
}

/**
 * Decodes the LZ4 block `block` into `out` (exactly its length, or fewer bytes: returns
 * how many) with `kernel`, which must hold {@link decodeBytes}. Throws the errors of
 * `lz4DecompressBlockInto` for the same block.
 */
export function decodeWithKernel(kernel: WasmKernel<Lz4Exports>, block: Uint8Array, out: Uint8Array): number {
  const src = kernel.base;
  const dst = after(src, block.length);
  const memory = kernel.reserve(dst + out.length - src);
  memory.set(block, src);
  const written = runKernel(kernel, "an LZ4 block", () => kernel.exports.lz4_decode(src, block.length, dst, out.length));
  if (written < 0) throw lz4KernelError(-written) ?? corruptLz4(`unknown kernel error ${-written}`);
  out.set(memory.subarray(dst, dst + written));
  return written;
}

/** Memory an encode of `length` bytes needs. */
export function encodeBytes(length: number): number {
  return length + lz4CompressBound(length) + 32;
}

/**
 * Encodes `input` as one LZ4 block after `header` bytes of a new array (left zero for the
 * caller), with `kernel`, which must hold {@link encodeBytes}: the same bytes as
 * `lz4CompressBlockInto` writes.
 */
export function encodeWithKernel(kernel: WasmKernel<Lz4Exports>, input: Uint8Array, acceleration: number, header: number): Uint8Array {
  const src = kernel.base;
  const dst = after(src, input.length);
  const capacity = lz4CompressBound(input.length);
  const memory = kernel.reserve(dst + capacity - src);
  memory.set(input, src);
  const n = runKernel(kernel, "an LZ4 block", () =>
    kernel.exports.lz4_encode(src, input.length, dst, capacity, clampAcceleration(acceleration)),
  );
  const out = new Uint8Array(header + n);
  out.set(memory.subarray(dst, dst + n), header);
  return out;
}
