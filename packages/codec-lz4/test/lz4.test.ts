import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import {
  lz4,
  lz4CompressBlock,
  lz4CompressBlockHC,
  lz4CompressBlockInto,
  lz4CompressBound,
  lz4DecompressBlock,
  lz4DecompressBlockInto,
  numcodecsLz4Decode,
  numcodecsLz4Encode,
} from "../src/index.js";
import { compressible, sampleInputs } from "./inputs.js";
import { b64, python, sameBytes, unb64 } from "./python.js";

describe("LZ4 block round trips", () => {
  it("fast encoder, any acceleration", () => {
    fc.assert(
      fc.property(compressible, fc.integer({ min: 1, max: 20 }), (data, acc) => {
        const block = lz4CompressBlock(data, acc);
        expect(block.length).toBeLessThanOrEqual(lz4CompressBound(data.length));
        expect(sameBytes(lz4DecompressBlock(block, data.length), data)).toBe("equal");
      }),
      { numRuns: 300 },
    );
  });

  it("HC encoder, any level", () => {
    fc.assert(
      fc.property(compressible, fc.integer({ min: 1, max: 12 }), (data, level) => {
        const block = lz4CompressBlockHC(data, level);
        expect(sameBytes(lz4DecompressBlock(block, data.length), data)).toBe("equal");
      }),
      { numRuns: 300 },
    );
  });

  it("compresses repetitive data, HC at least as well as fast", () => {
    for (const data of sampleInputs().slice(4)) {
      const fast = lz4CompressBlock(data);
      const hc = lz4CompressBlockHC(data, 9);
      expect(sameBytes(lz4DecompressBlock(fast, data.length), data)).toBe("equal");
      expect(sameBytes(lz4DecompressBlock(hc, data.length), data)).toBe("equal");
      expect(hc.length).toBeLessThanOrEqual(fast.length + 16);
    }
    expect(lz4CompressBlock(new Uint8Array(100_000)).length).toBeLessThan(500);
  });

  it("decodes into a window of a larger buffer and reports the size", () => {
    const data = sampleInputs()[6];
    const block = lz4CompressBlock(data);
    const out = new Uint8Array(data.length + 20).fill(0xee);
    expect(lz4DecompressBlockInto(block, out, 10, 10 + data.length)).toBe(data.length);
    expect(sameBytes(out.subarray(10, 10 + data.length), data)).toBe("equal");
    expect(out[9]).toBe(0xee);
    expect(out[10 + data.length]).toBe(0xee);
  });

  it("limited output: returns 0 when the block does not fit", () => {
    const random = sampleInputs()[7];
    const out = new Uint8Array(random.length);
    expect(lz4CompressBlockInto(random, out, 0, random.length - 1, 1)).toBe(0);
  });
});

describe("interop with numcodecs.LZ4", () => {
  const inputs = sampleInputs();

  it("decodes what numcodecs encodes", () => {
    const encoded = python<string[]>(
      `import sys, json, base64, numcodecs
items = json.load(sys.stdin)
print(json.dumps([base64.b64encode(numcodecs.LZ4(acc).encode(base64.b64decode(d))).decode() for d, acc in items]))`,
      inputs.flatMap((d) => [
        [b64(d), 1],
        [b64(d), 8],
      ]),
    );
    encoded.forEach((e, i) => {
      expect(sameBytes(numcodecsLz4Decode(unb64(e), "k"), inputs[i >> 1])).toBe("equal");
    });
  });

  it("numcodecs decodes what we encode (fast and HC blocks)", () => {
    const ours = inputs.flatMap((d) => {
      const hc = lz4CompressBlockHC(d, 9);
      const framedHc = new Uint8Array(4 + hc.length);
      new DataView(framedHc.buffer).setUint32(0, d.length, true);
      framedHc.set(hc, 4);
      return [numcodecsLz4Encode(d, 1), numcodecsLz4Encode(d, 17), framedHc];
    });
    // numcodecs 0.11 cannot decode an empty chunk (not even its own encoding of one).
    ours.splice(0, 3);
    const decoded = python<string[]>(
      `import sys, json, base64, numcodecs
print(json.dumps([base64.b64encode(bytes(numcodecs.LZ4().decode(base64.b64decode(d)))).decode() for d in json.load(sys.stdin)]))`,
      ours.map(b64),
    );
    decoded.forEach((d, i) => {
      expect(sameBytes(unb64(d), inputs[1 + Math.floor(i / 3)])).toBe("equal");
    });
  });

  it("reads the zarr-python v2 lz4 fixture", () => {
    const chunk = readFileSync(join(fixturesDir(), "zarr-python/v2/data.zarr/1d.contiguous.lz4.i2/0"));
    const expected = JSON.parse(
      readFileSync(join(fixturesDir(), "zarr-python/expected/v2/1d.contiguous.lz4.i2.json"), "utf8"),
    ) as { values: string[] };
    const bytes = numcodecsLz4Decode(new Uint8Array(chunk), "1d.contiguous.lz4.i2/0");
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const values = Array.from({ length: bytes.length / 2 }, (_, i) => String(view.getInt16(2 * i, true)));
    expect(values).toEqual(expected.values);
  });
});

describe("corrupt input", () => {
  const expectCodecFailed = (f: () => unknown, key?: string) => {
    try {
      f();
    } catch (error) {
      expect(error).toBeInstanceOf(ZarrError);
      expect((error as ZarrError).code).toBe("CODEC_FAILED");
      if (key !== undefined) expect((error as ZarrError).message).toContain(key);
      return;
    }
    throw new Error("expected CODEC_FAILED");
  };

  it("rejects specific malformed blocks", () => {
    expectCodecFailed(() => lz4DecompressBlock(new Uint8Array(0), 0));
    // offset 0
    expectCodecFailed(() => lz4DecompressBlock(Uint8Array.of(0x10, 65, 0, 0, 0x00), 10));
    // offset before the start
    expectCodecFailed(() => lz4DecompressBlock(Uint8Array.of(0x10, 65, 2, 0, 0x00), 10));
    // literal length past the end
    expectCodecFailed(() => lz4DecompressBlock(Uint8Array.of(0xf0, 255, 255), 1000));
    // literals past the end
    expectCodecFailed(() => lz4DecompressBlock(Uint8Array.of(0x50, 1, 2), 5));
    // output too large
    expectCodecFailed(() => lz4DecompressBlock(Uint8Array.of(0x50, 1, 2, 3, 4, 5), 4));
    // output too small
    expectCodecFailed(() => lz4DecompressBlock(Uint8Array.of(0x50, 1, 2, 3, 4, 5), 6));
    // truncated offset
    expectCodecFailed(() => lz4DecompressBlock(Uint8Array.of(0x1f, 1, 1), 100));
  });

  it("mutated or truncated blocks decode or throw CODEC_FAILED, never anything else", () => {
    const data = sampleInputs()[6].subarray(0, 3000);
    const block = lz4CompressBlock(data);
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.nat(block.length - 1), value: fc.integer({ min: 0, max: 255 }) }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.nat(block.length),
        (edits, cut) => {
          const bad = block.slice(0, Math.max(1, cut));
          for (const { at, value } of edits) if (at < bad.length) bad[at] = value;
          try {
            lz4DecompressBlock(bad, data.length);
          } catch (error) {
            expect(error).toBeInstanceOf(ZarrError);
            expect((error as ZarrError).code).toBe("CODEC_FAILED");
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("rejects an implausible size header before allocating, naming the key", () => {
    const framed = new Uint8Array(10);
    new DataView(framed.buffer).setUint32(0, 0xfffffff0, true);
    expectCodecFailed(() => numcodecsLz4Decode(framed, "data/c/0"), "data/c/0");
    expectCodecFailed(() => numcodecsLz4Decode(Uint8Array.of(1, 0, 0), "data/c/1"), "data/c/1");
    const ok = numcodecsLz4Encode(new Uint8Array(100), 1);
    new DataView(ok.buffer, ok.byteOffset).setUint32(0, 99, true);
    expectCodecFailed(() => numcodecsLz4Decode(ok, "data/c/2"), "data/c/2");
  });
});

describe("codec entry", () => {
  const build = (configuration: Record<string, unknown>) =>
    lz4.fromConfig(configuration as never, {
      path: ["codecs", 1],
      spec: undefined as never,
      buildPipeline: undefined as never,
      resolveDataType: undefined as never,
    });

  it("round trips through encode/decode and records its configuration", async () => {
    const codec = await build({ acceleration: 3 });
    if (codec.kind !== "bytes_to_bytes") throw new Error("kind");
    const data = sampleInputs()[6];
    const enc = await codec.encode(data, { key: "k" });
    expect(sameBytes(await codec.decode(enc, { key: "k" }), data)).toBe("equal");
    expect(codec.toJSON()).toEqual({ name: "numcodecs.lz4", configuration: { acceleration: 3 } });
    expect((await build({})).toJSON()).toEqual({ name: "numcodecs.lz4", configuration: { acceleration: 1 } });
    expect(lz4.aliases).toContain("lz4");
  });

  it("rejects bad configurations with the JSON path", async () => {
    await expect(async () => build({ acceleration: 1.5 })).rejects.toMatchObject({
      code: "METADATA_INVALID",
      jsonPath: "$.codecs[1].configuration.acceleration",
    });
    await expect(async () => build({ level: 1 })).rejects.toMatchObject({ code: "METADATA_INVALID" });
  });

  it("decode errors name the chunk key", async () => {
    const codec = await build({});
    if (codec.kind !== "bytes_to_bytes") throw new Error("kind");
    const bad = numcodecsLz4Encode(new Uint8Array(1000).fill(7));
    bad[bad.length - 3] = 0xff;
    bad[6] = 0xff;
    await expect(async () => codec.decode(bad.subarray(0, bad.length - 2), { key: "arr/c/3" })).rejects.toMatchObject({
      code: "CODEC_FAILED",
      key: "arr/c/3",
    });
  });
});
