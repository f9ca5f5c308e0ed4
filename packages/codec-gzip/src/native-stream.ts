/**
 * Decoding with the runtime's own `DecompressionStream` (native zlib in browsers: faster than
 * fflate, and no code to download). It verifies the CRC-32/Adler-32 and length of what it
 * decodes; output is counted as it arrives, so a bomb stops at `maxOutput`.
 *
 * Runtimes differ on what follows the first gzip member: browsers refuse any byte after
 * it, Node's stream decodes further members but silently stops at zero bytes between two
 * (dropping the rest). So the stream only gets gzip data that is one member ending the
 * input: no member header (1f 8b 08) after the first, and a decoded length equal to the
 * trailer at the input's end. Anything else (several members, zero padding, corrupt data)
 * goes to the exact fflate path, which accepts what zarr-python accepts and names the
 * problem. (Bytes after a zlib stream: browsers refuse them, Node ignores them as Python's
 * zlib does; the data returned is verified either way.)
 *
 * The inflate WebAssembly kernel (inflate-kernel.ts), which `bench/kernels-inflate.mjs`
 * measured faster in Chromium than both the stream and fflate, takes over once this page
 * has decoded {@link KERNEL_AFTER_BYTES} through the stream: it is 18 KB of base64, a third
 * of a first read's code, and pays off only over many chunks. So a small first read never
 * downloads it, and a large read switches to it part way (loaded in the background, never
 * awaited by a decode). Where it cannot run (kernels off, no SIMD, a chunk too large for its
 * memory) the stream goes on.
 */
import { OutputLimitExceeded } from "@zarr/spec";
import type { DeflateBackend } from "./backend.js";

/** Decoded bytes after which the kernel is worth its download. */
export const KERNEL_AFTER_BYTES = 4 << 20;
let kernel: typeof import("./inflate-kernel.js") | undefined;
let streamed = 0;

/** Counts bytes the stream decoded; the first call past the threshold loads the kernel. */
function streamedBytes(n: number): void {
  streamed += n;
  if (streamed >= KERNEL_AFTER_BYTES && streamed - n < KERNEL_AFTER_BYTES) {
    import("./inflate-kernel.js").then((m) => m.inflateKernelReady().then(() => (kernel = m)), () => {});
  }
}

/** True when `bytes` may be one gzip member ending the input (see the module comment). */
function oneMember(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(0x1f, 1); at >= 0; at = bytes.indexOf(0x1f, at + 1)) {
    if (bytes[at + 1] === 0x8b && bytes[at + 2] === 8) return false;
  }
  return bytes.length >= 18;
}

/**
 * Decodes with `DecompressionStream` where the runtime has one, else (or when it refuses
 * the data) with the exact decoders of `fallback` (fflate, loaded only then).
 */
export async function decompress(
  bytes: Uint8Array,
  format: "gzip" | "deflate",
  maxOutput: number,
  fallback: () => Promise<DeflateBackend>,
): Promise<Uint8Array> {
  const byKernel = kernel?.inflateWithKernel(bytes, format === "gzip" ? "gzip" : "zlib", maxOutput);
  if (byKernel !== undefined) return byKernel;
  const native = typeof DecompressionStream === "function" && (format === "deflate" || oneMember(bytes));
  const decoded = native ? await decompressNative(bytes, format, maxOutput) : undefined;
  // The gzip trailer ending the input must be the decoded member's: its length, mod 2^32
  // (read here rather than imported, so this module shares no chunk with the fflate path).
  const n = bytes.length;
  const isize = (bytes[n - 4] | (bytes[n - 3] << 8) | (bytes[n - 2] << 16) | (bytes[n - 1] << 24)) >>> 0;
  if (decoded !== undefined && (format === "deflate" || decoded.length % 2 ** 32 === isize)) {
    streamedBytes(decoded.length);
    return decoded;
  }
  const exact = await fallback();
  return format === "gzip" ? exact.decompressGzip(bytes, maxOutput) : exact.decompressZlib(bytes, maxOutput);
}

/**
 * The decoded bytes, or `undefined` when the stream refuses the data (the caller then
 * decides with the exact decoder). Throws {@link OutputLimitExceeded} past `maxOutput`.
 */
export async function decompressNative(bytes: Uint8Array, format: "gzip" | "deflate", maxOutput: number): Promise<Uint8Array | undefined> {
  const stream = new DecompressionStream(format);
  const writer = stream.writable.getWriter();
  // Errors surface on the reading side; these promises only need handling.
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const pieces: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxOutput) {
        reader.cancel().catch(() => {});
        throw new OutputLimitExceeded(maxOutput);
      }
      pieces.push(value);
    }
  } catch (error) {
    if (error instanceof OutputLimitExceeded) throw error;
    return undefined;
  }
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
