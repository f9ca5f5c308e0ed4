import { afterEach, describe, expect, it } from "vitest";
import { runKernel, setWasmKernels, WASM_KEPT_BYTES, type WasmKernel, wasmKernelLoader, wasmKernelsEnabled, ZarrError } from "../src/index.js";

/*
 * A tiny kernel, built as scripts/build-wasm.mjs builds kernels, from:
 *   void add_bytes(u8* a, const u8* b, size_t n)  // a[i] += b[i], 16 bytes at a time with SIMD
 *   void trap(void)                               // __builtin_trap()
 */
const PROBE = "AGFzbQEAAAABCgJgA39/fwBgAAADAwIAAQQFAXABAQEFAwEAAgYPAn8BQYCIBAt/AEGAiAQLBysEBm1lbW9yeQIACWFkZF9ieXRlcwAABHRyYXAAAQtfX2hlYXBfYmFzZQMBCpcEAo8EAQp/QQAhAwJAIAJBEEkNAEEAIQQDQCAAIARqIgMgASAEav0AAAAgA/0AAAD9bv0LAAAgBEEgaiEFIARBEGoiAyEEIAUgAk0NAAsLAkAgAyACTw0AAkAgAiADayIGQRBJDQAgASADaiEHAkAgACADaiIIIAEgAmpPDQAgByAAIAJqSQ0BCyAGQXBxIglBcGoiBEEEdkEBaiIFQQFxIQoCQAJAIAQNAEEAIQQMAQsgBUH+////AXEhC0EAIQQDQCAIIARqIgUgBf0AAAAgByAEaiIM/QAAAP1u/QsAACAFQRBqIgUgBf0AAAAgDEEQav0AAAD9bv0LAAAgBEEgaiEEIAtBfmoiCw0ACwsCQCAKRQ0AIAAgAyAEaiIEaiIFIAX9AAAAIAEgBGr9AAAA/W79CwAACyAGIAlGDQEgAyAJaiEDCyADQX9zIAJqIQsCQCACIANrQQNxIgRFDQADQCAAIANqIgUgBS0AACABIANqLQAAajoAACADQQFqIQMgBEF/aiIEDQALCyALQQNJDQADQCAAIANqIgQgBC0AACABIANqIgUtAABqOgAAIARBAWoiCyALLQAAIAVBAWotAABqOgAAIARBAmoiCyALLQAAIAVBAmotAABqOgAAIARBA2oiBCAELQAAIAVBA2otAABqOgAAIAFBBGohASAAQQRqIQAgAyACQXxqIgJHDQALCwsEAAAACw==";

interface Probe {
  add_bytes(a: number, b: number, n: number): void;
  trap(): void;
}

afterEach(() => setWasmKernels(true));

describe("wasmKernelLoader", () => {
  it("compiles on first use, runs SIMD code on the caller's bytes, and keeps one instance per thread", () => {
    expect(wasmKernelsEnabled()).toBe(true);
    const loader = wasmKernelLoader<Probe>(PROBE);
    const kernel = loader.now() as WasmKernel<Probe>;
    expect(kernel).toBeDefined();
    expect(kernel.base % 16).toBe(0);
    const n = 37;
    const memory = kernel.reserve(2 * n);
    const a = Uint8Array.from({ length: n }, (_, i) => i);
    const b = Uint8Array.from({ length: n }, (_, i) => 250 + i);
    memory.set(a, kernel.base);
    memory.set(b, kernel.base + n);
    kernel.exports.add_bytes(kernel.base, kernel.base + n, n);
    const sum = kernel.reserve(2 * n).slice(kernel.base, kernel.base + n);
    expect(Array.from(sum)).toEqual(Array.from(a, (x, i) => (x + b[i]) & 255));
    expect(loader.now()).toBe(kernel);
  });

  it("grows memory to what a call reserves, and only that far", () => {
    const kernel = wasmKernelLoader<Probe>(PROBE).now() as WasmKernel<Probe>;
    const before = kernel.reserve(0).length;
    const grown = kernel.reserve(before + 100_000);
    expect(grown.length).toBeGreaterThanOrEqual(kernel.base + before + 100_000);
    expect(grown.length).toBeLessThan(kernel.base + before + 100_000 + 65536);
    expect(() => kernel.reserve(2 ** 32)).toThrow(ZarrError);
  });

  it("gives calls above the kept memory an instance of their own", () => {
    const loader = wasmKernelLoader<Probe>(PROBE);
    const shared = loader.forCall(1024);
    expect(shared).toBe(loader.now());
    const own = loader.forCall(WASM_KEPT_BYTES + 1);
    expect(own).toBeDefined();
    expect(own).not.toBe(shared);
  });

  it("resolves ready() to the same kernel", async () => {
    const loader = wasmKernelLoader<Probe>(PROBE);
    const kernel = await loader.ready();
    expect(kernel).toBeDefined();
    expect(loader.now()).toBe(kernel);
  });

  it("gives no kernel when kernels are turned off", async () => {
    setWasmKernels(false);
    const loader = wasmKernelLoader<Probe>(PROBE);
    expect(loader.now()).toBeUndefined();
    expect(loader.forCall(10)).toBeUndefined();
    expect(await loader.ready()).toBeUndefined();
    expect(wasmKernelsEnabled()).toBe(false);
  });

  it("stops giving a kernel it already compiled once kernels are turned off, and gives it again when back on", async () => {
    const loader = wasmKernelLoader<Probe>(PROBE);
    const kernel = loader.now();
    expect(kernel).toBeDefined();
    setWasmKernels(false);
    expect(loader.now()).toBeUndefined();
    expect(loader.forCall(10)).toBeUndefined();
    expect(await loader.ready()).toBeUndefined();
    setWasmKernels(true);
    expect(loader.now()).toBe(kernel);
  });

  it("refuses corrupt module text with a coded error", () => {
    expect(() => wasmKernelLoader<Probe>("@@@@").now()).toThrow(expect.objectContaining({ code: "CODEC_FAILED" }));
  });
});

describe("runKernel", () => {
  it("turns a trap into CODEC_FAILED naming what was being decoded", () => {
    const kernel = wasmKernelLoader<Probe>(PROBE).now() as WasmKernel<Probe>;
    let caught: unknown;
    try {
      runKernel(kernel, 'lz4 chunk "c/0"', () => kernel.exports.trap());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ZarrError);
    expect((caught as ZarrError).code).toBe("CODEC_FAILED");
    expect((caught as ZarrError).message).toContain('lz4 chunk "c/0"');
  });

  it("marks a trapped instance broken; its loader makes a new one for the next call", () => {
    const loader = wasmKernelLoader<Probe>(PROBE);
    const kernel = loader.now() as WasmKernel<Probe>;
    expect(() => runKernel(kernel, "x", () => kernel.exports.trap())).toThrow(ZarrError);
    expect(kernel.broken).toBe(true);
    const next = loader.now();
    expect(next).toBeDefined();
    expect(next).not.toBe(kernel);
    expect(loader.now()).toBe(next);
  });

  it("passes results and other errors through", () => {
    const kernel = wasmKernelLoader<Probe>(PROBE).now() as WasmKernel<Probe>;
    expect(runKernel(kernel, "x", () => 42)).toBe(42);
    expect(() => runKernel(kernel, "x", () => { throw new RangeError("no"); })).toThrow(RangeError);
    expect(kernel.broken).toBeUndefined();
  });
});
