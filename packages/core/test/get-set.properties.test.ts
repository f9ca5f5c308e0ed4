/**
 * `get` and `set` against a plain reference model of NumPy orthogonal indexing:
 * random small arrays (regular and rectilinear grids, ragged edges, two codec chains,
 * missing chunks), random selections (ints, slices with any step, unsorted index lists
 * with repeats, masks, "..."), a few writes in a row. After every write the whole array
 * must equal the model: selected elements take the new values (the last of repeated
 * indices wins) and every other element keeps its old value.
 */

import type { ReadIntoRange } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createArray, get, MemoryStore, type Selection, type StoreRequestOptions, set, slice, type ZarrArray } from "../src/index.js";
import { type Grid, gridFor, type ModelSelection, modelGet, modelSelect, modelSet, selectionFor } from "./orthogonal-model.js";

const CODEC_CHAINS = {
  default: undefined,
  transposeBigEndian: (ndim: number) => [
    { name: "transpose", configuration: { order: Array.from({ length: ndim }, (_, i) => ndim - 1 - i) } },
    { name: "bytes", configuration: { endian: "big" } },
  ],
};

interface Write {
  selection: ModelSelection;
  /** A scalar, or a seed for one value per selected element. */
  value: { scalar: number } | { seed: number };
}

const testCase = fc
  .array(fc.integer({ min: 0, max: 6 }), { minLength: 0, maxLength: 3 })
  .chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      grid: gridFor(shape),
      chain: fc.constantFrom<keyof typeof CODEC_CHAINS>("default", "transposeBigEndian"),
      fill: fc.constantFrom(0, 3),
      writeEmptyChunks: fc.boolean(),
      // a first write leaves some chunks missing (all fill value)
      writes: fc.array(
        fc.record({
          selection: selectionFor(shape),
          value: fc.oneof(
            fc.integer({ min: 0, max: 4 }).map((scalar) => ({ scalar })),
            fc.integer({ min: 0, max: 1000 }).map((seed) => ({ seed })),
          ),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      read: selectionFor(shape),
    }),
  );

/** Small values (0–4) that often equal the fill value, so chunks become empty and get deleted. */
function valuesFor(seed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => (seed * 7 + i * 3 + ((seed >> 3) & i)) % 5);
}

async function makeArray(shape: number[], grid: Grid, chain: keyof typeof CODEC_CHAINS, fill: number, writeEmptyChunks: boolean) {
  const codecs = CODEC_CHAINS[chain];
  return createArray(new MemoryStore(), "a", {
    shape,
    ...("regular" in grid ? { chunkShape: grid.regular } : { chunkShapes: grid.rectilinear }),
    dataType: "int32",
    fillValue: fill,
    writeEmptyChunks,
    codecs: typeof codecs === "function" ? (codecs(shape.length) as never) : undefined,
  });
}

/** Applies `write` to the array and to the model. */
async function applyWrite(arr: ZarrArray, model: number[], write: Write): Promise<void> {
  const { shape: outShape, flat } = modelSelect(arr.shape, write.selection);
  if ("scalar" in write.value) {
    await set(arr, write.selection as Selection, write.value.scalar);
    modelSet(model, arr.shape, write.selection, write.value.scalar);
  } else {
    const values = valuesFor(write.value.seed, flat.length);
    await set(arr, write.selection as Selection, { data: Int32Array.from(values), shape: outShape });
    modelSet(model, arr.shape, write.selection, values);
  }
}

describe("get and set match the orthogonal indexing model", () => {
  it("on regular and rectilinear grids, with the default and a transpose + big-endian chain", async () => {
    await fc.assert(
      fc.asyncProperty(testCase, async ({ shape, grid, chain, fill, writeEmptyChunks, writes, read }) => {
        const arr = await makeArray(shape, grid, chain, fill, writeEmptyChunks);
        const model = new Array<number>(shape.reduce((a, b) => a * b, 1)).fill(fill);
        for (const write of writes) {
          await applyWrite(arr, model, write);
          const all = await get(arr, null);
          expect(Array.from(all.data as Int32Array)).toEqual(model);
        }
        const got = await get(arr, read as Selection);
        const want = modelGet(model, shape, read);
        expect(got.shape).toEqual(want.shape);
        expect(Array.from(got.data as Int32Array)).toEqual(want.values);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("set with repeated indices", () => {
  it("keeps unselected elements of a chunk listed as often as it is long", async () => {
    // chunk 0 holds positions 0-3; the list names it four times but never position 3
    const arr = await makeArray([8], { regular: [4] }, "default", 0, false);
    await set(arr, null, Int32Array.from([1, 2, 3, 4, 5, 6, 7, 8]));
    await set(arr, [[2, 0, 1, 2]], Int32Array.from([9, 9, 9, 7]));
    expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual([9, 9, 7, 4, 5, 6, 7, 8]);
  });

  it("keeps unselected elements of an edge chunk (ragged, 2 in-array positions)", async () => {
    const arr = await makeArray([6, 2], { regular: [4, 2] }, "transposeBigEndian", 3, false);
    await set(arr, null, Int32Array.from({ length: 12 }, (_, i) => i));
    await set(arr, [[4, -2, 4], 1], 0);
    expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 10, 11]);
  });

  it("lets the last of repeated indices win, as NumPy does", async () => {
    const arr = await makeArray([5], { rectilinear: [[2, 3]] }, "default", 0, false);
    await set(arr, [[4, 1, 4, 1, 2, 3]], Int32Array.from([1, 2, 3, 4, 5, 6]));
    expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual([0, 4, 5, 6, 3]);
  });
});

/** A MemoryStore counting reads of chunk keys, by any of its read methods. */
class ChunkReadCounter extends MemoryStore {
  reads: string[] = [];
  override async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    if (key.includes("/c/")) this.reads.push(key);
    return super.get(key, options);
  }
  override async readInto(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions): Promise<number | undefined> {
    if (key.includes("/c/")) this.reads.push(key);
    return super.readInto(key, ranges, options);
  }
}

describe("set reads only the chunks it does not cover", () => {
  it("does not read one-element chunks a strided slice selects (any step)", async () => {
    const store = new ChunkReadCounter();
    const arr = await createArray(store, "a", { shape: [7, 2], chunkShape: [1, 2], dataType: "int32", fillValue: 0 });
    await set(arr, null, Int32Array.from({ length: 14 }, (_, i) => i + 1));
    store.reads = [];
    await set(arr, [slice(null, null, -3), null], 0); // rows 6, 3, 0: whole chunks
    await set(arr, [slice(1, null, 4)], -1); // rows 1, 5
    expect(store.reads).toEqual([]);
    await set(arr, [2, 1], 9); // half of row 2: read, then written back
    expect(store.reads).toEqual(["a/c/2/0"]);
    expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual([0, 0, -1, -1, 5, 9, 0, 0, 9, 10, -1, -1, 0, 0]);
  });
});
