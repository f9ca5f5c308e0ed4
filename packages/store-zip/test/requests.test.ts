/** How many requests reach the source store: the point of reading zips with byte ranges. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FileSystemStore } from "@zarr/store-fs";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { ZipStore } from "../src/index.js";
import { BytesStore, CountingStore, collect, GetOnlyStore, pattern, rng, ScatterStore, zipBytes } from "./helpers.js";

const V3 = join(fixturesDir(), "zarr-python", "v3");

/** Random 4-bit values: deflate halves them, no more (so a deflated archive stays large). */
function nibbles(size: number, seed: number): Uint8Array {
  const random = rng(seed + 1);
  return Uint8Array.from({ length: size }, () => Math.floor(random() * 16));
}

/** An archive of `n` stored entries of `size` bytes each (big enough that the directory is outside the first read). */
async function bigArchive(n: number, size: number, compression: "stored" | "deflate" = "stored"): Promise<Uint8Array> {
  const values: Record<string, Uint8Array> = { "zarr.json": new TextEncoder().encode('{"zarr_format":3,"node_type":"group"}') };
  for (let i = 0; i < n; i++) values[`arr/c/${i}`] = compression === "stored" ? pattern(size, i) : nibbles(size, i);
  return zipBytes(values, { compression });
}

describe("request counts", () => {
  it("opening the stored fixture costs at most 2 requests; then each getRange exactly 1", async () => {
    const counting = new CountingStore(new FileSystemStore(V3, { readOnly: true }));
    const store = new ZipStore(counting, "data.uncompressed.zarr.zip");
    const info = await store.open();
    expect(info.size).toBe(readFileSync(join(V3, "data.uncompressed.zarr.zip")).length);
    expect(counting.requests).toBeLessThanOrEqual(2);
    expect(counting.gets).toBe(0); // never the whole archive
    const dir = new FileSystemStore(join(V3, "data.zarr"), { readOnly: true });
    // A shard: the index at its end, then inner chunks, as the sharding codec reads it.
    const shard = "1d.contiguous.compressed.sharded.i2/c/0";
    const whole = (await dir.get(shard)) as Uint8Array;
    counting.reset();
    expect(await store.getRange(shard, { suffixLength: 36 })).toEqual(whole.slice(-36));
    expect(counting.requests).toBe(1);
    expect(counting.ranges[0]).toEqual({ offset: expect.any(Number), length: 36 });
    const random = rng(7);
    for (const key of await collect(store.list())) {
      const value = (await dir.get(key)) as Uint8Array;
      if (value.length < 2) continue;
      const offset = Math.floor(random() * (value.length - 1));
      const length = 1 + Math.floor(random() * (value.length - offset - 1));
      counting.reset();
      expect(await store.getRange(key, { offset, length })).toEqual(value.slice(offset, offset + length));
      expect(counting.requests, key).toBe(1);
      // Only the requested bytes were read.
      expect(counting.ranges[0]).toEqual({ offset: expect.any(Number), length });
    }
  });

  it("a large archive: 2 requests to open, 1 per get, 1 per stored getRange, none for listing", async () => {
    const archive = await bigArchive(1400, 100);
    expect(archive.length).toBeGreaterThan(200_000);
    const counting = new CountingStore(new BytesStore({ "big.zip": archive }));
    const store = new ZipStore(counting, "big.zip");
    expect((await collect(store.listPrefix("arr/c/"))).length).toBe(1400);
    expect(counting.requests).toBe(2); // the suffix, then the central directory
    expect(counting.ranges[0]).toEqual({ suffixLength: expect.any(Number) });
    counting.reset();
    expect(await store.listDir("arr/c/")).toMatchObject({ prefixes: [] });
    expect(await store.getSize("arr/c/5")).toBe(100);
    expect(counting.requests).toBe(0);
    for (const i of [0, 17, 700, 1399]) {
      counting.reset();
      expect(await store.get(`arr/c/${i}`)).toEqual(pattern(100, i));
      expect(counting.requests).toBe(1);
      expect(counting.ranges[0]).toEqual({ offset: expect.any(Number), length: 100 }); // exactly the data
      counting.reset();
      expect(await store.getRange(`arr/c/${i + 1 > 1399 ? 0 : i + 1}`, { offset: 10, length: 20 })).toEqual(
        pattern(100, i + 1 > 1399 ? 0 : i + 1).slice(10, 30),
      );
      expect(counting.requests).toBe(1);
    }
    // Data never comes from outside the entry: a range past its end is clamped.
    counting.reset();
    expect(await store.getRange("arr/c/3", { offset: 90, length: 50 })).toEqual(pattern(100, 3).slice(90));
    expect(counting.ranges).toEqual([{ offset: expect.any(Number), length: 10 }]);
  });

  it("deflated entries: getRange inflates once and serves later ranges from the cache", async () => {
    const archive = await bigArchive(40, 5000, "deflate");
    expect(archive.length).toBeGreaterThan(100_000);
    const counting = new CountingStore(new BytesStore({ "d.zip": archive }));
    const store = new ZipStore(counting, "d.zip", { cacheEntries: 2 });
    await store.open();
    counting.reset();
    const value = nibbles(5000, 9);
    for (const [offset, length] of [
      [0, 10],
      [4000, 1000],
      [17, 3],
    ]) {
      expect(await store.getRange("arr/c/9", { offset, length })).toEqual(value.slice(offset, offset + length));
    }
    expect(counting.requests).toBe(1);
    // Concurrent ranges of another entry share one inflation.
    counting.reset();
    const parts = await Promise.all([0, 1, 2, 3].map((i) => store.getRange("arr/c/10", { offset: i * 100, length: 100 })));
    expect(parts).toEqual([0, 1, 2, 3].map((i) => nibbles(5000, 10).slice(i * 100, i * 100 + 100)));
    expect(counting.requests).toBe(1);
    // The cache is bounded: after two other entries, the first is inflated again.
    await store.getRange("arr/c/11", { offset: 0, length: 1 });
    await store.getRange("arr/c/12", { offset: 0, length: 1 });
    counting.reset();
    await store.getRange("arr/c/9", { offset: 0, length: 1 });
    expect(counting.requests).toBe(1);
  });

  it("deflated entries: cacheBytes bounds the cache, and bad cache options are refused", async () => {
    const archive = await bigArchive(40, 5000, "deflate");
    const counting = new CountingStore(new BytesStore({ "d.zip": archive }));
    // Room for one 5000-byte entry only: reading another evicts it.
    const store = new ZipStore(counting, "d.zip", { cacheBytes: 9000 });
    await store.open();
    await store.getRange("arr/c/0", { offset: 0, length: 1 });
    counting.reset();
    await store.getRange("arr/c/0", { offset: 1, length: 1 });
    expect(counting.requests).toBe(0);
    await store.getRange("arr/c/1", { offset: 0, length: 1 });
    counting.reset();
    await store.getRange("arr/c/0", { offset: 2, length: 1 });
    expect(counting.requests).toBe(1);
    for (const bad of [{ cacheEntries: -1 }, { cacheBytes: Number.NaN }]) {
      expect(() => new ZipStore(counting, "d.zip", bad)).toThrow(/ZipStore option "cache(Entries|Bytes)" must be a number >= 0/);
    }
  });

  it("a source without getRange is read once, whole", async () => {
    const archive = await bigArchive(100, 100);
    const source = new GetOnlyStore(new BytesStore({ "a.zip": archive }));
    const store = new ZipStore(source, "a.zip");
    for (let i = 0; i < 100; i += 7) {
      expect(await store.get(`arr/c/${i}`)).toEqual(pattern(100, i));
      expect(await store.getRange(`arr/c/${i}`, { offset: 5, length: 5 })).toEqual(pattern(100, i).slice(5, 10));
    }
    expect(source.gets).toBe(1);
    // Returned bytes are copies: changing them does not change the archive.
    const got = (await store.get("arr/c/0")) as Uint8Array;
    got.fill(0);
    expect(await store.get("arr/c/0")).toEqual(pattern(100, 0));
  });

  it("a small archive is read whole by the first (suffix) request", async () => {
    const archive = await bigArchive(5, 100);
    const counting = new CountingStore(new BytesStore({ "s.zip": archive }));
    const store = new ZipStore(counting, "s.zip");
    for (let i = 0; i < 5; i++) expect(await store.get(`arr/c/${i}`)).toEqual(pattern(100, i));
    expect(counting.requests).toBe(1);
  });

  it("readInto on a stored entry uses the source's scatter read (one request), on a deflated one the cache", async () => {
    const archive = await bigArchive(1400, 100);
    const source = new ScatterStore({ "a.zip": archive });
    const store = new ZipStore(source, "a.zip");
    await store.open();
    const a = new Uint8Array(10);
    const b = new Uint8Array(20);
    const past = new Uint8Array(8).fill(0xee);
    expect(
      await store.readInto("arr/c/42", [
        { offset: 5, target: a },
        { offset: 50, target: b },
        { offset: 96, target: past },
      ]),
    ).toBe(100);
    expect(source.scatters).toBe(1);
    const value = pattern(100, 42);
    expect(a).toEqual(value.slice(5, 15));
    expect(b).toEqual(value.slice(50, 70));
    // Bytes past the entry's end are not read (they would belong to the next entry).
    expect(past).toEqual(new Uint8Array([...value.slice(96), 0xee, 0xee, 0xee, 0xee]));
    expect(await store.readInto("missing", [{ offset: 0, target: a }])).toBeUndefined();

    const deflated = await bigArchive(3, 3000, "deflate");
    const counting = new CountingStore(new BytesStore({ "d.zip": deflated }));
    const dz = new ZipStore(counting, "d.zip");
    const t = new Uint8Array(100);
    expect(await dz.readInto("arr/c/1", [{ offset: 1000, target: t }])).toBe(3000);
    expect(t).toEqual(nibbles(3000, 1).slice(1000, 1100));
    // Without a scatter read on the source: one covering range read.
    const big = new CountingStore(new BytesStore({ "a.zip": archive }));
    const plain = new ZipStore(big, "a.zip");
    await plain.open();
    big.reset();
    const c = new Uint8Array(4);
    const d = new Uint8Array(4);
    await plain.readInto("arr/c/7", [
      { offset: 2, target: c },
      { offset: 60, target: d },
    ]);
    expect(big.ranges).toEqual([{ offset: expect.any(Number), length: 62 }]);
    expect([...c, ...d]).toEqual([...pattern(100, 7).slice(2, 6), ...pattern(100, 7).slice(60, 64)]);
  });
});
