/**
 * WebAssembly kernels for codecs: small freestanding modules (built from `packages/<pkg>/wasm/*.c`
 * by `scripts/build-wasm.mjs`, shipped as base64 in a lazily loaded module of the codec
 * package) that decode or encode bytes placed in their own memory.
 *
 * Each thread compiles a kernel once. Where the runtime allows synchronous compilation
 * (Node.js, workers) the first call compiles on the spot; on a browser's main thread, which
 * refuses to compile more than a few KB synchronously, compilation starts when the codec is
 * created and calls take the TypeScript path until it is done. Kernels need 128-bit SIMD;
 * without it (or with kernels turned off) codecs keep their TypeScript implementation, which
 * produces the same bytes.
 */
import { decodeBase64 } from "./base64.js";
import { ZarrError } from "./errors.js";

/** An instantiated kernel: its exports and its memory, grown to fit the call at hand. */
export interface WasmKernel<E> {
  readonly exports: E;
  /**
   * The byte offset where callers' data may start: everything from here to the end of
   * memory is free for each call (the kernel keeps no state between calls).
   */
  readonly base: number;
  /**
   * Makes sure `bytes` bytes from `base` are in memory and returns a view of the whole
   * memory (views made before a growth are detached, so take a new one after each call
   * to `reserve`). Throws `CODEC_FAILED` when `bytes` is more than 32-bit WebAssembly
   * memory can hold.
   */
  reserve(bytes: number): Uint8Array;
  /**
   * Set by {@link runKernel} when a call trapped: the instance's own state (its C stack
   * pointer) may be left mid-call, so the loader makes a new instance for the next call.
   */
  broken?: boolean;
}

/** Loads a kernel once per thread (see the module comment for when it compiles). */
export interface WasmKernelLoader<E> {
  /** The kernel if it can be used now (compiling it here if the runtime allows), else `undefined`. */
  now(): WasmKernel<E> | undefined;
  /** Resolves to the kernel, or to `undefined` when kernels are off or unsupported. */
  ready(): Promise<WasmKernel<E> | undefined>;
  /** A kernel for one call needing `bytes` bytes: the shared one, or (above the memory kept between calls) a new one dropped after the call. */
  forCall(bytes: number): WasmKernel<E> | undefined;
}

/** Memory a thread's kernel keeps between calls; a call needing more gets an instance of its own. */
export const WASM_KEPT_BYTES = 64 << 20;

const PAGE = 65536;
/** 32-bit WebAssembly memory: 65,536 pages of 64 KiB. */
const MAX_PAGES = 65536;

// A module with one function returning a v128 constant: validates only where SIMD is supported.
const SIMD_PROBE = Uint8Array.of(
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11,
);

let enabled: boolean | undefined;

/**
 * Turns the WebAssembly kernels of every codec on this thread on or off (for comparing the
 * two paths, or working around a runtime problem). By default they are on where the runtime
 * supports WebAssembly SIMD, unless the environment variable `ZARR_WASM` is `0` (Node.js,
 * inherited by worker threads).
 *
 * @example
 * ```ts
 * setWasmKernels(false); // every codec on this thread takes its TypeScript path
 * ```
 */
export function setWasmKernels(on: boolean): void {
  enabled = on;
}

/**
 * True when codecs on this thread use WebAssembly kernels: the runtime supports
 * WebAssembly with 128-bit SIMD and kernels are not turned off ({@link setWasmKernels}).
 *
 * @example
 * ```ts
 * console.log(wasmKernelsEnabled()); // true in Node.js 20 and current browsers
 * ```
 */
export function wasmKernelsEnabled(): boolean {
  if (enabled === undefined) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    enabled = env?.ZARR_WASM !== "0" && typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE);
  }
  return enabled;
}

/** False on a browser's main thread, which refuses synchronous compilation of anything but tiny modules. */
function canCompileSync(): boolean {
  return typeof (globalThis as { document?: unknown }).document === "undefined";
}

/** An instance of `module` with its memory and the first free byte. */
function instantiate<E>(module: WebAssembly.Module): WasmKernel<E> {
  const instance = new WebAssembly.Instance(module, {});
  const exports = instance.exports as E & { memory: WebAssembly.Memory; __heap_base: WebAssembly.Global };
  const memory = exports.memory;
  const base = (Number(exports.__heap_base.value) + 15) & ~15;
  return {
    exports,
    base,
    reserve(bytes: number): Uint8Array {
      const pages = Math.ceil((base + bytes) / PAGE);
      if (!(pages <= MAX_PAGES)) {
        throw new ZarrError("CODEC_FAILED", `A WebAssembly kernel cannot hold ${bytes} bytes (32-bit memory holds 4 GiB)`);
      }
      const have = memory.buffer.byteLength / PAGE;
      try {
        if (pages > have) memory.grow(pages - have);
      } catch (error) {
        // The runtime could not allocate the memory (a RangeError): a coded error like any allocation failure.
        throw new ZarrError("CODEC_FAILED", `A WebAssembly kernel could not grow its memory to ${pages * PAGE} bytes`, { cause: error });
      }
      return new Uint8Array(memory.buffer);
    },
  };
}

/**
 * A loader for the kernel whose module bytes `base64` holds (what `scripts/build-wasm.mjs`
 * generates). Nothing is decoded or compiled until first use.
 *
 * @example
 * ```ts
 * const loader = wasmKernelLoader<{ unshuffle(src: number, dst: number, n: number, size: number): void }>(WASM_BASE64);
 * const kernel = loader.forCall(2 * block.length);
 * if (kernel !== undefined) {
 *   const memory = kernel.reserve(2 * block.length);
 *   memory.set(block, kernel.base);
 *   kernel.exports.unshuffle(kernel.base, kernel.base + block.length, block.length, 4);
 *   out.set(memory.subarray(kernel.base + block.length, kernel.base + 2 * block.length));
 * }
 * ```
 */
export function wasmKernelLoader<E>(base64: string): WasmKernelLoader<E> {
  let module: WebAssembly.Module | undefined;
  let shared: WasmKernel<E> | undefined;
  let compiling: Promise<WasmKernel<E> | undefined> | undefined;
  const bytes = (): Uint8Array<ArrayBuffer> => {
    const decoded = decodeBase64(base64);
    if (decoded === undefined) throw new ZarrError("CODEC_FAILED", "A WebAssembly kernel's base64 text is corrupt (a damaged package install)");
    return decoded;
  };
  const now = (): WasmKernel<E> | undefined => {
    // Turned off after the kernel was made: no kernel, as before it was made.
    if (!wasmKernelsEnabled()) return undefined;
    if (shared?.broken === true) shared = module === undefined ? undefined : instantiate<E>(module);
    if (shared !== undefined) return shared;
    if (module === undefined) {
      if (!canCompileSync()) {
        void ready();
        return undefined;
      }
      module = new WebAssembly.Module(bytes());
    }
    shared = instantiate<E>(module);
    return shared;
  };
  const ready = (): Promise<WasmKernel<E> | undefined> => {
    if (!wasmKernelsEnabled()) return Promise.resolve(undefined);
    if (shared !== undefined) return Promise.resolve(now());
    compiling ??= WebAssembly.compile(bytes()).then((compiled) => {
      module = compiled;
      shared = instantiate<E>(compiled);
      return shared;
    });
    return compiling;
  };
  return {
    now,
    ready,
    forCall(size: number): WasmKernel<E> | undefined {
      const kernel = now();
      if (kernel === undefined || size <= WASM_KEPT_BYTES || module === undefined) return kernel;
      return instantiate<E>(module);
    },
  };
}

/**
 * Runs `call` on `kernel`, turning a trap (an out-of-bounds access or `unreachable` in the
 * kernel: a bug or corrupt input the kernel did not check) into a `CODEC_FAILED` error
 * naming `what`, instead of a bare `RuntimeError`; the trapped instance is marked broken,
 * so its loader makes a fresh one for the next call.
 *
 * @example
 * ```ts
 * const written = runKernel(kernel, `lz4 chunk "${key}"`, () => kernel.exports.lz4_decode(src, srcLen, dst, dstLen));
 * ```
 */
export function runKernel<T>(kernel: WasmKernel<unknown>, what: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      kernel.broken = true;
      throw new ZarrError("CODEC_FAILED", `The WebAssembly kernel stopped on ${what} (${error.message})`, { cause: error });
    }
    throw error;
  }
}
