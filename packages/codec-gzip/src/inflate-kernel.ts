/**
 * The inflate WebAssembly kernel (wasm/inflate.c): deflate with its gzip or zlib wrapper,
 * checksums verified, decoded in the kernel's memory with one copy in and one out. Imported
 * on first use only (its bytes, 18 KB of base64, never sit in the codec's up-front chunk).
 *
 * Output is bounded: the kernel is given a capacity and stops when the data would pass it.
 * Without a known size, the capacity starts from a guess (a gzip trailer's length field, or
 * four times the input) and doubles while the data proves it needs more, up to the bound.
 */
import { OutputLimitExceeded, runKernel, type WasmKernel, wasmKernelLoader } from "@zarr/spec";
import { WASM_BASE64 } from "./wasm/inflate-wasm.js";

interface InflateExports {
  inflate(src: number, n: number, dst: number, cap: number, format: number): number;
}

/** The kernel's formats (wasm/inflate.c FORMAT_*). */
const FORMATS = { raw: 0, zlib: 1, gzip: 2 } as const;
export type InflateFormat = keyof typeof FORMATS;

/** Texts of the kernel's error codes (wasm/inflate.c INF_ERR_*), index = code. */
export const INFLATE_PROBLEMS: readonly string[] = [
  "",
  "the output would pass its bound",
  "the data ends inside the deflate stream or its trailer",
  "bad gzip or zlib header",
  "invalid deflate block type 3",
  "a stored block's length does not match its complement",
  "invalid Huffman code lengths",
  "invalid literal/length or distance code",
  "a distance reaches before the start of the output",
  "checksum mismatch (CRC-32 or Adler-32)",
  "the gzip length field does not match the decoded size",
  "zero bytes between gzip members (zero padding may only end the data)",
  "zlib streams with a preset dictionary are not supported",
  "unknown format",
];
const ERR_OUTPUT = 1;

/** Bytes the kernel may write past the capacity it is given (match copies). */
const SLACK = 64;
/** Calls needing more kernel memory than this return undefined (the caller's other decoders then run). */
const MAX_KERNEL_BYTES = 1 << 30;
/** Deflate cannot expand data by more than about 1032:1. */
const MAX_DEFLATE_RATIO = 1032;

const loader = wasmKernelLoader<InflateExports>(WASM_BASE64);

/** Resolves when the kernel is compiled (or to undefined where kernels are off or unsupported). */
export function inflateKernelReady(): Promise<unknown> {
  return loader.ready();
}

/** True when the kernel can run on this thread now (compiled, kernels on). */
export function inflateKernelAvailable(): boolean {
  return loader.now() !== undefined;
}

/**
 * Runs the kernel on `bytes` with output capacity `cap`: the kernel and the offset of the
 * output in its memory with the bytes written, or `{ error }` with the kernel's error code,
 * or undefined when the kernel cannot run here.
 */
function run(bytes: Uint8Array, format: InflateFormat, cap: number): { kernel: WasmKernel<InflateExports>; dst: number; written: number } | undefined {
  const n = bytes.length;
  const dstOffset = (n + 15) & ~15;
  const total = dstOffset + cap + SLACK;
  if (total > MAX_KERNEL_BYTES) return undefined;
  const kernel = loader.forCall(total);
  if (kernel === undefined) return undefined;
  const memory = kernel.reserve(total);
  const src = kernel.base;
  memory.set(bytes, src);
  const dst = src + dstOffset;
  const written = runKernel(kernel, "a deflate stream", () => kernel.exports.inflate(src, n, dst, cap, FORMATS[format]));
  return { kernel, dst, written };
}

function fail(code: number): Error {
  return new Error(`inflate: ${INFLATE_PROBLEMS[code] ?? `unknown kernel error ${code}`}`);
}

/**
 * Inflates `bytes` into the start of `out` and returns that view; undefined when the kernel
 * cannot run here or the output does not fit in `out` (the caller's bounded decoders then
 * decide). Corrupt data throws.
 */
export function inflateIntoWithKernel(bytes: Uint8Array, format: InflateFormat, out: Uint8Array): Uint8Array | undefined {
  const result = run(bytes, format, out.length);
  if (result === undefined) return undefined;
  const { kernel, dst, written } = result;
  if (written === -ERR_OUTPUT) return undefined;
  if (written < 0) throw fail(-written);
  out.set(new Uint8Array(kernel.reserve(0).buffer, dst, written));
  return out.subarray(0, written);
}

/** The first capacity to try: what a gzip trailer claims when plausible, else four times the input. */
function firstCapacity(bytes: Uint8Array, format: InflateFormat, limit: number): number {
  const n = bytes.length;
  if (format === "gzip" && n >= 18) {
    const claimed = (bytes[n - 4] | (bytes[n - 3] << 8) | (bytes[n - 2] << 16) | (bytes[n - 1] << 24)) >>> 0;
    if (claimed <= limit) return claimed;
  }
  return Math.min(limit, 4 * n + 1024);
}

/**
 * Inflates `bytes` into a new array of at most `maxOutput` bytes ({@link OutputLimitExceeded}
 * past it); undefined when the kernel cannot run here. Corrupt data throws.
 */
export function inflateWithKernel(bytes: Uint8Array, format: InflateFormat, maxOutput: number): Uint8Array | undefined {
  const limit = Math.min(maxOutput, bytes.length * MAX_DEFLATE_RATIO + 1024, MAX_KERNEL_BYTES);
  for (let cap = firstCapacity(bytes, format, limit); ; cap = Math.min(limit, 2 * cap + 1024)) {
    const result = run(bytes, format, cap);
    if (result === undefined) return undefined;
    const { kernel, dst, written } = result;
    if (written >= 0) {
      // A fresh array filled by set(): slice() of a WebAssembly memory's view measured
      // slower, in Chromium 1.5–2.3× for the whole decode (bench/kernels-inflate.mjs).
      const out = new Uint8Array(written);
      out.set(new Uint8Array(kernel.reserve(0).buffer, dst, written));
      return out;
    }
    if (written !== -ERR_OUTPUT) throw fail(-written);
    if (cap >= limit) {
      if (limit < maxOutput && limit === MAX_KERNEL_BYTES) return undefined;
      throw new OutputLimitExceeded(maxOutput);
    }
  }
}
