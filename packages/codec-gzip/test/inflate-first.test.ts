// The browser decoder's order: the first decode goes through the stream (a first read never
// waits for the kernel's 18 KB) and starts loading the kernel in a later task; decodes after
// the kernel is compiled go through it. Same bytes either way.
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

const { decompress } = await import("../src/inflate-first.js");
const fallback = async () => fflateBackend;
const text = new TextEncoder().encode("the same words again and again, ".repeat(2000));
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("inflate-first", () => {
  afterAll(() => vi.restoreAllMocks());

  it("decodes the first chunk without the kernel, then loads it and uses it", async () => {
    const first = await decompress(gzipSync(text), "gzip", text.length, fallback);
    expect(Buffer.from(first).equals(Buffer.from(text))).toBe(true);
    expect(kernelCalls).toEqual([]);
    // The kernel loads in a later task; wait until a decode takes it (bounded).
    for (let i = 0; i < 200 && kernelCalls.length === 0; i++) {
      await nextTask();
      const again = await decompress(deflateSync(text), "deflate", text.length, fallback);
      expect(Buffer.from(again).equals(Buffer.from(text))).toBe(true);
    }
    expect(kernelCalls[0]).toBe("zlib");
  });
});
