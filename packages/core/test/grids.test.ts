import { describe, expect, it } from "vitest";
import { createArray, get, MemoryStore, openArray, resize, set, slice, type ZarrError } from "../src/index.js";

describe("rectilinear chunk grids", () => {
  it("writes and reads chunks of varying sizes", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "r", {
      shape: [6, 7],
      chunkShapes: [[1, 2, 3], 3],
      dataType: "int16",
      fillValue: -1,
    });
    const doc = JSON.parse(new TextDecoder().decode(store.map.get("r/zarr.json")));
    expect(doc.chunk_grid).toEqual({ name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [[1, 2, 3], 3] } });
    await set(arr, null, Int16Array.from({ length: 42 }, (_, i) => i));
    expect(store.keys().filter((k) => k.startsWith("r/c/")).length).toBe(9);
    expect(store.map.get("r/c/2/0")?.length).toBe(3 * 3 * 2);
    const again = await openArray(store, "r");
    const sub = await get(again, [slice(1, 5), slice(2, 6)]);
    expect(Array.from(sub.data as Int16Array)).toEqual([9, 10, 11, 12, 16, 17, 18, 19, 23, 24, 25, 26, 30, 31, 32, 33]);
  });

  it("expands [value, count] runs and checks the edges add up", async () => {
    const store = new MemoryStore();
    await createArray(store, "a", { shape: [6], chunkGrid: { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [[[2, 3]]] } }, dataType: "int8" });
    const arr = await openArray(store, "a");
    expect(arr.chunkGrid.gridShape).toEqual([3]);
    const e = await createArray(store, "b", { shape: [7], chunkShapes: [[2, 2]], dataType: "int8" }).catch((x: ZarrError) => x);
    expect((e as ZarrError).code).toBe("METADATA_INVALID");
    expect((e as ZarrError).message).toMatch(/add up to 4, but the array's length along dimension 0 is 7/);
  });

  it("accepts edges that add up to more than the array's length: the last chunk overhangs", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "o", { shape: [5], chunkShapes: [[2, 4, 3]], dataType: "int8", fillValue: -1 });
    // The third edge starts beyond the array: kept in the metadata, holds no chunk.
    expect(arr.chunkGrid.gridShape).toEqual([2]);
    expect(arr.chunkGrid.chunkShape([1])).toEqual([4]);
    await set(arr, null, new Int8Array([1, 2, 3, 4, 5]));
    expect(Array.from((await get(arr)).data as Int8Array)).toEqual([1, 2, 3, 4, 5]);
    expect(docOf(store, "o").chunk_grid.configuration.chunk_shapes).toEqual([[2, 4, 3]]);
  });
});

/** The parsed zarr.json of `path`. */
function docOf(store: MemoryStore, path: string) {
  return JSON.parse(new TextDecoder().decode(store.map.get(`${path}/zarr.json`)));
}

/** Chunk keys of the array at `path`, sorted. */
function chunkKeys(store: MemoryStore, path: string): string[] {
  return store
    .keys()
    .filter((k) => k.startsWith(`${path}/c/`))
    .sort();
}

describe("resizing rectilinear grids", () => {
  it("grows by appending one chunk of the added extent, written back in run-length form", async () => {
    const store = new MemoryStore();
    let arr = await createArray(store, "t", { shape: [6, 4], chunkShapes: [[2, 2, 2], 2], dataType: "int16", fillValue: -1 });
    await set(arr, null, Int16Array.from({ length: 24 }, (_, i) => i));
    arr = await resize(arr, [9, 4]);
    expect(docOf(store, "t").chunk_grid).toEqual({ name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [[[2, 3], 3], 2] } });
    expect(docOf(store, "t").shape).toEqual([9, 4]);
    await set(arr, [slice(6, 9)], 100);
    const again = await openArray(store, "t");
    expect(again.chunkGrid.gridShape).toEqual([4, 2]);
    expect(again.chunkGrid.chunkShape([3, 0])).toEqual([3, 2]);
    const data = Array.from((await get(again)).data as Int16Array);
    expect(data.slice(0, 24)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(data.slice(24)).toEqual(new Array(12).fill(100));
    // The existing chunks were not rewritten: the new rows are a chunk row of their own.
    expect(chunkKeys(store, "t")).toEqual(["t/c/0/0", "t/c/0/1", "t/c/1/0", "t/c/1/1", "t/c/2/0", "t/c/2/1", "t/c/3/0", "t/c/3/1"]);
    // Appending more of the same size becomes one run.
    await resize(await resize(again, [12, 4]), [15, 4]);
    expect(docOf(store, "t").chunk_grid.configuration.chunk_shapes).toEqual([[[2, 3], [3, 3]], 2]);
  });

  it("grows by the edges newChunkEdges gives: a list, or one edge repeated", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "n", { shape: [3], chunkShapes: [[1, 2]], dataType: "uint8" });
    const listed = await resize(arr, [8], { newChunkEdges: [[4, 1]] });
    expect(docOf(store, "n").chunk_grid.configuration.chunk_shapes).toEqual([[1, 2, 4, 1]]);
    const repeated = await resize(listed, [13], { newChunkEdges: [2] });
    // 5 more elements in chunks of 2: three chunks, the last overhanging by one.
    expect(docOf(store, "n").chunk_grid.configuration.chunk_shapes).toEqual([[1, 2, 4, 1, [2, 3]]]);
    expect(repeated.chunkGrid.gridShape).toEqual([7]);
    await set(repeated, null, Uint8Array.from({ length: 13 }, (_, i) => i + 1));
    expect(Array.from((await get(await openArray(store, "n"))).data as Uint8Array)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
  });

  it("refuses newChunkEdges that do not cover the growth or overshoot it by a whole chunk, before changing anything", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "b", { shape: [4], chunkShapes: [[2, 2]], dataType: "uint8" });
    await set(arr, null, new Uint8Array([1, 2, 3, 4]));
    const cases: [unknown, RegExp][] = [
      [[[1, 1]], /newChunkEdges\[0\] \(\[1,1\], adding up to 2\) must cover the 3 elements added along dimension 0/],
      [[[2, 1, 1]], /no chunk starting beyond them/],
      [[0], /newChunkEdges\[0\] must be a positive integer/],
      [[[2, "x"]], /newChunkEdges\[0\]\[1\] must be a positive integer/],
      [[1, 1], /at most one entry per dimension \(1\)/],
    ];
    for (const [newChunkEdges, message] of cases) {
      const e = await resize(arr, [7], { newChunkEdges: newChunkEdges as number[] }).catch((x: ZarrError) => x);
      expect((e as ZarrError).code).toBe("INVALID_ARGUMENT");
      expect((e as ZarrError).message).toMatch(message);
    }
    expect(docOf(store, "b").shape).toEqual([4]);
  });

  it("shrinks to a non-boundary: truncates the edges, deletes chunks wholly outside, resets the cut part", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "s", { shape: [10], chunkShapes: [[2, 3, 5]], dataType: "int8", fillValue: -1 });
    await set(arr, null, Int8Array.from({ length: 10 }, (_, i) => i));
    const shrunk = await resize(arr, [4]);
    // Edge 3 (elements 2..4) now overhangs the edge; the chunk of edge 5 is gone.
    expect(docOf(store, "s").chunk_grid.configuration.chunk_shapes).toEqual([[2, 3]]);
    expect(chunkKeys(store, "s")).toEqual(["s/c/0", "s/c/1"]);
    expect(shrunk.chunkGrid.gridShape).toEqual([2]);
    expect(Array.from((await get(await openArray(store, "s"))).data as Int8Array)).toEqual([0, 1, 2, 3]);
    // Growing back covers elements 4 and 5 with the overhanging chunk (reset to the fill value), then appends one edge.
    const grown = await resize(shrunk, [8]);
    expect(docOf(store, "s").chunk_grid.configuration.chunk_shapes).toEqual([[2, 3, 3]]);
    expect(Array.from((await get(grown)).data as Int8Array)).toEqual([0, 1, 2, 3, -1, -1, -1, -1]);
    // To a chunk boundary, and to zero (the first edge stays: the list is never empty).
    await resize(grown, [5]);
    expect(docOf(store, "s").chunk_grid.configuration.chunk_shapes).toEqual([[2, 3]]);
    const empty = await resize(await openArray(store, "s"), [0]);
    expect(docOf(store, "s").chunk_grid.configuration.chunk_shapes).toEqual([[2]]);
    expect(empty.chunkGrid.gridShape).toEqual([0]);
    expect(chunkKeys(store, "s")).toEqual([]);
    expect(Array.from((await get(await resize(empty, [3]))).data as Int8Array)).toEqual([-1, -1, -1]);
  });

  it("finds chunks to delete without listing", async () => {
    const mem = new MemoryStore();
    const arr = await createArray(mem, "u", { shape: [6, 2], chunkShapes: [[1, 2, 3], 2], dataType: "uint8" });
    await set(arr, null, new Uint8Array(12).fill(7));
    const unlisted = { get: mem.get.bind(mem), set: mem.set.bind(mem), delete: mem.delete.bind(mem) };
    await resize(await openArray(unlisted, "u"), [2, 2]);
    expect(chunkKeys(mem, "u")).toEqual(["u/c/0/0", "u/c/1/0"]);
    expect(Array.from((await get(await openArray(mem, "u"))).data as Uint8Array)).toEqual([7, 7, 7, 7]);
  });
});

describe("chunk key encodings", () => {
  it("default with '.' and v2 with '/' and 0-d arrays", async () => {
    const store = new MemoryStore();
    const a = await createArray(store, "a", { shape: [2, 2], chunkShape: [1, 1], dataType: "int8", chunkKeyEncoding: { name: "default", separator: "." } });
    await set(a, [1, 1], 3);
    const b = await createArray(store, "b", { shape: [2, 2], chunkShape: [1, 1], dataType: "int8", chunkKeyEncoding: { name: "v2", separator: "/" } });
    await set(b, [1, 0], 3);
    const z = await createArray(store, "z", { shape: [], dataType: "float32" });
    await set(z, [], 2.5);
    const zv = await createArray(store, "zv", { shape: [], dataType: "float32", chunkKeyEncoding: { name: "v2" } });
    await set(zv, null, 1.5);
    expect(store.keys().filter((k) => !k.endsWith("zarr.json"))).toEqual(["a/c.1.1", "b/1/0", "z/c", "zv/0"]);
    expect((await get(z)).data[0]).toBe(2.5);
    expect((await get(z)).shape).toEqual([]);
  });
});
