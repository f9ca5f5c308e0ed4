/**
 * Pointwise selections (`getCoordinates`, `getMask`, `setCoordinates`, `setMask`): one
 * read (and for writes one write) per touched chunk, edge chunks, repeated points,
 * broadcasting, empty selections, `out`, locks, other data types, and the errors.
 */
import type { ReadIntoRange } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import {
  createArray,
  get,
  getCoordinates,
  getMask,
  MemoryStore,
  type Store,
  type StoreRequestOptions,
  set,
  setCoordinates,
  setMask,
  type ZarrArray,
  ZarrError,
} from "../src/index.js";

/** A MemoryStore recording reads and writes of chunk keys, by any of its methods. */
class ChunkCounter extends MemoryStore {
  reads: string[] = [];
  writes: string[] = [];
  override async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    if (key.includes("/c/")) this.reads.push(key);
    return super.get(key, options);
  }
  override async readInto(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions): Promise<number | undefined> {
    if (key.includes("/c/")) this.reads.push(key);
    return super.readInto(key, ranges, options);
  }
  override async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    if (key.includes("/c/")) this.writes.push(key);
    return super.set(key, value, options);
  }
  reset(): void {
    this.reads = [];
    this.writes = [];
  }
}

/** A 6×8 int32 array of 0…47 in chunks of 4×3 (ragged at both far edges). */
async function numbered(store: Store = new MemoryStore(), fillValue = 0) {
  const arr = await createArray(store, "a", { shape: [6, 8], chunkShape: [4, 3], dataType: "int32", fillValue, dimensionNames: ["y", "x"] });
  await set(arr, null, Int32Array.from({ length: 48 }, (_, i) => i));
  return arr;
}

async function all(arr: Awaited<ReturnType<typeof numbered>>): Promise<number[]> {
  return Array.from((await get(arr, null)).data as Int32Array);
}

function sorted(keys: string[]): string[] {
  return [...keys].sort();
}

async function rejection(promise: Promise<unknown>): Promise<ZarrError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    return error as ZarrError;
  }
  throw new Error("expected a rejection");
}

describe("getCoordinates", () => {
  it("reads each touched chunk once, however many points fall in it", async () => {
    const store = new ChunkCounter();
    const arr = await numbered(store);
    store.reset();
    // 40 points: 20 in chunk (0, 0), 20 in chunk (1, 2); none elsewhere
    const rows = Array.from({ length: 40 }, (_, i) => (i < 20 ? i % 4 : 4 + (i % 2)));
    const cols = Array.from({ length: 40 }, (_, i) => (i < 20 ? i % 3 : 6 + (i % 2)));
    const got = await getCoordinates(arr, [rows, cols]);
    expect(sorted(store.reads)).toEqual(["a/c/0/0", "a/c/1/2"]);
    expect(Array.from(got.data as Int32Array)).toEqual(rows.map((r, i) => r * 8 + cols[i]));
  });

  it("gives the broadcast shape of the index arrays, with negative indices from the end", async () => {
    const arr = await numbered();
    // rows as a column [[0], [-1]], columns as a row [0, 7, -2]: a 2×3 grid of points
    const got = await getCoordinates(arr, [{ data: [0, -1], shape: [2, 1] }, [0, 7, -2]]);
    expect(got.shape).toEqual([2, 3]);
    expect(got.stride).toEqual([3, 1]);
    expect(Array.from(got.data as Int32Array)).toEqual([0, 7, 6, 40, 47, 46]);
    // a number broadcasts to every point; bigints are indices too
    const row = await getCoordinates(arr, [5, new BigInt64Array([1n, -1n])]);
    expect(row.shape).toEqual([2]);
    expect(Array.from(row.data as Int32Array)).toEqual([41, 47]);
    // all numbers: one point, a 0-dimensional result
    const one = await getCoordinates(arr, [2, 3]);
    expect(one.shape).toEqual([]);
    expect(Array.from(one.data as Int32Array)).toEqual([19]);
  });

  it("repeats repeated points and reads edge chunks", async () => {
    const arr = await numbered();
    const got = await getCoordinates(arr, [[5, 5, 0, 5], [7, 7, 0, 6]]);
    expect(Array.from(got.data as Int32Array)).toEqual([47, 47, 0, 46]);
  });

  it("handles few points in long chunks and in grids of very many chunks", async () => {
    // one chunk of 200 000 elements holding 4 points; then 300 000 one-element chunks
    const long = await createArray(new MemoryStore(), "l", { shape: [200_000], chunkShape: [200_000], dataType: "int32", fillValue: -1 });
    await setCoordinates(long, [[199_999, 5, 5, 70_000]], Int32Array.from([1, 2, 3, 4]));
    expect(Array.from((await getCoordinates(long, [[5, 70_000, 199_999, 6, 5]])).data as Int32Array)).toEqual([3, 4, 1, -1, 3]);
    const many = await createArray(new MemoryStore(), "m", { shape: [300_000, 2], chunkShape: [1, 1], dataType: "int32", fillValue: -1 });
    await setCoordinates(many, [[299_999, 7, 7], [1, 0, 0]], Int32Array.from([1, 2, 3]));
    expect(Array.from((await getCoordinates(many, [[7, 299_999, 0], [0, 1, 0]])).data as Int32Array)).toEqual([3, 1, -1]);
  });

  it("reads missing chunks as the fill value", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [6, 8], chunkShape: [4, 3], dataType: "int32", fillValue: -9 });
    await set(arr, [0, 0], 5);
    const got = await getCoordinates(arr, [[0, 0, 5], [0, 1, 7]]);
    expect(Array.from(got.data as Int32Array)).toEqual([5, -9, -9]);
  });

  it("selects nothing without reading: empty lists, and a broadcast shape with a zero", async () => {
    const store = new ChunkCounter();
    const arr = await numbered(store);
    store.reset();
    const empty = await getCoordinates(arr, [[], []]);
    expect(empty.shape).toEqual([0]);
    expect(empty.data.length).toBe(0);
    const zero = await getCoordinates(arr, [{ data: [], shape: [2, 0] }, 1]);
    expect(zero.shape).toEqual([2, 0]);
    expect(store.reads).toEqual([]);
  });

  it("reads into `out`, and checks it", async () => {
    const arr = await numbered();
    const out = new Int32Array(3).fill(-1);
    const got = await getCoordinates(arr, [[1, 2, 3], [1, 2, 3]], { out });
    expect(got.data).toBe(out);
    expect(Array.from(out)).toEqual([9, 18, 27]);
    // a missing chunk's fill value (0) is written into a caller's buffer, not assumed
    const sparse = await createArray(new MemoryStore(), "s", { shape: [4], chunkShape: [2], dataType: "int32" });
    await set(sparse, [[0]], 7);
    const reused = new Int32Array([-1, -1]);
    await getCoordinates(sparse, [[3, 0]], { out: reused });
    expect(Array.from(reused)).toEqual([0, 7]);
    expect((await rejection(getCoordinates(arr, [[1], [1]], { out: new Int32Array(2) }))).code).toBe("INVALID_ARGUMENT");
    expect((await rejection(getCoordinates(arr, [[1], [1]], { out: new Float64Array(1) }))).code).toBe("INVALID_ARGUMENT");
  });

  it("reports progress per chunk", async () => {
    const arr = await numbered();
    const seen: string[] = [];
    await getCoordinates(arr, [[0, 5, 5], [0, 0, 7]], { onProgress: ({ done, total }) => seen.push(`${done}/${total}`) });
    expect(seen).toEqual(["1/3", "2/3", "3/3"]);
  });

  it("refuses out-of-bounds indices (OUT_OF_BOUNDS, naming the dimension and the index)", async () => {
    const arr = await numbered();
    const high = await rejection(getCoordinates(arr, [[0, 6], [0, 0]]));
    expect(high.code).toBe("OUT_OF_BOUNDS");
    expect(high.message).toBe("Index 6 is out of bounds for dimension 0 (y) of length 6");
    const low = await rejection(getCoordinates(arr, [[0], [-9]]));
    expect(low.message).toBe("Index -9 is out of bounds for dimension 1 (x) of length 8");
  });

  it("refuses malformed coordinate selections (INVALID_SELECTION)", async () => {
    const arr = await numbered();
    const cases: [unknown, RegExp][] = [
      [[[0, 1]], /one index array per dimension: the array has 2, the selection 1/],
      [[[0], [1], [2]], /the array has 2, the selection 3/],
      [[[0.5], [1]], /must hold integers: found 0.5 for dimension 0 \(y\)/],
      [[["1"], [1]], /must hold integers: found "1"/],
      [[[0, 1], [0, 1, 2]], /shapes \[2\], \[3\] do not broadcast together/],
      [[{ data: [0, 1, 2], shape: [2] }, [0]], /holds 3 indices, but its shape \[2\] needs 2/],
      [[{ data: [0], shape: [-1] }, [0]], /invalid shape \[-1\]/],
      [[null, [0]], /Cannot select dimension 0 \(y\) pointwise with null/],
      [{ 0: [1], 1: [2] }, /must be an array with one index array per dimension/],
    ];
    for (const [selection, message] of cases) {
      const error = await rejection(getCoordinates(arr, selection as never));
      expect(error.code, String(message)).toBe("INVALID_SELECTION");
      expect(error.message).toMatch(message);
    }
  });
});

describe("getMask", () => {
  it("reads the true elements in C order, each touched chunk once", async () => {
    const store = new ChunkCounter();
    const arr = await numbered(store);
    store.reset();
    const mask = Array.from({ length: 48 }, (_, i) => i === 1 || i === 2 || i === 47 || i === 9);
    const got = await getMask(arr, { data: mask, shape: [6, 8] });
    expect(got.shape).toEqual([4]);
    expect(Array.from(got.data as Int32Array)).toEqual([1, 2, 9, 47]);
    expect(sorted(store.reads)).toEqual(["a/c/0/0", "a/c/1/2"]);
    // 0/1 masks (a Uint8Array) work as well; an all-false mask reads nothing
    const ones = await getMask(arr, { data: Uint8Array.from(mask, Number), shape: [6, 8] });
    expect(Array.from(ones.data as Int32Array)).toEqual([1, 2, 9, 47]);
    store.reset();
    const none = await getMask(arr, { data: new Uint8Array(48), shape: [6, 8] });
    expect(none.shape).toEqual([0]);
    expect(store.reads).toEqual([]);
  });

  it("refuses a mask of another shape, or whose data does not fill its shape (INVALID_SELECTION)", async () => {
    const arr = await numbered();
    const wrong = await rejection(getMask(arr, { data: new Uint8Array(48), shape: [8, 6] }));
    expect(wrong.code).toBe("INVALID_SELECTION");
    expect(wrong.message).toBe("The mask has shape [8,6], but the array has shape [6,8]");
    const short = await rejection(getMask(arr, { data: new Uint8Array(47), shape: [6, 8] }));
    expect(short.code).toBe("INVALID_SELECTION");
    expect(short.message).toMatch(/must hold 48 elements \(shape \[6,8\]\), got 47/);
    const bare = await rejection(getMask(arr, new Uint8Array(48) as never));
    expect(bare.message).toMatch(/must be \{ data, shape \}/);
  });
});

describe("setCoordinates and setMask", () => {
  it("read, modify and write each touched chunk once, however many points fall in it", async () => {
    const store = new ChunkCounter();
    const arr = await numbered(store);
    store.reset();
    // 10 points (of 12 elements) in chunk (0, 0), 20 in row 4 of chunk (1, 2): neither chunk covered
    const rows = Array.from({ length: 30 }, (_, i) => (i < 10 ? i % 4 : 4));
    const cols = Array.from({ length: 30 }, (_, i) => (i < 10 ? i % 3 : 6 + (i % 2)));
    await setCoordinates(arr, [rows, cols], -1);
    expect(sorted(store.reads)).toEqual(["a/c/0/0", "a/c/1/2"]);
    expect(sorted(store.writes)).toEqual(["a/c/0/0", "a/c/1/2"]);
    const want = Array.from({ length: 48 }, (_, i) => i);
    rows.forEach((r, i) => {
      want[r * 8 + cols[i]] = -1;
    });
    expect(await all(arr)).toEqual(want);
  });

  it("does not read a chunk whose every in-array element is written (an edge chunk too)", async () => {
    const store = new ChunkCounter();
    const arr = await numbered(store, 5);
    store.reset();
    // chunk (1, 2) holds rows 4-5 and columns 6-7 of the array (its other elements lie outside)
    await setCoordinates(arr, [{ data: [4, 5], shape: [2, 1] }, [7, 6]], { data: Int32Array.from([1, 2, 3, 4]), shape: [2, 2] });
    expect(store.reads).toEqual([]);
    expect(store.writes).toEqual(["a/c/1/2"]);
    const got = await all(arr);
    expect([got[38], got[39], got[46], got[47]]).toEqual([2, 1, 4, 3]);
    expect(got.filter((v, i) => v !== i).length).toBe(4);
    // the chunk's elements outside the array are stored as the fill value (5), not left over from a buffer
    const raw = (await store.get("a/c/1/2")) as Uint8Array;
    expect(Array.from(new Int32Array(raw.slice().buffer))).toEqual([2, 1, 5, 4, 3, 5, 5, 5, 5, 5, 5, 5]);
  });

  it("lets the last of repeated points win, as NumPy does", async () => {
    const arr = await numbered();
    await setCoordinates(arr, [[1, 1, 5, 1], [1, 1, 7, 1]], Int32Array.from([100, 200, 300, 400]));
    const got = await all(arr);
    expect([got[9], got[47]]).toEqual([400, 300]);
    await setMask(arr, { data: Array.from({ length: 48 }, (_, i) => i % 10 === 0), shape: [6, 8] }, [7, 8, 9, 10, 11]);
    expect((await all(arr)).filter((_, i) => i % 10 === 0)).toEqual([7, 8, 9, 10, 11]);
  });

  it("broadcasts a value to the selection's shape; converts plain numbers", async () => {
    const arr = await numbered();
    // points form a 2×3 grid; the value is one row of 3, repeated for both rows
    await setCoordinates(arr, [{ data: [0, 2], shape: [2, 1] }, [0, 1, 2]], { data: [-1, -2, -3], shape: [3] });
    expect((await get(arr, [[0, 2], [0, 1, 2]])).data).toEqual(Int32Array.from([-1, -2, -3, -1, -2, -3]));
    await setCoordinates(arr, [[3, 4], [3, 4]], [11, 12]);
    expect((await getCoordinates(arr, [[3, 4], [3, 4]])).data).toEqual(Int32Array.from([11, 12]));
    const wrong = await rejection(setCoordinates(arr, [[3, 4], [3, 4]], { data: [1, 2, 3], shape: [3] }));
    expect(wrong.code).toBe("INVALID_ARGUMENT");
    expect(wrong.message).toMatch(/Cannot broadcast a value of shape \[3\] to the selection's shape \[2\]/);
    const count = await rejection(setCoordinates(arr, [[3, 4], [3, 4]], Int32Array.from([1, 2, 3])));
    expect(count.code).toBe("INVALID_ARGUMENT");
    // A string compiles only for an array whose data type is not known; it is refused when written.
    const scalar = await rejection(setCoordinates(arr as ZarrArray, [[3], [3]], "x"));
    expect(scalar.code).toBe("INVALID_ARGUMENT");
  });

  it("deletes chunks that end up all fill value (unless writeEmptyChunks), and writes nothing for empty selections", async () => {
    const store = new ChunkCounter();
    const arr = await createArray(store, "a", { shape: [4], chunkShape: [2], dataType: "int32", fillValue: 0 });
    await set(arr, null, Int32Array.from([1, 2, 3, 4]));
    await setCoordinates(arr, [[0, 1]], 0);
    expect(await store.get("a/c/0")).toBeUndefined();
    await setCoordinates(arr, [[2]], 0, { writeEmptyChunks: true });
    await setCoordinates(arr, [[3]], 0, { writeEmptyChunks: true });
    expect(await store.get("a/c/1")).toBeDefined();
    store.reset();
    await setCoordinates(arr, [[]], 9);
    await setMask(arr, { data: [false, false, false, false], shape: [4] }, 9);
    expect([store.reads, store.writes]).toEqual([[], []]);
    expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual([0, 0, 0, 0]);
  });

  it("holds each chunk's lock with { lock: true }", async () => {
    const store = new (class extends MemoryStore {
      locked: string[] = [];
      override async lock(key: string, options?: StoreRequestOptions) {
        this.locked.push(key);
        return super.lock(key, options);
      }
    })();
    const arr = await numbered(store);
    await setCoordinates(arr, [[0, 5], [0, 7]], 99, { lock: true });
    expect(sorted(store.locked)).toEqual(["a/c/0/0", "a/c/1/2"]);
    const got = await all(arr);
    expect([got[0], got[47], got[1]]).toEqual([99, 99, 1]);
  });

  it("works on data types of several slots per element (complex64) and of strings (fixed_length_utf32)", async () => {
    const complex = await createArray(new MemoryStore(), "c", { shape: [3, 3], chunkShape: [2, 2], dataType: "complex64" });
    await setCoordinates(complex, [[0, 2, 2], [0, 2, 0]], [[1, -1], [2, -2], [3, -3]]);
    const pairs = await getCoordinates(complex, [[2, 0, 1], [2, 0, 1]]);
    expect(Array.from(pairs.data as Float32Array)).toEqual([2, -2, 1, -1, 0, 0]);
    const text = await createArray(new MemoryStore(), "s", {
      shape: [3, 3],
      chunkShape: [2, 2],
      dataType: { name: "fixed_length_utf32", configuration: { length_bytes: 8 } },
      fillValue: "",
    });
    await setCoordinates(text, [[0, 2, 2], [0, 2, 0]], ["a", "b", "c"]);
    expect(Array.from((await get(text, null)).data as string[])).toEqual(["a", "", "", "", "", "", "c", "", "b"]);
    expect(Array.from((await getCoordinates(text, [[2, 0], [2, 1]])).data as string[])).toEqual(["b", ""]);
  });

  it("refuses read-only stores", async () => {
    const arr = await numbered();
    const plain = { get: (k: string) => arr.store.get(k) };
    // Chunks are written through chunkStore (the store, or its storage transformers' stack).
    const readOnly = Object.create(arr, { store: { value: plain }, chunkStore: { value: plain } });
    const error = await rejection(setCoordinates(readOnly, [[0], [0]], 1));
    expect(error.code).toBe("STORE_READ_ONLY");
  });
});
