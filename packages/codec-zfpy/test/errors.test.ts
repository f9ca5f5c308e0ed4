/**
 * Bad input: not a ZFP stream, an unknown codec version, invalid modes, cut-off streams,
 * headers announcing more than may be allocated, and streams that do not fit the array.
 * Each fails with a coded ZarrError naming the chunk, before allocating from the header.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChunkSpec, CodecBuildContext, DataType } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { readZfpHeader, type ZfpyCodec, zfpDecompress, zfpy } from "../src/index.js";
import { zfpHeader } from "./helpers.js";

const VECTORS = join(import.meta.dirname, "..", "test-data", "vectors");
const vector = (name: string) => new Uint8Array(readFileSync(join(VECTORS, `${name}.zfp`)));

describe("headers", () => {
  it("refuses what is not a ZFP stream", () => {
    expect(() => zfpDecompress(new Uint8Array(0), { key: "c/0" })).toThrow(expect.objectContaining({ code: "CODEC_FAILED", key: "c/0" }));
    expect(() => zfpDecompress(new Uint8Array(11), { key: "c/0" })).toThrow(/too short for a ZFP header/);
    const bad = vector("f32-2d-accuracy");
    bad[1] = 0x67;
    expect(() => zfpDecompress(bad, { key: "c/1" })).toThrow(expect.objectContaining({ code: "CODEC_FAILED", message: expect.stringMatching(/"c\/1".*not a ZFP stream \(it starts with 7a 67 70/) }));
  });

  it("refuses a codec version other than 5 as UNSUPPORTED", () => {
    const stream = zfpHeader(2, [4], 2048 + 128, 4).bytes();
    expect(() => readZfpHeader(stream, "c/2")).toThrow(expect.objectContaining({ code: "UNSUPPORTED", key: "c/2", message: expect.stringMatching(/codec version 4/) }));
  });

  it("refuses an expert mode libzfp would refuse", () => {
    // minbits 100 > maxbits 50.
    const minbitsOverMax = zfpHeader(2, [4], 0xfff).write(99, 15).write(49, 15).write(63, 7).write(16495 - 1074, 15).bytes();
    expect(() => readZfpHeader(minbitsOverMax, "c/3")).toThrow(expect.objectContaining({ code: "CODEC_FAILED", message: expect.stringMatching(/invalid ZFP mode \(minbits 100, maxbits 50/) }));
    // maxprec 65 (the 7-bit field holds up to 128).
    const precision = zfpHeader(2, [4], 0xfff).write(0, 15).write(99, 15).write(64, 7).write(16495 - 1074, 15).bytes();
    expect(() => readZfpHeader(precision, "c/3")).toThrow(/maxprec 65/);
    // The 64-bit form cut short.
    expect(() => readZfpHeader(zfpHeader(2, [4], 0xfff).write(0, 20).bytes(), "c/3")).toThrow(/ends inside the ZFP header/);
  });

  it("keeps only the low 32 bits of a 1-D size, as libzfp does", () => {
    const w = zfpHeader(2, [1], 2176);
    const bytes = w.bytes();
    // Set bit 32 of the 48-bit size field (bits 36–83 of the stream).
    bytes[(36 + 32) >> 3] |= 1 << ((36 + 32) & 7);
    expect(readZfpHeader(bytes).size).toEqual([1]);
  });

  it("reads the mode forms: reversible, accuracy, precision, rate and expert", () => {
    expect(readZfpHeader(zfpHeader(2, [4], 2176).bytes()).mode).toBe("reversible");
    expect(readZfpHeader(zfpHeader(2, [4], 2177).bytes()).params.minexp).toBe(-1074);
    expect(readZfpHeader(zfpHeader(2, [4], 2177 + 1074 - 7).bytes())).toMatchObject({ mode: "fixed-accuracy", params: { minexp: -7 } });
    expect(readZfpHeader(zfpHeader(2, [4], 2048 + 15).bytes())).toMatchObject({ mode: "fixed-precision", params: { maxprec: 16 } });
    expect(readZfpHeader(zfpHeader(0, [4, 5], 63).bytes())).toMatchObject({ type: "int32", size: [4, 5], mode: "fixed-rate", params: { minbits: 64, maxbits: 64 } });
    const expert = readZfpHeader(zfpHeader(3, [2, 3, 4, 5], 0xfff).write(9, 15).write(999, 15).write(29, 7).write(16495 - 20, 15).bytes());
    expect(expert).toMatchObject({ type: "float64", size: [2, 3, 4, 5], mode: "expert", modeBits: 64, params: { minbits: 10, maxbits: 1000, maxprec: 30, minexp: -20 } });
  });
});

describe("bounds", () => {
  it("refuses a header announcing more than the bound, before allocating", () => {
    // 65536³ float64 values: 2 PiB.
    const huge = zfpHeader(3, [65536, 65536, 65536], 2176).write(0, 64).bytes();
    expect(() => zfpDecompress(huge, { key: "c/4" })).toThrow(expect.objectContaining({ code: "CODEC_FAILED", key: "c/4", message: expect.stringMatching(/would decode to 2251799813685248 bytes, more than the 2147483648/) }));
    const stream = vector("f32-3d-rate"); // 90 float32 values: 360 bytes
    expect(zfpDecompress(stream, { maxOutputBytes: 360 }).data.length).toBe(90);
    expect(() => zfpDecompress(stream, { key: "c/5", maxOutputBytes: 359 })).toThrow(/"c\/5" would decode to 360 bytes, more than the 359/);
  });

  it("refuses a stream too short for its blocks before allocating", () => {
    // 2^24 float32 values (64 MiB) in 2^20 blocks need at least 2^20 bits; 16 bytes are given.
    const short = zfpHeader(2, [4096, 4096], 2176).write(0, 32).bytes();
    expect(() => zfpDecompress(short, { key: "c/6" })).toThrow(expect.objectContaining({ code: "CODEC_FAILED", message: expect.stringMatching(/"c\/6" is cut off/) }));
    // Without a bound, 65536³ float32 values (1 PiB) could not even be allocated: the block count refuses them first.
    const vast = zfpHeader(2, [65536, 65536, 65536], 2176).write(0, 32).bytes();
    expect(() => zfpDecompress(vast, { key: "c/7", maxOutputBytes: Number.POSITIVE_INFINITY })).toThrow(/"c\/7" is cut off/);
  });

  it("refuses every truncation of a stream", () => {
    for (const name of ["f32-2d-accuracy", "f64-4d-rate", "i32-1d-reversible", "i64-3d-precision", "f32-3d-expert"]) {
      const stream = vector(name);
      expect(() => zfpDecompress(stream)).not.toThrow();
      for (let cut = 0; cut < stream.length; cut += 1 + Math.floor(cut / 16)) {
        expect(() => zfpDecompress(stream.subarray(0, cut), { key: `${name}/${cut}` })).toThrow(expect.objectContaining({ code: "CODEC_FAILED", key: `${name}/${cut}` }));
      }
    }
  });

  it("stops when aborted", () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    expect(() => zfpDecompress(vector("f32-2d-accuracy"), { signal: controller.signal })).toThrow(expect.objectContaining({ code: "ABORTED" }));
  });
});

describe("the codec", () => {
  const float32 = { name: "float32", byteSize: 4 } as DataType;
  const spec = (shape: number[], dataType = float32) => ({ shape, dataType, fillValue: 0 }) as ChunkSpec;
  const build = (s: ChunkSpec) => zfpy.fromConfig({ mode: 4, tolerance: 0.001 }, { spec: s, path: ["codecs", 0] } as unknown as CodecBuildContext);

  it("decodes a stream of the chunk's type and shape", async () => {
    const codec = await build(spec([6, 7]));
    if (codec.kind !== "array_to_bytes") throw new Error("kind");
    const chunk = await codec.decode(vector("f32-2d-accuracy"), spec([6, 7]), { key: "c/0.0" });
    expect(chunk.shape).toEqual([6, 7]);
    expect(chunk.stride).toEqual([7, 1]);
    expect(chunk.data).toBeInstanceOf(Float32Array);
  });

  it("refuses a stream of another type or shape, naming the chunk", async () => {
    const codec = await build(spec([6, 7]));
    if (codec.kind !== "array_to_bytes") throw new Error("kind");
    await expect(async () => codec.decode(vector("f64-1d-accuracy"), spec([6, 7]), { key: "t/0.0" })).rejects.toMatchObject({
      code: "CODEC_FAILED",
      key: "t/0.0",
      message: expect.stringMatching(/holds a float64 field of shape \[11\], but the array's chunks are float32 of shape \[6,7\]/),
    });
    await expect(async () => codec.decode(vector("f32-2d-accuracy"), spec([7, 6]), { key: "t/0.1" })).rejects.toThrow(/shape \[6,7\].*shape \[7,6\]/);
    await expect(async () => codec.decode(new Uint8Array(3), spec([6, 7]), { key: "t/0.2" })).rejects.toMatchObject({ code: "CODEC_FAILED", key: "t/0.2" });
  });

  it("validates its configuration", () => {
    const s = spec([4]);
    const ctx = { spec: s, path: ["codecs", 2] } as unknown as CodecBuildContext;
    expect(() => zfpy.fromConfig({ mode: 4, tolerance: "0.1" }, ctx)).toThrow(expect.objectContaining({ code: "METADATA_INVALID", message: expect.stringMatching(/\$\.codecs\[2\]\.configuration\.tolerance: expected a number/) }));
    expect(() => zfpy.fromConfig({ level: 1 }, ctx)).toThrow(/unknown zfpy codec option "level"/);
    const codec = zfpy.fromConfig({ id: "zfpy", mode: 2, rate: 8, compression_kwargs: { rate: 8 } }, ctx) as ZfpyCodec;
    expect(codec.toJSON()).toEqual({ name: "numcodecs.zfpy", configuration: { mode: 2, rate: 8, compression_kwargs: { rate: 8 } } });
  });
});
