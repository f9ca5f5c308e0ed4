/**
 * Request counts of partial reads: the index costs one request per shard until it is
 * cached, neighbouring inner chunks are read with one coalesced range, and stores
 * without range reads are read once per shard.
 */
import {
  type ByteRange,
  createArray,
  type JsonObject,
  get,
  openArray,
  type Registry,
  set,
  slice,
  type ZarrArray,
} from "@zarr/core";
import { describe, expect, it } from "vitest";
import { CountingStore, countingSource, registryWith, storeWithoutRanges } from "./helpers.js";

const BYTES: JsonObject = { name: "bytes", configuration: { endian: "little" } };

/** A [32, 64] int16 array of one or two shards of [32, 64] with 8 × 8 inner chunks of [4, 8]. */
async function makeArray(
  registry: Registry,
  options: { codecs?: JsonObject[]; shards?: number; location?: "start" | "end" } = {},
): Promise<{ store: CountingStore; data: Int16Array; reopen: (r?: Registry) => Promise<ZarrArray> }> {
  const store = new CountingStore();
  const shards = options.shards ?? 1;
  const shape = [32, 64 * shards];
  await createArray(store, "a", {
    shape,
    dataType: "int16",
    chunkShape: [32, 64],
    registry,
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [4, 8],
          codecs: options.codecs ?? [BYTES],
          index_location: options.location ?? "end",
        },
      },
    ],
  });
  const arr = await openArray(store, "a", { registry });
  const data = new Int16Array(shape[0] * shape[1]).map((_, i) => (i % 1000) + 1);
  await set(arr, null, data);
  return { store, data, reopen: (r = registry) => openArray(store, "a", { registry: r }) };
}

function expectRows(got: ArrayLike<number>, data: Int16Array, rows: [number, number], cols: [number, number], width: number) {
  const expected: number[] = [];
  for (let r = rows[0]; r < rows[1]; r++) for (let c = cols[0]; c < cols[1]; c++) expected.push(data[r * width + c]);
  expect(Array.from(got)).toEqual(expected);
}

describe("request counts through @zarr/core", () => {
  it("one inner chunk: index + chunk cold, one request warm", async () => {
    const registry = registryWith();
    const { store, data, reopen } = await makeArray(registry);
    const arr = await reopen();
    store.reset();
    const one = await get(arr, [slice(4, 8), slice(8, 16)]);
    expectRows(one.data as Int16Array, data, [4, 8], [8, 16], 64);
    expect(store.log.map((r) => r.method)).toEqual(["getRange", "getRange"]);
    expect(store.log[0].range).toEqual({ suffixLength: 64 * 16 + 4 });
    // Inner chunk (1, 1) is the 10th of 64 bytes-only chunks of 64 bytes each. The first
    // read of a shard whose index is at the end reaches over the index (the last inner
    // chunk ends within the coalescing gap), which proves no inner chunk overlaps it.
    expect(store.log[1].range).toEqual({ offset: 9 * 64, length: 64 * 64 - 9 * 64 + 64 * 16 + 4 });
    store.reset();
    const again = await get(arr, [slice(5, 7), slice(9, 10)]);
    expectRows(again.data as Int16Array, data, [5, 7], [9, 10], 64);
    expect(store.log).toHaveLength(1);
    store.reset();
    // Another inner chunk of the same shard: the index is cached.
    const other = await get(arr, [slice(28, 32), slice(56, 64)]);
    expectRows(other.data as Int16Array, data, [28, 32], [56, 64], 64);
    expect(store.log).toHaveLength(1);
    expect(store.log[0].range).toEqual({ offset: 63 * 64, length: 64 });
  });

  it("a row of 8 neighbouring inner chunks: index + one coalesced range", async () => {
    const registry = registryWith();
    const { store, data, reopen } = await makeArray(registry, {
      codecs: [BYTES, { name: "gzip", configuration: { level: 1 } }],
    });
    const arr = await reopen();
    store.reset();
    const row = await get(arr, [slice(8, 12), null]);
    expectRows(row.data as Int16Array, data, [8, 12], [0, 64], 64);
    expect(store.log).toHaveLength(2);
    store.reset();
    await get(arr, [slice(12, 16), null]);
    expect(store.log).toHaveLength(1);
  });

  it("coalesces only across small gaps (coalesceGap)", async () => {
    const tight = registryWith([], { coalesceGap: 0 });
    const { store, data, reopen } = await makeArray(tight);
    const arr = await reopen();
    store.reset();
    // A column of 8 inner chunks: 7 chunks (448 bytes) apart.
    const column = await get(arr, [null, slice(0, 8)]);
    expectRows(column.data as Int16Array, data, [0, 32], [0, 8], 64);
    expect(store.log).toHaveLength(1 + 8);
    store.reset();
    // Adjacent inner chunks still share a request.
    await get(arr, [slice(0, 4), null]);
    expect(store.log).toHaveLength(1);
    // With the default gap of 64 KiB the column is one request.
    const wide = await reopen(registryWith());
    store.reset();
    await get(wide, [null, slice(0, 8)]);
    expect(store.log).toHaveLength(2);
  });

  it("reads the whole shard at once when every inner chunk is needed", async () => {
    const registry = registryWith();
    const { store, data, reopen } = await makeArray(registry, { shards: 2 });
    const arr = await reopen();
    store.reset();
    const all = await get(arr);
    expect(Array.from(all.data as Int16Array)).toEqual(Array.from(data));
    expect(store.log.map((r) => r.method)).toEqual(["get", "get"]);
    // ...and keeps the index: a later partial read needs one request.
    store.reset();
    await get(arr, [0, 0]);
    expect(store.log).toHaveLength(1);
  });

  it("reads each shard once from a store without range reads", async () => {
    const registry = registryWith();
    const { store, data } = await makeArray(registry, { shards: 2 });
    const arr = await openArray(storeWithoutRanges(store), "a", { registry });
    for (let i = 0; i < 2; i++) {
      store.reset();
      const part = await get(arr, [slice(3, 9), slice(60, 70)]);
      expectRows(part.data as Int16Array, data, [3, 9], [60, 70], 128);
      expect(store.log.map((r) => r.method)).toEqual(["get", "get"]);
    }
  });

  it("index at the start: offset-0 index range", async () => {
    const registry = registryWith();
    const { store, data, reopen } = await makeArray(registry, { location: "start" });
    const arr = await reopen();
    store.reset();
    const one = await get(arr, [slice(0, 4), slice(0, 8)]);
    expectRows(one.data as Int16Array, data, [0, 4], [0, 8], 64);
    expect(store.log.map((r) => r.range)).toEqual([
      { offset: 0, length: 64 * 16 + 4 },
      { offset: 64 * 16 + 4, length: 64 },
    ]);
  });

  it("nested sharding: outer index, inner index, one inner-inner chunk", async () => {
    const registry = registryWith();
    const nested: JsonObject = {
      name: "sharding_indexed",
      configuration: { chunk_shape: [2, 2], codecs: [BYTES] },
    };
    const { store, data, reopen } = await makeArray(registry, { codecs: [nested] });
    const arr = await reopen();
    store.reset();
    const v = await get(arr, [slice(6, 8), slice(10, 12)]);
    expectRows(v.data as Int16Array, data, [6, 8], [10, 12], 64);
    expect(store.log).toHaveLength(3);
    store.reset();
    await get(arr, [slice(6, 8), slice(12, 14)]);
    expect(store.log).toHaveLength(1);
  });
});

describe("the index cache", () => {
  it("is bounded by entries (LRU)", async () => {
    const registry = registryWith([], { indexCacheEntries: 2 });
    const { store, reopen } = await makeArray(registry, { shards: 3 });
    const arr = await reopen();
    const readShard = async (s: number) => {
      store.reset();
      await get(arr, [0, 64 * s]);
      return store.log.length;
    };
    expect(await readShard(0)).toBe(2);
    expect(await readShard(1)).toBe(2);
    expect(await readShard(0)).toBe(1); // cached, now most recent
    expect(await readShard(2)).toBe(2); // evicts shard 1
    expect(await readShard(0)).toBe(1);
    expect(await readShard(1)).toBe(2);
  });

  it("is bounded by bytes, and can be disabled", async () => {
    for (const options of [{ indexCacheBytes: 100 }, { indexCacheEntries: 0 }]) {
      const registry = registryWith([], options);
      const { store, reopen } = await makeArray(registry);
      const arr = await reopen();
      for (let i = 0; i < 2; i++) {
        store.reset();
        await get(arr, [0, 0]);
        expect(store.log).toHaveLength(2);
      }
    }
  });

  it("clearCache() drops it; whole-shard writes drop the shard's entry; partial writes refresh it", async () => {
    const registry = registryWith();
    const { store, reopen } = await makeArray(registry);
    const arr = await reopen();
    await get(arr, [0, 0]);
    store.reset();
    await get(arr, [0, 0]);
    expect(store.log).toHaveLength(1);
    arr.codecs.clearCache();
    store.reset();
    await get(arr, [0, 0]);
    expect(store.log).toHaveLength(2);
    // A partial write leaves a fresh index behind: the next read needs one request.
    await set(arr, [1, 1], 1234);
    store.reset();
    expect((await get(arr, [1, 1])).data[0]).toBe(1234);
    expect(store.log).toHaveLength(1);
    // A whole-shard write drops it.
    await set(arr, null, 7);
    store.reset();
    expect((await get(arr, [1, 1])).data[0]).toBe(7);
    expect(store.log).toHaveLength(2);
  });

  it("survives the shard being deleted behind the cached index", async () => {
    const registry = registryWith();
    const { store, reopen } = await makeArray(registry);
    const arr = await reopen();
    expect((await get(arr, [0, 0])).data[0]).toBe(1);
    // An all-fill whole-shard write deletes the shard without calling the codec.
    await set(arr, null, 0);
    expect(store.map.has("a/c/0/0")).toBe(false);
    expect((await get(arr, [0, 0])).data[0]).toBe(0);
    // Another writer (another array instance) rewrites the shard with other sizes.
    const other = await reopen(registryWith());
    await set(arr, [slice(0, 4), slice(0, 8)], 5);
    expect((await get(arr, [0, 0])).data[0]).toBe(5);
    await set(other, null, new Int16Array(32 * 64).fill(9));
    arr.codecs.clearCache();
    expect((await get(arr, [0, 0])).data[0]).toBe(9);
  });
});

describe("decodePartialInto with a ByteSource", () => {
  it("counts requests, writes into the caller's target and reports a missing shard", async () => {
    const registry = registryWith();
    const { store, data, reopen } = await makeArray(registry);
    const arr = await reopen();
    expect(arr.codecs.shardContainer).toBe(true);
    // What readers going region by region align to: the inner chunks, not the 32×64 shards.
    const [sharding] = arr.codecs.codecs;
    expect(sharding.kind === "array_to_bytes" && sharding.innerChunkShape).toEqual([4, 8]);
    const shard = store.map.get("a/c/0/0");
    const spec = arr.chunkSpec([0, 0]);
    const source = countingSource(shard);
    const sel = [
      { start: 4, step: 1, count: 4 },
      { indices: [17, 3, 40] },
    ];
    // The selection lands at rows 1..4 (every other column) of a larger result.
    const outArray = { data: new Int16Array(6 * 7).fill(-1), shape: [6, 7], stride: [7, 1] };
    const dst = [
      { start: 1, step: 1, count: 4 },
      { start: 0, step: 2, count: 3 },
    ];
    const target = { out: outArray, src: sel, dst };
    expect(await arr.codecs.decodePartialInto(source, spec, target, { key: "k" })).toBe(true);
    const expected = new Int16Array(6 * 7).fill(-1);
    for (let r = 0; r < 4; r++) {
      for (const [k, c] of [17, 3, 40].entries()) expected[(r + 1) * 7 + 2 * k] = data[(r + 4) * 64 + c];
    }
    expect(Array.from(outArray.data)).toEqual(Array.from(expected));
    // Index, then one coalesced range for inner chunks (1,0), (1,2), (1,5).
    expect(source.requests).toHaveLength(2);
    const missing = countingSource(undefined);
    expect(await arr.codecs.decodePartialInto(missing, spec, target, { key: "gone" })).toBe(false);
    expect(missing.requests).toHaveLength(1);
    const whole = countingSource(shard, false);
    outArray.data.fill(-1);
    expect(await arr.codecs.decodePartialInto(whole, spec, target, { key: "w" })).toBe(true);
    expect(Array.from(outArray.data)).toEqual(Array.from(expected));
    expect(whole.requests).toEqual([undefined as ByteRange | undefined]);
  });
});
