import { vlenUtf8 } from "@zarr/codec-vlen";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  createArray,
  createChunkCache,
  createRegistry,
  deleteNode,
  get,
  MemoryStore,
  open,
  openArray,
  resize,
  set,
  slice,
  type ZarrArray,
} from "../src/index.js";
import { countingStore } from "./helpers.js";

/** Requests that read chunk data (any read method on a key with /c/ in it). */
function chunkReads(counts: Record<string, number>): number {
  return (counts.get ?? 0) + (counts.getRange ?? 0) + (counts.readInto ?? 0);
}

/** A 6×6 int32 array in 2×3 chunks (6 chunks of 24 bytes), values 0..35. */
async function sample(store = new MemoryStore()) {
  const arr = await createArray(store, "a", { shape: [6, 6], chunkShape: [2, 3], dataType: "int32" });
  await set(arr, null, new Int32Array(36).map((_, i) => i));
  return store;
}

const values = async (arr: ZarrArray, sel?: Parameters<typeof get>[1]) => Array.from((await get(arr, sel)).data as Int32Array);

describe("decoded-chunk cache", () => {
  it("serves a chunk from the cache without a store request or a decode", async () => {
    const { store, counts } = countingStore(await sample());
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const arr = await openArray(store, "a", { chunkCache });
    for (const k of Object.keys(counts)) delete counts[k];
    const cold = await values(arr, [slice(0, 4), slice(1, 5)]);
    expect(cold).toEqual([1, 2, 3, 4, 7, 8, 9, 10, 13, 14, 15, 16, 19, 20, 21, 22]);
    expect(chunkReads(counts)).toBe(4);
    expect(chunkCache.entries).toBe(4);
    expect(chunkCache.misses).toBe(4);
    const decode = vi.spyOn(arr.codecs, "decode");
    const decodeInto = vi.spyOn(arr.codecs, "decodeInto");
    const decodePartialInto = vi.spyOn(arr.codecs, "decodePartialInto");
    expect(await values(arr, [slice(0, 4), slice(1, 5)])).toEqual(cold);
    expect(await values(arr, [3, slice(0, 6)])).toEqual([18, 19, 20, 21, 22, 23]);
    expect(chunkReads(counts)).toBe(4);
    expect(decode).not.toHaveBeenCalled();
    expect(decodeInto).not.toHaveBeenCalled();
    expect(decodePartialInto).not.toHaveBeenCalled();
    expect(chunkCache.hits).toBe(6);
    expect(chunkCache.bytes).toBe(4 * (24 + 64));
    // A chunk not cached yet is decoded (once) through the pipeline.
    await values(arr, [5, 5]);
    expect(decodeInto).toHaveBeenCalledTimes(1);
  });

  it("is opt-in: without it every get reads the store", async () => {
    const { store, counts } = countingStore(await sample());
    const arr = await openArray(store, "a");
    await get(arr, [0]);
    await get(arr, [0]);
    expect(chunkReads(counts)).toBe(1 + 4); // metadata + 2 chunks twice
  });

  it("can be given to a single get, and is shared by every array using it", async () => {
    const { store, counts } = countingStore(await sample());
    const arr = await openArray(store, "a");
    const again = await openArray(store, "a");
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const before = chunkReads(counts);
    await get(arr, [0], { chunkCache });
    expect(chunkReads(counts) - before).toBe(2);
    expect((await get(again, [1], { chunkCache })).data).toEqual(new Int32Array([6, 7, 8, 9, 10, 11]));
    expect(chunkReads(counts) - before).toBe(2);
  });

  it("evicts the least recently used chunks to stay within maxBytes", async () => {
    const { store, counts } = countingStore(await sample());
    const chunkCache = createChunkCache({ maxBytes: 2 * (24 + 64) });
    const arr = await openArray(store, "a", { chunkCache });
    await get(arr, [0, slice(0, 3)]); // chunk 0/0
    await get(arr, [0, slice(3, 6)]); // chunk 0/1
    await get(arr, [0, slice(0, 3)]); // 0/0 is now the most recent
    await get(arr, [2, slice(0, 3)]); // chunk 1/0 evicts 0/1
    expect(chunkCache.entries).toBe(2);
    expect(chunkCache.bytes).toBeLessThanOrEqual(chunkCache.maxBytes);
    const before = chunkReads(counts);
    await get(arr, [0, slice(0, 3)]);
    await get(arr, [2, slice(0, 3)]);
    expect(chunkReads(counts)).toBe(before);
    expect(await values(arr, [1, slice(3, 6)])).toEqual([9, 10, 11]);
    expect(chunkReads(counts)).toBe(before + 1);
  });

  it("does not cache chunks larger than maxBytes (and still reads them)", async () => {
    const { store, counts } = countingStore(await sample());
    const chunkCache = createChunkCache({ maxBytes: 50 });
    const arr = await openArray(store, "a", { chunkCache });
    expect(await values(arr, [0, slice(0, 3)])).toEqual([0, 1, 2]);
    expect(await values(arr, [0, slice(0, 3)])).toEqual([0, 1, 2]);
    expect(chunkCache.entries).toBe(0);
    expect(chunkReads(counts)).toBe(3);
  });

  it("remembers chunks that are not stored (fill value)", async () => {
    const { store, counts } = countingStore(new MemoryStore());
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const arr = await createArray(store, "e", { shape: [4, 4], chunkShape: [2, 2], dataType: "float64", fillValue: -1, chunkCache });
    const before = chunkReads(counts);
    expect(Array.from((await get(arr, null)).data as Float64Array)).toEqual(Array(16).fill(-1));
    expect(Array.from((await get(arr, null)).data as Float64Array)).toEqual(Array(16).fill(-1));
    expect(chunkReads(counts) - before).toBe(4);
    await set(arr, [0, 0], 5);
    const after = (await get(arr, null)).data as Float64Array;
    expect(after[0]).toBe(5);
    expect(after[1]).toBe(-1);
    // 4 cold reads; set's read-modify-write finds chunk 0/0 in the cache (not stored),
    // and the get after the write reads it once.
    expect(chunkReads(counts) - before).toBe(5);
  });

  it("set through the array drops the chunks it writes, and only those", async () => {
    const { store, counts } = countingStore(await sample());
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const arr = await openArray(store, "a", { chunkCache });
    await get(arr, null);
    expect(chunkCache.entries).toBe(6);
    await set(arr, [slice(0, 2), slice(0, 3)], 100); // covers chunk 0/0 exactly
    await set(arr, [5, 5], -7); // part of chunk 2/1
    expect(chunkCache.entries).toBe(4);
    const before = chunkReads(counts);
    const all = await values(arr, null);
    expect(chunkReads(counts) - before).toBe(2);
    expect(all.slice(0, 6)).toEqual([100, 100, 100, 3, 4, 5]);
    expect(all[35]).toBe(-7);
    expect(all[34]).toBe(34);
  });

  it("set through another array of the same store drops the entries too", async () => {
    const store = await sample();
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const cached = await openArray(store, "a", { chunkCache });
    const other = await openArray(store, "a"); // no cache of its own
    expect(await values(cached, [0, 0])).toEqual([0]);
    await set(other, [0, 0], 42);
    expect(await values(cached, [0, 0])).toEqual([42]);
  });

  it("resize drops stale chunks: growing back shows the fill value, not old data", async () => {
    const store = await sample();
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const arr = await openArray(store, "a", { chunkCache });
    await get(arr, null);
    const small = await resize(arr, [4, 4]);
    expect(small.config.chunkCache).toBe(chunkCache);
    const big = await resize(small, [6, 6]);
    const all = await values(big, null);
    expect(all.slice(0, 6)).toEqual([0, 1, 2, 3, 0, 0]); // columns 4, 5 were cut off
    expect(all.slice(30)).toEqual([0, 0, 0, 0, 0, 0]);
    // The old array object (still 6×6) must not serve stale chunks either.
    expect((await values(arr, null)).slice(0, 6)).toEqual([0, 1, 2, 3, 0, 0]);
  });

  it("deleteNode drops the node's chunks: a re-created array reads its own data", async () => {
    const store = await sample();
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const arr = await openArray(store, "a", { chunkCache });
    await get(arr, null);
    await deleteNode(store, "a");
    expect(chunkCache.entries).toBe(0);
    const again = await createArray(store, "a", { shape: [6, 6], chunkShape: [2, 3], dataType: "int32", fillValue: 9, chunkCache });
    expect(new Set(await values(again, null))).toEqual(new Set([9]));
    // Overwriting with create(..., overwrite) goes through deleteNode as well.
    await set(again, null, 1);
    await get(again, null);
    const replaced = await createArray(store, "a", { shape: [6, 6], chunkShape: [2, 3], dataType: "int32", overwrite: true, chunkCache });
    expect(new Set(await values(replaced, null))).toEqual(new Set([0]));
  });

  it("does not keep a chunk read while the same chunk was being written", async () => {
    const inner = await sample();
    let gate: Promise<void> | undefined;
    const store = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === "get") {
          return async (key: string) => {
            const value = await target.get(key);
            if (gate !== undefined && key.includes("/c/")) await gate;
            return value;
          };
        }
        if (prop === "readInto") return undefined;
        return Reflect.get(target, prop, receiver);
      },
    });
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const arr = await openArray(store, "a", { chunkCache });
    const writer = await openArray(store, "a");
    let release!: () => void;
    gate = new Promise((r) => (release = r));
    const reading = values(arr, [0, 0]);
    await new Promise((r) => setTimeout(r, 5));
    gate = undefined;
    await set(writer, [0, slice(0, 3)], 77);
    release();
    expect(await reading).toEqual([0]); // read before the write
    expect(await values(arr, [0, 0])).toEqual([77]); // not served stale afterwards
  });

  it("caches arrays of strings", async () => {
    const registry = createRegistry([vlenUtf8]);
    const { store, counts } = countingStore(new MemoryStore());
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const arr = await createArray(store, "s", { shape: [4], chunkShape: [2], dataType: "string", codecs: [{ name: "vlen-utf8" }], registry, chunkCache });
    await set(arr, null, ["a", "bb", "ccc", "dddd"]);
    const reopened = await open(store, "s", { registry, chunkCache });
    const before = chunkReads(counts);
    expect((await get(reopened as ZarrArray, null)).data).toEqual(["a", "bb", "ccc", "dddd"]);
    expect((await get(reopened as ZarrArray, [slice(1, 3)])).data).toEqual(["bb", "ccc"]);
    expect(chunkReads(counts) - before).toBe(2);
    expect(chunkCache.bytes).toBeGreaterThan(2 * 64);
  });

  it("rejects a bad maxBytes", () => {
    expect(() => createChunkCache({ maxBytes: -1 })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => createChunkCache({} as never)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("reads what an uncached array reads, through any sequence of writes and resizes", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("set" as const), r: fc.nat(5), c: fc.nat(5), h: fc.integer({ min: 1, max: 4 }), w: fc.integer({ min: 1, max: 4 }), v: fc.integer({ min: -5, max: 5 }) }),
      fc.record({ kind: fc.constant("get" as const), r: fc.nat(5), c: fc.nat(5), h: fc.integer({ min: 1, max: 6 }), w: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ kind: fc.constant("resize" as const), rows: fc.integer({ min: 1, max: 6 }), cols: fc.integer({ min: 1, max: 6 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), fc.integer({ min: 0, max: 400 }), async (ops, maxBytes) => {
        const store = await sample();
        const chunkCache = createChunkCache({ maxBytes });
        let cached = await openArray(store, "a", { chunkCache });
        for (const o of ops) {
          const plain = await openArray(store, "a");
          const [rows, cols] = cached.shape;
          if (o.kind === "resize") {
            cached = await resize(cached, [o.rows, o.cols]);
          } else {
            const sel = [slice(Math.min(o.r, rows), Math.min(o.r + o.h, rows)), slice(Math.min(o.c, cols), Math.min(o.c + o.w, cols))];
            if (o.kind === "set") await set(cached, sel, o.v);
            else expect(await values(cached, sel)).toEqual(await values(plain, sel));
          }
          expect(chunkCache.bytes).toBeLessThanOrEqual(maxBytes);
        }
        expect(await values(cached, null)).toEqual(await values(await openArray(store, "a"), null));
      }),
      { numRuns: 60 },
    );
  });
});
