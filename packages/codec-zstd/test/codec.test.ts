/** The `zstd` codec entry: configuration, encode/decode with chunk keys, the lazy entry, node:zlib plumbing. */
import { type BytesToBytesCodec, type ChunkSpec, type CodecBuildContext, MetadataError, ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { createZstdCodec, parseZstdConfiguration, zstd, zstdCompress, zstdDecompress } from "../src/index.js";
import { zstdLazy } from "../src/lazy.js";
import { compressWithZlib, frameHasContentSize, loadNativeZlib, type ZlibWithZstd } from "../src/native.js";
import { libzstdDecode, sameBytes, sampleArrays } from "./reference.js";

const context: CodecBuildContext = {
  spec: { shape: [10], dataType: {} as ChunkSpec["dataType"], fillValue: 0 },
  path: ["codecs", 1],
  buildPipeline: () => Promise.reject(new Error("unused")),
  resolveDataType: () => Promise.reject(new Error("unused")),
};

async function build(configuration: Record<string, unknown>): Promise<BytesToBytesCodec> {
  const codec = await zstd.fromConfig(configuration as never, context);
  if (codec.kind !== "bytes_to_bytes") throw new Error("wrong kind");
  return codec;
}

describe("zstd codec entry", () => {
  it("describes itself", () => {
    expect(zstd.name).toBe("zstd");
    expect(zstd.aliases).toContain("numcodecs.zstd");
    expect(zstd.codecKind).toBe("bytes_to_bytes");
    expect(zstd.package).toBe("@zarr/codec-zstd");
  });

  it("round-trips through encode/decode and writes its configuration back", async () => {
    const codec = await build({ level: 5, checksum: true });
    expect(codec.toJSON()).toEqual({ name: "zstd", configuration: { level: 5, checksum: true } });
    const data = sampleArrays(50_000, 9).float32Temperatures;
    const encoded = await codec.encode(data, { key: "t/c/0" });
    // Checksum flag set in the frame header; libzstd agrees with the content.
    expect(encoded[4] & 0x04).toBe(0x04);
    const [ref] = libzstdDecode([encoded]);
    expect(ref.ok && sameBytes(ref.bytes, data)).toBe(true);
    expect(sameBytes(await codec.decode(encoded, { key: "t/c/0" }), data)).toBe(true);
  });

  it("defaults: level 0 (libzstd's default) and no checksum; numcodecs configurations with an id", async () => {
    expect((await build({})).toJSON()).toEqual({ name: "zstd", configuration: { level: 0, checksum: false } });
    expect(parseZstdConfiguration({ id: "zstd", level: 1 }, [])).toEqual({ level: 1, checksum: false });
  });

  it("rejects bad configurations with the JSON path", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ level: 23 }, "$.codecs[1].configuration.level"],
      [{ level: -131073 }, "$.codecs[1].configuration.level"],
      [{ level: 2.5 }, "$.codecs[1].configuration.level"],
      [{ level: "3" }, "$.codecs[1].configuration.level"],
      [{ level: 3, checksum: "yes" }, "$.codecs[1].configuration.checksum"],
      [{ level: 3, speed: 1 }, "$.codecs[1].configuration.speed"],
    ];
    for (const [configuration, jsonPath] of cases) {
      await expect(build(configuration)).rejects.toSatisfy(
        (e: unknown) => e instanceof MetadataError && e.code === "METADATA_INVALID" && e.jsonPath === jsonPath,
      );
    }
  });

  it("names the chunk key when decoding fails", async () => {
    const codec = await build({ level: 3, checksum: true });
    const encoded = await codec.encode(new TextEncoder().encode("some chunk content ".repeat(20)), { key: "a/c/1" });
    const truncated = encoded.subarray(0, encoded.length - 6);
    await expect(async () => codec.decode(truncated, { key: "a/c/1" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ZarrError && e.code === "CODEC_FAILED" && e.key === "a/c/1" && e.message.includes('"a/c/1"'),
    );
    const badSum = encoded.slice();
    badSum[badSum.length - 1] ^= 1;
    await expect(async () => codec.decode(badSum, { key: "a/c/2" })).rejects.toSatisfy(
      (e: unknown) => e instanceof ZarrError && e.code === "CHECKSUM_MISMATCH" && e.key === "a/c/2",
    );
  });

  it("honours an aborted signal", async () => {
    const codec = createZstdCodec({ level: 1 });
    const controller = new AbortController();
    controller.abort();
    await expect(codec.encode(new Uint8Array(10), { key: "k", signal: controller.signal })).rejects.toSatisfy(
      (e: unknown) => e instanceof ZarrError && e.code === "ABORTED",
    );
  });

  it("the lazy entry loads the same codec", async () => {
    expect(zstdLazy.lazy).toBe(true);
    expect(zstdLazy.name).toBe("zstd");
    expect(zstdLazy.aliases).toEqual(zstd.aliases);
    expect(await zstdLazy.load()).toBe(zstd);
  });
});

describe("node:zlib zstd (native) path", () => {
  it("is used only when node:zlib has zstdCompress", async () => {
    const zlib = await loadNativeZlib();
    const [major, minor] = process.versions.node.split(".").map(Number);
    const expected = major > 23 || (major === 23 && minor >= 8) || (major === 22 && minor >= 15);
    expect(zlib !== undefined).toBe(expected);
  });

  it("passes level and checksum, and falls back when the frame lacks a content size", async () => {
    const calls: Array<Record<number, number>> = [];
    const fake = (dropSize: boolean): ZlibWithZstd => ({
      constants: { ZSTD_c_compressionLevel: 100, ZSTD_c_checksumFlag: 201 },
      zstdCompress(input, options, callback) {
        calls.push(options.params);
        expect(options.pledgedSrcSize).toBe(input.length);
        const frame = zstdCompress(input, options.params[100], options.params[201] === 1);
        if (dropSize) frame[4] = 0; // pretend: a streamed frame (no size flags)
        callback(null, frame);
      },
    });
    const data = new TextEncoder().encode("native ".repeat(100));
    const out = await compressWithZlib(fake(false), data, 7, true);
    expect(calls[0]).toEqual({ 100: 7, 201: 1 });
    expect(out !== undefined && sameBytes(zstdDecompress(out), data)).toBe(true);
    expect(await compressWithZlib(fake(true), data, 7, false)).toBeUndefined();
    expect(frameHasContentSize(zstdCompress(data))).toBe(true);
  });
});
