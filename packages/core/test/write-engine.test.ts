/**
 * How `set` assembles chunks: once, in reused buffers, or not at all when a chunk is one
 * contiguous run of the caller's value; and never giving a store bytes it then changes.
 */
import { describe, expect, it } from "vitest";
import { createArray, get, MemoryStore, type StoreRequestOptions, set, slice } from "../src/index.js";

/** A MemoryStore that remembers the memory of every value it was given. */
class RecordingStore extends MemoryStore {
  given: { key: string; buffer: ArrayBufferLike; byteOffset: number }[] = [];
  override async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    if (key.includes("/c/")) this.given.push({ key, buffer: value.buffer, byteOffset: value.byteOffset });
    return super.set(key, value, options);
  }
}

const raw = [{ name: "bytes", configuration: { endian: "little" } }];

describe("set assembles each chunk once", () => {
  it("encodes chunks that are whole rows of the value straight from the caller's memory", async () => {
    const store = new RecordingStore();
    const arr = await createArray(store, "rows", { shape: [8, 16], chunkShape: [2, 16], dataType: "float32", codecs: raw });
    const values = Float32Array.from({ length: 128 }, (_, i) => i);
    await set(arr, null, values);
    expect(store.given).toHaveLength(4);
    for (const g of store.given) expect(g.buffer).toBe(values.buffer);
    expect(store.given.map((g) => g.byteOffset).sort((a, b) => a - b)).toEqual([0, 128, 256, 384]);
    expect(Array.from((await get(arr)).data as Float32Array)).toEqual(Array.from(values));
  });

  it("copies chunks that are not contiguous in the value into one reused buffer", async () => {
    const store = new RecordingStore();
    const arr = await createArray(store, "blocks", { shape: [8, 8], chunkShape: [4, 4], dataType: "int32", codecs: raw });
    const values = Int32Array.from({ length: 64 }, (_, i) => i * 3);
    await set(arr, null, values, { concurrency: 1 });
    expect(store.given).toHaveLength(4);
    for (const g of store.given) expect(g.buffer).not.toBe(values.buffer);
    // One chunk at a time: every chunk was assembled in the same memory.
    expect(new Set(store.given.map((g) => g.buffer)).size).toBe(1);
    // ... and the store kept its own copies: the values are still right.
    expect(Array.from((await get(arr)).data as Int32Array)).toEqual(Array.from(values));
  });

  it("reversed and strided selections of a whole chunk are copied, not taken as a run", async () => {
    const store = new RecordingStore();
    const arr = await createArray(store, "rev", { shape: [4, 4], chunkShape: [2, 4], dataType: "uint8", codecs: raw });
    const values = Uint8Array.from({ length: 16 }, (_, i) => i);
    await set(arr, [slice(null, null, -1), null], values);
    const expected = [12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3];
    expect(Array.from((await get(arr)).data as Uint8Array)).toEqual(expected);
    for (const g of store.given) expect(g.buffer).not.toBe(values.buffer);
  });

  it("fills the part of an edge chunk outside the array, whatever the reused buffer held", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "edge", { shape: [5, 5], chunkShape: [4, 4], dataType: "int16", fillValue: -1, codecs: raw });
    // Leave garbage in the reused buffers first.
    const other = await createArray(store, "other", { shape: [8, 8], chunkShape: [4, 4], dataType: "int16", codecs: raw });
    await set(other, null, Int16Array.from({ length: 64 }, () => 999), { concurrency: 1 });
    await set(arr, null, Int16Array.from({ length: 25 }, (_, i) => i), { concurrency: 1 });
    // The last chunk holds element (4, 4) and 15 elements outside the array: fill values.
    const last = new Int16Array((store.map.get("edge/c/1/1") as Uint8Array).slice().buffer);
    expect(Array.from(last)).toEqual([24, ...Array(15).fill(-1)]);
  });

  it("reads partly covered chunks into the reused buffer before updating them", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "rmw", { shape: [6, 6], chunkShape: [3, 3], dataType: "float64", fillValue: 7, codecs: raw });
    await set(arr, null, Float64Array.from({ length: 36 }, (_, i) => i), { concurrency: 1 });
    await set(arr, [slice(1, 5), 2], -1, { concurrency: 1 });
    const got = Array.from((await get(arr)).data as Float64Array);
    const want = Array.from({ length: 36 }, (_, i) => (i % 6 === 2 && i >= 6 && i < 30 ? -1 : i));
    expect(got).toEqual(want);
    // A chunk that was never stored starts from the fill value, not from the buffer's last contents.
    const fresh = await createArray(store, "fresh", { shape: [6, 6], chunkShape: [3, 3], dataType: "float64", fillValue: 7, codecs: raw });
    await set(fresh, [0, 0], 1);
    expect(Array.from((await get(fresh, [slice(0, 3), slice(0, 3)])).data as Float64Array)).toEqual([1, 7, 7, 7, 7, 7, 7, 7, 7]);
  });
});
