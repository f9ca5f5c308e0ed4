/**
 * Pointwise selections (`getCoordinates`, `getMask`, `setCoordinates`, `setMask`) on
 * sharded arrays: against core's reference model of NumPy's fancy indexing (random
 * shard and inner chunk shapes, shards overhanging the edge, nested sharding), and the
 * requests they cost: a read decodes only the inner chunks its points' block touches;
 * a write reads each touched shard once and writes it once.
 */
import { createArray, get, getCoordinates, getMask, type JsonObject, MemoryStore, openArray, set, setCoordinates, setMask } from "@zarr/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// The model is plain JS shared with core's tests (core cannot depend on this package).
import { coordinatesFor, maskFor, modelGather, modelMaskPoints, modelPoints, modelScatter } from "../../core/test/pointwise-model.js";
import { CountingStore, registryWith } from "./helpers.js";

const registry = registryWith();
const BYTES: JsonObject = { name: "bytes", configuration: { endian: "little" } };

function shardingCodec(innerShape: number[], nested: boolean): JsonObject {
  const codecs: JsonObject[] = nested
    ? [{ name: "sharding_indexed", configuration: { chunk_shape: innerShape.map(() => 1), codecs: [BYTES], index_location: "end" } }]
    : [BYTES];
  return { name: "sharding_indexed", configuration: { chunk_shape: innerShape, codecs, index_location: "end" } };
}

const testCase = fc
  .integer({ min: 1, max: 3 })
  .chain((ndim) => {
    const perDim = (max: number) => fc.array(fc.integer({ min: 1, max }), { minLength: ndim, maxLength: ndim });
    return fc.record({ inner: perDim(3), perShard: perDim(3), lengths: perDim(18), nested: fc.boolean(), fill: fc.constantFrom(0, 3) });
  })
  .chain((layout) => {
    const shape = layout.lengths.map((n, d) => 1 + (n % (2 * layout.inner[d] * layout.perShard[d])));
    const value = fc.oneof(
      fc.integer({ min: 0, max: 4 }).map((scalar): { scalar: number } | { seed: number } => ({ scalar })),
      fc.integer({ min: 0, max: 1000 }).map((seed): { scalar: number } | { seed: number } => ({ seed })),
    );
    const write = fc.oneof(
      fc.record({ coords: coordinatesFor(shape), value }),
      fc.record({ mask: maskFor(shape), value }),
    );
    return fc
      .record({ writes: fc.array(write, { minLength: 1, maxLength: 3 }), readCoords: coordinatesFor(shape), readMask: maskFor(shape) })
      .map((ops) => ({ ...layout, shape, ...ops }));
  });

function valuesFor(seed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => (seed * 7 + i * 3 + ((seed >> 3) & i)) % 5);
}

describe("pointwise selections on sharded arrays", () => {
  it("match the reference model of NumPy's fancy indexing", async () => {
    await fc.assert(
      fc.asyncProperty(testCase, async ({ inner, perShard, nested, fill, shape, writes, readCoords, readMask }) => {
        const arr = await createArray(new MemoryStore(), "a", {
          shape,
          chunkShape: inner.map((n, d) => n * perShard[d]),
          dataType: "int32",
          fillValue: fill,
          registry,
          codecs: [shardingCodec(inner, nested)] as never,
        });
        const model = new Array<number>(shape.reduce((a, b) => a * b, 1)).fill(fill);
        for (const w of writes) {
          const flat = "coords" in w ? modelPoints(shape, w.coords).flat : modelMaskPoints(w.mask);
          const values = "scalar" in w.value ? w.value.scalar : valuesFor(w.value.seed, flat.length);
          const given = typeof values === "number" ? values : Int32Array.from(values);
          if ("coords" in w) await setCoordinates(arr, w.coords, given);
          else await setMask(arr, { data: w.mask, shape }, given);
          modelScatter(model, flat, values);
          expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual(model);
        }
        const want = modelPoints(shape, readCoords);
        const got = await getCoordinates(arr, readCoords);
        expect(got.shape).toEqual(want.shape);
        expect(Array.from(got.data as Int32Array)).toEqual(modelGather(model, want.flat));
        const masked = await getMask(arr, { data: readMask, shape });
        expect(Array.from(masked.data as Int32Array)).toEqual(modelGather(model, modelMaskPoints(readMask)));
      }),
      { numRuns: 200 },
    );
  });

  /** A [16, 32] int32 array in two shards of [16, 16], each 4 × 4 inner chunks of [4, 4], values 1…512. */
  async function twoShards() {
    const store = new CountingStore();
    // No coalescing of neighbouring inner chunks into one range: each inner chunk read shows.
    const exact = registryWith([], { coalesceGap: 0 });
    await createArray(store, "a", { shape: [16, 32], chunkShape: [16, 16], dataType: "int32", registry: exact, codecs: [shardingCodec([4, 4], false)] as never });
    const arr = await openArray(store, "a", { registry: exact });
    await set(arr, null, Int32Array.from({ length: 512 }, (_, i) => i + 1));
    store.reset();
    return { store, arr };
  }

  it("read: one partial read per touched shard, of only the inner chunks the points' block touches", async () => {
    const { store, arr } = await twoShards();
    // 3 points in shard 0, all in inner chunk (0, 0) or (3, 3): the block (rows {0, 1, 13} × columns {2, 14}) touches 4 inner chunks
    const got = await getCoordinates(arr, [[0, 1, 13], [2, 2, 14]]);
    expect(Array.from(got.data as Int32Array)).toEqual([3, 35, 13 * 32 + 15]);
    const keys = new Set(store.log.map((r) => r.key));
    expect([...keys]).toEqual(["a/c/0/0"]);
    // the index, then the 4 inner chunks of the block (each 4 × 4 int32): never the whole shard
    expect(store.log[0].range).toEqual({ suffixLength: 16 * 16 + 4 });
    // (the codec reads the last inner chunk on to the shard's end, which it checks)
    const ranges = store.log.slice(1).map((r) => r.range as { offset: number; length: number });
    expect(ranges.map((r) => r.offset)).toEqual([0, 3, 12, 15].map((i) => i * 64));
    expect(ranges.slice(0, 3).map((r) => r.length)).toEqual([64, 64, 64]);
  });

  it("write: each touched shard read once and written once, however many points fall in it", async () => {
    const { store, arr } = await twoShards();
    const written: string[] = [];
    const originalSet = store.set.bind(store);
    store.set = async (key, value, options) => {
      if (key.includes("/c/")) written.push(key);
      return originalSet(key, value, options);
    };
    const rows = Array.from({ length: 50 }, (_, i) => i % 16);
    const cols = Array.from({ length: 50 }, (_, i) => (i < 25 ? i % 16 : 16 + (i % 16)));
    await setCoordinates(arr, [rows, cols], -7);
    const perKey = new Map<string, number>();
    for (const r of store.log) perKey.set(r.key, (perKey.get(r.key) ?? 0) + 1);
    expect(Object.fromEntries(perKey)).toEqual({ "a/c/0/0": 1, "a/c/0/1": 1 });
    expect(written.sort()).toEqual(["a/c/0/0", "a/c/0/1"]);
    const want = Array.from({ length: 512 }, (_, i) => i + 1);
    rows.forEach((r, i) => {
      want[r * 32 + cols[i]] = -7;
    });
    expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual(want);
  });
});
