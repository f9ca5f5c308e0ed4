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

  it("resizes only to chunk boundaries", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "r", { shape: [6], chunkShapes: [[1, 2, 3]], dataType: "int8" });
    const shrunk = await resize(arr, [3]);
    expect(shrunk.chunkGrid.gridShape).toEqual([2]);
    const e = await resize(arr, [4]).catch((x: ZarrError) => x);
    expect((e as ZarrError).code).toBe("UNSUPPORTED");
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
