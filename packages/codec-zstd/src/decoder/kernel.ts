/**
 * The WebAssembly zstd decoder (wasm/zstd-decode.c) behind a typed call: the input is copied
 * into the kernel's memory once, every frame is decoded there, and the output is copied out
 * once. decompress.ts decides sizes and turns failures into errors.
 */
import { runKernel, wasmKernelLoader } from "@zarr/spec";
import { WASM_BASE64 } from "../wasm/zstd-decode-wasm.js";

interface ZstdDecodeExports {
  /** Decoded size, or a negated error code with details at `failure` (4 × u32). */
  zstd_decode(src: number, srcLen: number, dst: number, dstCap: number, failure: number): number;
}

const loader = wasmKernelLoader<ZstdDecodeExports>(WASM_BASE64);

/** Bytes before the input: the failure details. */
const FAILURE_BYTES = 16;

/** Starts compiling the kernel (in browsers, so it overlaps the first fetch); nothing else. */
export function prepareDecodeKernel(): void {
  void loader.ready();
}

/** What the kernel reported when it could not decode. */
export interface KernelFailure {
  readonly ok: false;
  /** The `ZD_E_*` code (see kernel-errors.ts). */
  readonly code: number;
  /** Offset of the frame (or stray bytes) at fault. */
  readonly frameOffset: number;
  readonly storedChecksum: number;
  readonly actualChecksum: number;
  /** What the frame decoded to, for a content size that differs from its header. */
  readonly decoded: number;
}

export type KernelOutcome = { readonly ok: true; readonly bytes: Uint8Array } | KernelFailure;

/**
 * Decodes every frame of `input` with the kernel into at most `capacity` bytes, copied into
 * `target` when given (its start) or into a new buffer. Undefined when no kernel can run on
 * this thread now (kernels off, no SIMD, or a browser main thread still compiling it).
 */
export function kernelDecode(input: Uint8Array, capacity: number, target: Uint8Array | undefined, what: string): KernelOutcome | undefined {
  const srcSpan = (input.length + 15) & ~15;
  const needed = FAILURE_BYTES + srcSpan + capacity;
  const kernel = loader.forCall(needed);
  if (kernel === undefined) return undefined;
  const memory = kernel.reserve(needed);
  const failure = kernel.base;
  const src = failure + FAILURE_BYTES;
  const dst = src + srcSpan;
  memory.set(input, src);
  const result = runKernel(what, () => kernel.exports.zstd_decode(src, input.length, dst, capacity, failure));
  if (result < 0) {
    const details = new Uint32Array(memory.buffer, failure, 4);
    return { ok: false, code: -result, frameOffset: details[0], storedChecksum: details[1], actualChecksum: details[2], decoded: details[3] };
  }
  if (target === undefined) return { ok: true, bytes: memory.slice(dst, dst + result) };
  target.set(memory.subarray(dst, dst + result));
  return { ok: true, bytes: result === target.length ? target : target.subarray(0, result) };
}
