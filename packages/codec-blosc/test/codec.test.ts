/** The codec entry ("blosc" / "numcodecs.blosc"), its configuration, and the lazy entry. */
import type { ChunkSpec, CodecBuildContext, DataType, JsonObject } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { type BloscCname, blosc, CNAMES, computeBlocksize, readBloscHeader } from "../src/index.js";
import { bloscLazy } from "../src/lazy.js";
import { expectCodecFailed, makeData, python, sameBytes } from "./helpers.js";

function context(byteSize: number | undefined): CodecBuildContext {
  const dataType = { name: "test", byteSize } as unknown as DataType;
  const spec: ChunkSpec = { shape: [100], dataType, fillValue: 0 };
  return {
    spec,
    path: ["codecs", 1],
    buildPipeline: () => Promise.reject(new Error("unused")),
    resolveDataType: () => Promise.reject(new Error("unused")),
  };
}

async function build(configuration: JsonObject, byteSize: number | null = 4) {
  const codec = await blosc.fromConfig(configuration, context(byteSize ?? undefined));
  if (codec.kind !== "bytes_to_bytes") throw new Error("expected a bytes→bytes codec");
  return codec;
}

describe("configuration", () => {
  it("v3 shape: records every parameter", async () => {
    const codec = await build({ cname: "zstd", clevel: 3, shuffle: "bitshuffle", typesize: 2, blocksize: 0 });
    expect(codec.toJSON()).toEqual({
      name: "blosc",
      configuration: { cname: "zstd", clevel: 3, shuffle: "bitshuffle", typesize: 2, blocksize: 0 },
    });
  });

  it("takes typesize from the data type when missing", async () => {
    const codec = await build({ cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: 0 }, 8);
    expect(codec.toJSON().configuration.typesize).toBe(8);
    const data = makeData(80_000, 1);
    expect(readBloscHeader(await codec.encode(data, { key: "k" })).typesize).toBe(8);
    // Variable-size types have no byte size: typesize 1.
    const vlen = await build({ cname: "lz4", clevel: 5, shuffle: "noshuffle", blocksize: 0 }, null);
    expect(vlen.toJSON().configuration.typesize).toBe(1);
  });

  it("numcodecs shape, including AUTOSHUFFLE, under both names", async () => {
    expect(blosc.name).toBe("blosc");
    expect(blosc.aliases).toEqual(["numcodecs.blosc"]);
    const auto4 = await build({ id: "blosc", cname: "lz4", clevel: 5, shuffle: -1, blocksize: 0 }, 4);
    expect(auto4.toJSON()).toEqual({
      name: "numcodecs.blosc",
      configuration: { cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0, typesize: 4 },
    });
    const auto1 = await build({ cname: "lz4", clevel: 5, shuffle: -1, blocksize: 0 }, 1);
    expect(auto1.toJSON().configuration.shuffle).toBe(2);
    const data = makeData(10_000, 2);
    expect(readBloscHeader(await auto1.encode(data, { key: "k" })).shuffle).toBe("bitshuffle");
  });

  it("defaults like numcodecs: lz4, clevel 5, shuffle, automatic blocks", async () => {
    expect((await build({}, 2)).toJSON()).toEqual({
      name: "blosc",
      configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 2, blocksize: 0 },
    });
  });

  it("rejects bad configurations at their JSON path", async () => {
    const cases: [JsonObject, string][] = [
      [{ cname: "lzma" }, "cname"],
      [{ clevel: 10 }, "clevel"],
      [{ clevel: "5" }, "clevel"],
      [{ shuffle: "byte" }, "shuffle"],
      [{ shuffle: 3 }, "shuffle"],
      [{ typesize: 0 }, "typesize"],
      [{ blocksize: -1 }, "blocksize"],
      [{ level: 3 }, "level"],
      [{ id: "zstd" }, "id"],
    ];
    for (const [configuration, field] of cases) {
      await expect(build(configuration)).rejects.toMatchObject({
        code: "METADATA_INVALID",
        jsonPath: `$.codecs[1].configuration.${field}`,
      });
    }
  });
});

describe("encode and decode", () => {
  it("round trips and decodes chunks written with other settings", async () => {
    const data = makeData(200_003, 4);
    const a = await build({ cname: "zstd", clevel: 1, shuffle: "shuffle", typesize: 4, blocksize: 0 });
    const b = await build({ cname: "blosclz", clevel: 9, shuffle: 2, blocksize: 4096 }, 2);
    const chunk = await a.encode(data, { key: "k" });
    expect(sameBytes(await b.decode(chunk, { key: "k" }), data)).toBe("equal");
    expect(sameBytes(await a.decode(await b.encode(data, { key: "k" }), { key: "k" }), data)).toBe("equal");
  });

  it("decode errors are CODEC_FAILED naming the chunk key", async () => {
    const codec = await build({});
    expectCodecFailed(() => codec.decode(Uint8Array.of(2, 1, 0x21, 4, 0, 0, 0, 0x7f, 0, 0, 1, 0, 100, 0, 0, 0), { key: "a/c/0" }), "a/c/0");
  });
});

describe("lazy entry", () => {
  it("loads the codec entry on demand", async () => {
    expect(bloscLazy).toMatchObject({ type: "codec", name: "blosc", lazy: true, aliases: ["numcodecs.blosc"] });
    expect(await bloscLazy.load()).toBe(blosc);
  });
});

describe("computeBlocksize", () => {
  it("matches the block sizes c-blosc 1.21 writes (read from numcodecs' headers)", () => {
    const cases: [BloscCname, number, number, number, number][] = [];
    for (const cname of CNAMES)
      for (const clevel of [0, 1, 3, 5, 9])
        for (const typesize of [1, 4, 16, 32])
          for (const nbytes of [0, 3, 500, 40_000, 300_000])
            for (const forced of [0, 1000]) {
              // c-blosc's zstd at clevel 9 (zstd level 22) is slow to set up for each small block.
              if (cname === "zstd" && clevel === 9 && forced > 0) continue;
              cases.push([cname, clevel, typesize, nbytes - (nbytes % typesize), forced]);
            }
    const theirs = python<number[]>(
      `import sys, json, struct, numpy as np
from numcodecs.blosc import Blosc
out = []
for cname, clevel, ts, nbytes, forced in json.load(sys.stdin):
    arr = np.zeros(nbytes, dtype='u1').view('V%d' % ts) if ts > 1 else np.zeros(nbytes, dtype='u1')
    out.append(struct.unpack('<I', Blosc(cname, clevel, 1, forced).encode(arr)[8:12])[0])
print(json.dumps(out))`,
      cases,
    );
    const ours = cases.map(([cname, clevel, ts, nbytes, forced]) => computeBlocksize(cname, clevel, ts, nbytes, forced));
    expect(ours).toEqual(theirs);
  });
});
