import type { BytesToBytesCodec, CodecBuildContext } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { blosc } from "../src/codec.js";
import { bloscCompress } from "../src/compress.js";

const codec = (await blosc.fromConfig({ cname: "zstd", clevel: 3, shuffle: "bitshuffle", typesize: 4 }, {
  path: ["codecs", 1],
  spec: { shape: [1], dataType: { byteSize: 4 } },
} as unknown as CodecBuildContext)) as BytesToBytesCodec;
const decodeInto = (bytes: Uint8Array, scratch: Uint8Array, key: string) =>
  (codec.decodeInto as NonNullable<BytesToBytesCodec["decodeInto"]>)(bytes, scratch, { key }) as Uint8Array;
const decode = (bytes: Uint8Array, key: string) => codec.decode(bytes, { key }) as Uint8Array;

describe("decoding into a kept buffer (decodeInto)", () => {
  const values = Float32Array.from({ length: 50_000 }, (_, i) => Math.sin(i / 300) * 40);
  const bytes = new Uint8Array(values.buffer);
  const chunk = bloscCompress(bytes, { cname: "zstd", clevel: 3, shuffle: "bitshuffle", typesize: 4 });

  it("decodeInto decodes into the start of a scratch buffer that is large enough", () => {
    const scratch = new Uint8Array(bytes.length + 100).fill(0xee);
    const out = decodeInto(chunk, scratch, "k");
    expect(out.buffer).toBe(scratch.buffer);
    expect(out.byteOffset).toBe(0);
    expect(out).toEqual(bytes);
    expect(scratch[bytes.length]).toBe(0xee); // nothing written past the chunk
  });

  it("decodeInto allocates when the scratch is too small, and decode always does", () => {
    const small = new Uint8Array(bytes.length - 1);
    const out = decodeInto(chunk, small, "k");
    expect(out.buffer).not.toBe(small.buffer);
    expect(out).toEqual(bytes);
    expect(decode(chunk, "k")).toEqual(bytes);
  });

  it("names the chunk when it is corrupt", () => {
    const bad = chunk.slice(0, chunk.length - 10);
    expect(() => decodeInto(bad, new Uint8Array(bytes.length), "t2m/c/0")).toThrow(expect.objectContaining({ code: "CODEC_FAILED", key: "t2m/c/0" }));
  });
});
