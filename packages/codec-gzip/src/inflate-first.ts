/**
 * Decoding in browsers (and runtimes without the "node" export condition): the inflate
 * WebAssembly kernel (inflate-kernel.ts) where it can run, which `bench/kernels-inflate.mjs`
 * measured faster in Chromium than both `DecompressionStream` and fflate; otherwise (the
 * kernel not loaded yet, kernels turned off with `setWasmKernels(false)`, no WebAssembly
 * SIMD, a chunk too large for the kernel's memory) the runtime's `DecompressionStream` with
 * fflate's exact path behind it (native-stream.ts).
 *
 * The kernel (18 KB of base64) is not what a first read waits for: the first decode starts
 * loading it in a later task and goes through the stream, so a page's first value needs
 * only this module; decodes after the kernel is compiled use it.
 */
import type { DeflateBackend } from "./backend.js";
import { decompress as decompressWithStream } from "./native-stream.js";

type Kernel = typeof import("./inflate-kernel.js");
/** The kernel module once it is loaded and compiled (kernels on or off: it decides per call). */
let kernel: Kernel | undefined;
let loading = false;

/** Starts loading and compiling the kernel after the current task (never awaited by a decode). */
function loadKernelLater(): void {
  if (loading) return;
  loading = true;
  setTimeout(() => {
    import("./inflate-kernel.js")
      .then(async (m) => {
        await m.inflateKernelReady();
        kernel = m;
      })
      .catch(() => {
        // No kernel (a failed download or compile): the stream path stays.
      });
  }, 0);
}

/** Decodes one chunk: the kernel when it is ready, else the stream and fflate (see the module comment). */
export async function decompress(
  bytes: Uint8Array,
  format: "gzip" | "deflate",
  maxOutput: number,
  fallback: () => Promise<DeflateBackend>,
): Promise<Uint8Array> {
  if (kernel === undefined) loadKernelLater();
  else {
    const decoded = kernel.inflateWithKernel(bytes, format === "gzip" ? "gzip" : "zlib", maxOutput);
    if (decoded !== undefined) return decoded;
  }
  return decompressWithStream(bytes, format, maxOutput, fallback);
}
