/**
 * Decoding against `CodecCallContext.maxDecodedBytes` on every backend, and failures inside
 * node:zlib's asynchronous path becoming rejected promises with coded errors.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { backends, gzipCodec, nodeBackend, zlibCodec } from "./helpers.js";

const data = new Uint8Array(100_000).map((_, i) => (i * 7) % 13);

describe.each(backends.map((b) => [b.name, b] as const))("%s", (_, backend) => {
  for (const [name, make] of [
    ["gzip", gzipCodec],
    ["zlib", zlibCodec],
  ] as const) {
    it(`${name}: decodes to exactly the bound, and fails one byte below it with CODEC_FAILED naming the chunk`, async () => {
      const codec = await make(backend, 1);
      const packed = await codec.encode(data, { key: "a/c/0" });
      expect((await codec.decode(packed, { key: "a/c/0", maxDecodedBytes: data.length })).length).toBe(data.length);
      await expect(codec.decode(packed, { key: "a/c/0", maxDecodedBytes: data.length - 1 })).rejects.toMatchObject({
        code: "CODEC_FAILED",
        key: "a/c/0",
        message: expect.stringMatching(new RegExp(`^${name}: chunk "a/c/0" .*the ${data.length - 1} bytes it may hold`)),
      });
      // Through decodeInto too, whatever path it takes (a reused buffer, or the blocking decoder).
      const scratch = new Uint8Array(data.length + 64);
      expect((await codec.decodeInto?.(packed, scratch, { key: "a/c/0", maxDecodedBytes: data.length }))?.length).toBe(data.length);
      await expect(
        Promise.resolve().then(() => codec.decodeInto?.(packed, scratch, { key: "a/c/0", maxDecodedBytes: data.length - 1 })),
      ).rejects.toMatchObject({ code: "CODEC_FAILED" });
    });
  }
});

describe("node:zlib's asynchronous path", () => {
  afterEach(() => vi.restoreAllMocks());

  it("turns an allocation failure while joining the output into a rejected CODEC_FAILED, not an uncaught exception", async () => {
    // node:zlib's one-shot gunzip(buf, cb) joins its output in an event handler, where this
    // RangeError would be thrown past every caller and kill the process.
    const codec = await zlibCodec(nodeBackend, 1);
    const packed = await codec.encode(new Uint8Array(4 << 20), { key: "a/c/0" }); // inflates in many pieces
    const uncaught = vi.fn();
    process.on("uncaughtException", uncaught);
    vi.spyOn(Buffer, "concat").mockImplementation(() => {
      throw new RangeError("Array buffer allocation failed");
    });
    try {
      await expect(codec.decode(packed, { key: "a/c/0", maxDecodedBytes: 4 << 20 })).rejects.toMatchObject({
        code: "CODEC_FAILED",
        message: expect.stringContaining("Array buffer allocation failed"),
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(uncaught).not.toHaveBeenCalled();
    } finally {
      process.off("uncaughtException", uncaught);
    }
  });
});
