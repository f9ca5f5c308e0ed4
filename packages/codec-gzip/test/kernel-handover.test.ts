// The browser decoder's order: decodes go through the stream (a small first read never
// downloads the kernel's 18 KB) until KERNEL_AFTER_BYTES are decoded, which starts loading the
// kernel in a later task; decodes after it is compiled go through it. Same bytes either way.
import { deflateSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it, vi } from "vitest";
import { fflateBackend } from "../src/fflate-backend.js";

const kernelCalls: string[] = [];
vi.mock("../src/inflate-kernel.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../src/inflate-kernel.js")>();
  return {
    ...original,
    inflateWithKernel: (...args: Parameters<typeof original.inflateWithKernel>) => {
      kernelCalls.push(args[1]);
      return original.inflateWithKernel(...args);
    },
  };
});

const { decompress, KERNEL_AFTER_BYTES } = await import("../src/native-stream.js");
const fallback = async () => fflateBackend;
const text = new TextEncoder().encode("the same words again and again, ".repeat(2000));
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("native-stream hands over to the kernel", () => {
  afterAll(() => vi.restoreAllMocks());

  it("decodes without the kernel until enough bytes were decoded, then loads it and uses it", async () => {
    const chunk = gzipSync(text);
    for (let decoded = 0; decoded + text.length < KERNEL_AFTER_BYTES; decoded += text.length) {
      const out = await decompress(chunk, "gzip", text.length, fallback);
      expect(Buffer.from(out).equals(Buffer.from(text))).toBe(true);
      await nextTask();
    }
    expect(kernelCalls).toEqual([]);
    // The next decode reaches the threshold; the kernel loads in a later task: wait until a
    // decode takes it (bounded).
    for (let i = 0; i < 200 && kernelCalls.length === 0; i++) {
      await nextTask();
      const again = await decompress(deflateSync(text), "deflate", text.length, fallback);
      expect(Buffer.from(again).equals(Buffer.from(text))).toBe(true);
    }
    expect(kernelCalls[0]).toBe("zlib");
  });
});
