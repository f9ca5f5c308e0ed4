/**
 * Decoding in browsers (and runtimes without the "node" export condition): the inflate
 * WebAssembly kernel (inflate-kernel.ts) where it can run, which `bench/kernels-inflate.mjs`
 * measured faster in Chromium than both `DecompressionStream` and fflate; otherwise (kernels
 * turned off with `setWasmKernels(false)`, no WebAssembly SIMD, a chunk too large for the
 * kernel's memory) the runtime's `DecompressionStream` with fflate's exact path behind it
 * (native-stream.ts). The kernel is imported and compiled on the first decode.
 */
import type { DeflateBackend } from "./backend.js";

/** Decodes one chunk: the kernel first, then the stream and fflate (see the module comment). */
export async function decompress(
  bytes: Uint8Array,
  format: "gzip" | "deflate",
  maxOutput: number,
  fallback: () => Promise<DeflateBackend>,
): Promise<Uint8Array> {
  const kernel = await import("./inflate-kernel.js");
  await kernel.inflateKernelReady();
  const decoded = kernel.inflateWithKernel(bytes, format === "gzip" ? "gzip" : "zlib", maxOutput);
  if (decoded !== undefined) return decoded;
  return (await import("./native-stream.js")).decompress(bytes, format, maxOutput, fallback);
}
