/**
 * `get` and `set` on sharded arrays against core's plain reference model of NumPy
 * orthogonal indexing: random shapes (shards overhanging the array's edge), inner chunk
 * shapes, inner codec chains (bytes; bytes + crc32c; nested sharding), random
 * selections of every kind (negative steps, unsorted index lists with repeats, masks)
 * and several writes in a row, through partial shard updates and whole-shard writes.
 */
import { createArray, get, type JsonObject, MemoryStore, type Selection, set } from "@zarr/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// The model is plain JS shared with core's property tests (core cannot depend on this package).
import { modelGet, modelSelect, modelSet, selectionFor } from "../../core/test/orthogonal-model.js";
import { registryWith } from "./helpers.js";

const registry = registryWith();
const BYTES: JsonObject = { name: "bytes", configuration: { endian: "little" } };

type Inner = "bytes" | "crc32c" | "nested";

function shardingCodec(innerShape: number[], inner: Inner, location: "start" | "end"): { name: string; configuration: JsonObject } {
  const leaf: JsonObject[] = inner === "crc32c" ? [BYTES, { name: "crc32c", configuration: {} }] : [BYTES];
  const codecs: JsonObject[] =
    inner === "nested"
      ? [{ name: "sharding_indexed", configuration: { chunk_shape: innerShape.map(() => 1), codecs: leaf, index_location: "end" } }]
      : leaf;
  return { name: "sharding_indexed", configuration: { chunk_shape: innerShape, codecs, index_location: location } };
}

const write = (shape: number[]) =>
  fc.record({
    selection: selectionFor(shape),
    value: fc.oneof(
      fc.integer({ min: 0, max: 4 }).map((scalar): { scalar: number } | { seed: number } => ({ scalar })),
      fc.integer({ min: 0, max: 1000 }).map((seed): { scalar: number } | { seed: number } => ({ seed })),
    ),
  });

const testCase = fc
  .integer({ min: 1, max: 3 })
  .chain((ndim) => {
    const perDim = (max: number) => fc.array(fc.integer({ min: 1, max }), { minLength: ndim, maxLength: ndim });
    return fc.record({
      inner: perDim(3),
      perShard: perDim(3),
      lengths: perDim(18),
      innerChain: fc.constantFrom<Inner>("bytes", "crc32c", "nested"),
      location: fc.constantFrom("start" as const, "end" as const),
      fill: fc.constantFrom(0, 3),
    });
  })
  .chain((layout) => {
    // up to two shards along each dimension, often ending inside one
    const shape = layout.lengths.map((n, d) => 1 + (n % (2 * layout.inner[d] * layout.perShard[d])));
    return fc
      .record({ writes: fc.array(write(shape), { minLength: 1, maxLength: 3 }), read: selectionFor(shape) })
      .map((ops) => ({ ...layout, shape, ...ops }));
  });

/** Small values (0–4) that often equal the fill value, so inner chunks and shards become empty. */
function valuesFor(seed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => (seed * 7 + i * 3 + ((seed >> 3) & i)) % 5);
}

describe("sharded arrays match the orthogonal indexing model", () => {
  it("get and set, including repeated indices and partly covered inner chunks", async () => {
    await fc.assert(
      fc.asyncProperty(testCase, async ({ inner, perShard, innerChain, location, fill, shape, writes, read }) => {
        const arr = await createArray(new MemoryStore(), "a", {
          shape,
          chunkShape: inner.map((n, d) => n * perShard[d]),
          dataType: "int32",
          fillValue: fill,
          registry,
          codecs: [shardingCodec(inner, innerChain, location)],
        });
        const model = new Array<number>(shape.reduce((a, b) => a * b, 1)).fill(fill);
        for (const write of writes) {
          const { shape: outShape, flat } = modelSelect(shape, write.selection);
          if ("scalar" in write.value) {
            await set(arr, write.selection as Selection, write.value.scalar);
            modelSet(model, shape, write.selection, write.value.scalar);
          } else {
            const values = valuesFor(write.value.seed, flat.length);
            await set(arr, write.selection as Selection, { data: Int32Array.from(values), shape: outShape });
            modelSet(model, shape, write.selection, values);
          }
          expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual(model);
        }
        const got = await get(arr, read as Selection);
        const want = modelGet(model, shape, read);
        expect(got.shape).toEqual(want.shape);
        expect(Array.from(got.data as Int32Array)).toEqual(want.values);
      }),
      { numRuns: 300 },
    );
  });
});
