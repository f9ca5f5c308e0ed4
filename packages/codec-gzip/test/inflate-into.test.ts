import { gunzipSync, gzipSync, deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decode, decodeInto } from "../src/decode-task.js";
import { inflateInto } from "../src/inflate-into.node.js";
import { randomBytes } from "./helpers.js";

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

describe("decodeInto (the worker entry point)", () => {
  it("gives what decode gives, through the fast path or the fallback", async () => {
    const one = gzipSync(data);
    const inputs: [Uint8Array, "gzip" | "zlib"][] = [
      [one, "gzip"],
      [Buffer.concat([one, new Uint8Array(3), one]), "gzip"], // zero bytes between members, as Python reads them
      [deflateSync(data), "zlib"],
    ];
    for (const [bytes, format] of inputs) {
      const expected = await decode(bytes, format, "k");
      for (const scratch of [new Uint8Array(expected.length + 64), new Uint8Array(16)]) {
        expect(Buffer.compare(decodeInto(bytes, scratch, format, "k"), expected)).toBe(0);
      }
    }
    expect(Buffer.compare(gunzipSync(one), data)).toBe(0);
  });

  it("names the chunk when the data is corrupt", () => {
    const bad = gzipSync(data);
    bad[bad.length - 8] ^= 1;
    expect(() => decodeInto(bad, new Uint8Array(data.length + 64), "gzip", "a/c/1/2")).toThrow(
      expect.objectContaining({ code: "CODEC_FAILED", message: expect.stringContaining('"a/c/1/2"') }),
    );
  });
});
