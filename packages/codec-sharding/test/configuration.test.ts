/** Configuration validation, metadata round trip, options, rectilinear shards, edge cases. */
import {
  createArray,
  get,
  type JsonObject,
  MemoryStore,
  MetadataError,
  openArray,
  set,
  slice,
  ZarrError,
} from "@zarr/core";
import { describe, expect, it } from "vitest";
import { createShardingEntry, DEFAULT_INDEX_CODECS, DEFAULT_SHARDING_OPTIONS, shardingIndexed } from "../src/index.js";
import { registryWith } from "./helpers.js";

const BYTES: JsonObject = { name: "bytes", configuration: { endian: "little" } };

async function create(configuration: JsonObject) {
  return createArray(new MemoryStore(), "a", {
    shape: [8, 8],
    chunkShape: [8, 8],
    dataType: "uint8",
    registry: registryWith(),
    codecs: [{ name: "sharding_indexed", configuration }],
  });
}

async function metadataError(configuration: JsonObject): Promise<MetadataError> {
  const error = await create(configuration).catch((e) => e);
  expect(error).toBeInstanceOf(MetadataError);
  return error as MetadataError;
}

describe("configuration", () => {
  it("rejects inner chunk shapes that do not divide the shard", async () => {
    const e = await metadataError({ chunk_shape: [3, 4], codecs: [BYTES] });
    expect(e.path).toEqual(["codecs", 0, "configuration", "chunk_shape"]);
    expect(e.message).toMatch(/does not evenly divide/);
    expect((await metadataError({ chunk_shape: [4], codecs: [BYTES] })).path).toEqual([
      "codecs",
      0,
      "configuration",
      "chunk_shape",
    ]);
    expect((await metadataError({ chunk_shape: [4, 0], codecs: [BYTES] })).path).toEqual([
      "codecs",
      0,
      "configuration",
      "chunk_shape",
      1,
    ]);
    expect((await metadataError({ codecs: [BYTES] })).path.at(-1)).toBe("chunk_shape");
  });

  it("rejects index codecs without a fixed size, bad locations, unknown fields, bad chains", async () => {
    const gz = await metadataError({
      chunk_shape: [4, 4],
      codecs: [BYTES],
      index_codecs: [BYTES, { name: "gzip", configuration: { level: 1 } }],
    });
    expect(gz.path).toEqual(["codecs", 0, "configuration", "index_codecs"]);
    expect((await metadataError({ chunk_shape: [4, 4], codecs: [BYTES], index_location: "middle" })).path).toEqual([
      "codecs",
      0,
      "configuration",
      "index_location",
    ]);
    expect((await metadataError({ chunk_shape: [4, 4], codecs: [BYTES], extra: 1 })).path.at(-1)).toBe("extra");
    expect((await metadataError({ chunk_shape: [4, 4] })).path.at(-1)).toBe("codecs");
    const twice = await metadataError({ chunk_shape: [4, 4], codecs: [BYTES, BYTES] });
    expect(twice.path).toEqual(["codecs", 0, "configuration", "codecs", 1]);
  });

  it("writes the default index codecs into the metadata and reads bare codec names", async () => {
    const arr = await create({ chunk_shape: [4, 4], codecs: ["bytes"] });
    expect(arr.metadata.codecs[0]).toBeDefined();
    const json = arr.codecs.toJSON()[0];
    expect(json).toEqual({
      name: "sharding_indexed",
      configuration: {
        chunk_shape: [4, 4],
        codecs: [{ name: "bytes", configuration: {} }],
        index_codecs: DEFAULT_INDEX_CODECS,
        index_location: "end",
      },
    });
    expect(arr.codecs.computeEncodedSize(arr.chunkSpec([0, 0]))).toBeUndefined();
  });

  it("decodes indexes through any fixed-size index chain (big endian, transposed)", async () => {
    const store = new MemoryStore();
    const registry = registryWith();
    const arr = await createArray(store, "x", {
      shape: [6, 6],
      chunkShape: [6, 6],
      dataType: "int16",
      registry,
      codecs: [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: [2, 3],
            codecs: [BYTES],
            index_codecs: [
              { name: "transpose", configuration: { order: [2, 1, 0] } },
              { name: "bytes", configuration: { endian: "big" } },
            ],
          },
        },
      ],
    });
    const data = new Int16Array(36).map((_, i) => (i % 5 === 0 ? 0 : i));
    await set(arr, null, data);
    await set(arr, [slice(0, 2), slice(0, 3)], 0); // inner chunk (0, 0) becomes empty
    data.set([0, 0, 0], 0);
    data.set([0, 0, 0], 6);
    const reopened = await openArray(store, "x", { registry });
    expect(Array.from((await get(reopened)).data as Int16Array)).toEqual(Array.from(data));
    expect(Array.from((await get(reopened, [1, slice(2, 5)])).data as Int16Array)).toEqual([0, 9, 0]);
    // The index (3 × 2 × 2 uint64, transposed, big endian) is the last 96 bytes; empty = all ones.
    const shard = store.map.get("x/c/0/0")!;
    const index = new DataView(shard.buffer, shard.byteOffset + shard.length - 96, 96);
    // Transposed: element [k][j][i] holds entry i, j of the [3, 2] grid's field k (0 = offset).
    expect(index.getBigUint64(0, false)).toBe(0xffff_ffff_ffff_ffffn); // offset of (0, 0): empty
    expect(index.getBigUint64(3 * 8, false)).toBe(0n); // offset of (0, 1): stored first
    expect(index.getBigUint64(1 * 8, false)).toBe(12n); // offset of (1, 0): after 2 × 3 int16
    expect(index.getBigUint64(7 * 8, false)).toBe(12n); // nbytes of (1, 0)
  });

  it("checks options", () => {
    expect(() => createShardingEntry({ fetchConcurrency: 0 })).toThrow(ZarrError);
    expect(() => createShardingEntry({ coalesceGap: -1 })).toThrow(/coalesceGap/);
    expect(DEFAULT_SHARDING_OPTIONS.indexCacheEntries).toBe(256);
    expect(shardingIndexed.name).toBe("sharding_indexed");
    expect(shardingIndexed.package).toBe("@zarr/codec-sharding");
  });
});

describe("shard shapes", () => {
  it("rectilinear grids: each shard must be divisible by the inner chunk shape", async () => {
    const store = new MemoryStore();
    const registry = registryWith();
    const arr = await createArray(store, "r", {
      shape: [10, 4],
      chunkShapes: [[4, 6], 4],
      dataType: "int16",
      registry,
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [2, 2], codecs: [BYTES] } }],
    });
    const data = new Int16Array(40).map((_, i) => i + 1);
    await set(arr, null, data);
    expect(Array.from((await get(arr)).data as Int16Array)).toEqual(Array.from(data));
    expect(Array.from((await get(arr, [slice(3, 7), 1])).data as Int16Array)).toEqual([14, 18, 22, 26]);
    const bad = await createArray(store, "b", {
      shape: [7],
      chunkShapes: [[4, 3]],
      dataType: "int16",
      registry,
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [2], codecs: [BYTES] } }],
    });
    await set(bad, [slice(0, 4)], 1);
    const error = await set(bad, [5], 1).catch((e) => e);
    expect(error).toBeInstanceOf(ZarrError);
    expect(error.code).toBe("CODEC_FAILED");
    expect(error.key).toBe("b/c/1");
    expect(error.message).toMatch(/does not evenly divide/);
  });

  it("0-d arrays", async () => {
    const store = new MemoryStore();
    const registry = registryWith();
    const arr = await createArray(store, "z", {
      shape: [],
      dataType: "float64",
      registry,
      fillValue: 1.5,
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [], codecs: [BYTES] } }],
    });
    expect((await get(arr)).data[0]).toBe(1.5);
    await set(arr, null, 3.25);
    const reopened = await openArray(store, "z", { registry });
    expect((await get(reopened)).data[0]).toBe(3.25);
    await set(reopened, null, 1.5);
    expect(store.map.has("z/c")).toBe(false);
  });

  it("empty inner chunks read as a non-zero fill value", async () => {
    const store = new MemoryStore();
    const registry = registryWith();
    const arr = await createArray(store, "f", {
      shape: [6],
      chunkShape: [6],
      dataType: "float32",
      fillValue: "NaN",
      registry,
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [2], codecs: [BYTES] } }],
    });
    await set(arr, [slice(2, 4)], 1);
    const all = Array.from((await get(arr)).data as Float32Array);
    expect(all.map((v) => (Number.isNaN(v) ? "NaN" : v))).toEqual(["NaN", "NaN", 1, 1, "NaN", "NaN"]);
    expect(Array.from((await get(arr, [[5, 2, 0]])).data as Float32Array).map(String)).toEqual(["NaN", "1", "NaN"]);
  });
});
