import { deflateSync, gunzipSync, gzipSync } from "node:zlib";
import type { BytesToBytesCodec } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { createGzipEntry, createZlibEntry } from "../src/codec.js";
import { inflateInto } from "../src/inflate-into.node.js";
import { makeCodec, nodeBackend, nodeSyncBackend, randomBytes } from "./helpers.js";

/** The codec's decodeInto over a backend that blocks (as on a worker thread) or not. */
async function codecs(format: "gzip" | "zlib"): Promise<{ blocking: BytesToBytesCodec; main: BytesToBytesCodec }> {
  const entry = format === "gzip" ? createGzipEntry : createZlibEntry;
  return { blocking: await makeCodec(entry(nodeSyncBackend)), main: await makeCodec(entry({ ...nodeBackend, preferBlocking: false })) };
}

const data = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 251 ^ (i >> 9));

describe("inflateInto (node:zlib into a kept buffer)", () => {
  it.each(["gzip", "zlib"] as const)("%s: decodes into the start of the buffer when it fits with room to spare", (format) => {
    const packed = format === "gzip" ? gzipSync(data) : deflateSync(data);
    const out = new Uint8Array(data.length + 10);
    for (let round = 0; round < 3; round++) {
      const got = inflateInto(packed, format, out) as Uint8Array;
      expect(got.buffer).toBe(out.buffer);
      expect(Buffer.compare(got, data)).toBe(0);
    }
    // exactly full: the data might be longer, so the caller decodes another way
    expect(inflateInto(packed, format, new Uint8Array(data.length))).toBeUndefined();
    expect(inflateInto(packed, format, new Uint8Array(100))).toBeUndefined();
  });

  it("reads on into the next gzip member, and leaves padding and trailing bytes to the public API", () => {
    const one = gzipSync(data);
    const out = new Uint8Array(3 * data.length);
    expect(Buffer.compare(inflateInto(Buffer.concat([one, one]), "gzip", out) as Uint8Array, Buffer.concat([data, data]))).toBe(0);
    expect(inflateInto(Buffer.concat([one, new Uint8Array(8)]), "gzip", out)).toBeUndefined();
    expect(inflateInto(Buffer.concat([deflateSync(data), new Uint8Array([1, 2])]), "zlib", out)).toBeUndefined();
    expect(inflateInto(new Uint8Array(0), "gzip", out)).toBeUndefined();
  });

  it.each(["gzip", "zlib"] as const)("%s: throws on corrupt and truncated data, and stays usable", (format) => {
    const packed = format === "gzip" ? gzipSync(data) : deflateSync(data);
    const out = new Uint8Array(data.length + 1);
    const badSum = new Uint8Array(packed);
    badSum[badSum.length - (format === "gzip" ? 8 : 1)] ^= 0x40;
    expect(() => inflateInto(badSum, format, out)).toThrow(/check/);
    expect(() => inflateInto(packed.subarray(0, packed.length >> 1), format, out)).toThrow(/end of file/);
    expect(() => inflateInto(randomBytes(500), format, out)).toThrow();
    expect(Buffer.compare(inflateInto(packed, format, out) as Uint8Array, data)).toBe(0);
  });
});

describe("the codec's decodeInto (into a kept buffer)", () => {
  it("gives what decode gives, through the fast path or the fallback, blocking or not", async () => {
    const one = gzipSync(data);
    // [input, format, decodes into the scratch buffer when it fits]
    const inputs: [Uint8Array, "gzip" | "zlib", boolean][] = [
      [one, "gzip", true],
      [Buffer.concat([one, new Uint8Array(3), one]), "gzip", false], // zero bytes between members, as Python reads them
      [deflateSync(data), "zlib", true],
    ];
    for (const [bytes, format, fast] of inputs) {
      const { blocking, main } = await codecs(format);
      const expected = await blocking.decode(bytes, { key: "k" });
      for (const scratch of [new Uint8Array(expected.length + 64), new Uint8Array(16)]) {
        const got = await (blocking.decodeInto as NonNullable<BytesToBytesCodec["decodeInto"]>)(bytes, scratch, { key: "k" });
        expect(Buffer.compare(got, expected)).toBe(0);
        expect(got.buffer === scratch.buffer).toBe(fast && scratch.length > expected.length);
        const async = await (main.decodeInto as NonNullable<BytesToBytesCodec["decodeInto"]>)(bytes, scratch, { key: "k" });
        expect(Buffer.compare(async, expected)).toBe(0);
      }
    }
    expect(Buffer.compare(gunzipSync(one), data)).toBe(0);
  });

  it("on the main thread, inflates small chunks in place and hands large ones to libuv's pool", async () => {
    const { main } = await codecs("gzip");
    const decodeInto = main.decodeInto as NonNullable<BytesToBytesCodec["decodeInto"]>;
    const small = data.subarray(0, 16 * 1024);
    const scratch = new Uint8Array(small.length + 64);
    const inPlace = decodeInto.call(main, gzipSync(small), scratch, { key: "k" });
    expect(inPlace).toBeInstanceOf(Uint8Array); // no promise: decoded right here
    expect((inPlace as Uint8Array).buffer).toBe(scratch.buffer);
    expect(Buffer.compare(inPlace as Uint8Array, small)).toBe(0);
    const large = decodeInto.call(main, gzipSync(data), new Uint8Array(data.length + 64), { key: "k" });
    expect(large).toBeInstanceOf(Promise);
    expect(Buffer.compare(await large, data)).toBe(0);
  });

  it("names the chunk when the data is corrupt", async () => {
    const bad = gzipSync(data);
    bad[bad.length - 8] ^= 1;
    const { blocking } = await codecs("gzip");
    expect(() => (blocking.decodeInto as NonNullable<BytesToBytesCodec["decodeInto"]>)(bad, new Uint8Array(data.length + 64), { key: "a/c/1/2" })).toThrow(
      expect.objectContaining({ code: "CODEC_FAILED", message: expect.stringContaining('"a/c/1/2"') }),
    );
  });
});
