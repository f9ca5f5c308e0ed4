/**
 * The zstd encoder's WebAssembly kernel (wasm/zstd-encode.c): the TypeScript encoder's
 * algorithm compiled from C, writing the same bytes. Its bytes (43 KB) are imported on the
 * first encode, so an app that only reads zstd never downloads them.
 */
import { runKernel, type WasmKernel, type WasmKernelLoader, wasmKernelLoader, ZarrError } from "@zarr/spec";

/** The kernel's exports (wasm/zstd-encode.c). */
interface ZstdEncodeExports {
  zstd_encode_workspace(n: number, level: number): number;
  zstd_encode_bound(n: number): number;
  zstd_encode(src: number, n: number, dst: number, level: number, checksum: number, work: number): number;
}

let loader: WasmKernelLoader<ZstdEncodeExports> | undefined;
let imported: Promise<void> | undefined;

/** 32-bit WebAssembly memory; a call that cannot fit takes the TypeScript path. */
const MEMORY_LIMIT = 2 ** 32;

const align16 = (v: number): number => Math.ceil(v / 16) * 16;

/**
 * Resolves when the kernel is compiled (at once after the first time), so the codec's
 * first encode can use it even where compilation must be asynchronous (a browser's main
 * thread). Resolves whether or not kernels are available.
 */
export function zstdEncodeKernelReady(): Promise<unknown> {
  imported ??= import("../wasm/zstd-encode-wasm.js").then((m) => {
    loader = wasmKernelLoader<ZstdEncodeExports>(m.WASM_BASE64);
  });
  return imported.then(() => loader?.ready());
}

/**
 * Compresses `input` into one zstd frame with the kernel: the bytes `zstdCompress` gives for
 * the same arguments. Undefined when the kernel cannot run here (kernels off, not compiled
 * yet, or the call would not fit in 32-bit memory): the caller takes the TypeScript path.
 * `level` must already be validated (an integer in −131072…22).
 */
export function zstdCompressWithKernel(input: Uint8Array, level: number, checksum: boolean, key: string): Uint8Array | undefined {
  let kernel: WasmKernel<ZstdEncodeExports> | undefined = loader?.now();
  if (kernel === undefined) return undefined;
  const n = input.length;
  const outBytes = kernel.exports.zstd_encode_bound(n);
  const workBytes = kernel.exports.zstd_encode_workspace(n, level);
  const dstAt = align16(n);
  const workAt = dstAt + align16(outBytes);
  const total = workAt + workBytes;
  if (kernel.base + total > MEMORY_LIMIT || n >= 2 ** 31) return undefined;
  kernel = loader?.forCall(total);
  if (kernel === undefined) return undefined;
  const { base, exports } = kernel;
  // The kernel never grows its memory, so this view stays valid through the call.
  const memory = kernel.reserve(total);
  memory.set(input, base);
  const written = runKernel(kernel, `zstd chunk "${key}" (encoding)`, () =>
    exports.zstd_encode(base, n, base + dstAt, level, checksum ? 1 : 0, base + workAt),
  );
  if (written < 0) throw new ZarrError("INVALID_ARGUMENT", `zstd: cannot encode chunk "${key}": level ${level} is out of range`);
  // A fresh array filled by set() rather than slice(): slice of a WebAssembly memory's view
  // measured slower (a large difference in Chromium, ~10% in Node; bench/kernels-inflate.mjs).
  const out = new Uint8Array(written);
  out.set(memory.subarray(base + dstAt, base + dstAt + written));
  return out;
}
