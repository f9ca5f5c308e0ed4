/**
 * Property tests: sharded arrays (random shapes, inner chunk shapes, index location,
 * with and without crc32c, nested sharding, gzip) behave exactly like plain arrays
 * written with the same data, for whole writes, random reads and random partial
 * writes; inner chunks holding only the fill value are stored as empty and shards
 * holding only the fill value are deleted.
 */
import {
  type ArrayOf,
  createArray,
  type DataArray,
  get,
  type JsonObject,
  MemoryStore,
  openArray,
  type Selection,
  set,
  slice,
  type ZarrArray,
} from "@zarr/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulberry32 as prng } from "../../../scripts/test-random.mjs";
import { EMPTY_U64, readIndex, registryWith, storeWithoutRanges } from "./helpers.js";

interface DimLayout {
  inner: number;
  perShard: number;
  shards: number;
  trim: number;
}

interface Layout {
  dims: DimLayout[];
  location: "start" | "end";
  crc: boolean;
  nested: boolean;
  nestedLocation: "start" | "end";
  gzip: boolean;
  dtype: "int16" | "float32" | "uint8";
  fill: number;
  rangeReads: boolean;
  seed: number;
}

const layoutArb: fc.Arbitrary<Layout> = fc.integer({ min: 1, max: 3 }).chain((ndim) =>
  fc.record({
    dims: fc.array(
      fc.record({
        inner: fc.integer({ min: 1, max: 4 }),
        perShard: fc.integer({ min: 1, max: 3 }),
        shards: fc.integer({ min: 1, max: 2 }),
        trim: fc.nat({ max: 11 }),
      }),
      { minLength: ndim, maxLength: ndim },
    ),
    location: fc.constantFrom("start" as const, "end" as const),
    crc: fc.boolean(),
    nested: fc.boolean(),
    nestedLocation: fc.constantFrom("start" as const, "end" as const),
    gzip: fc.boolean(),
    dtype: fc.constantFrom("int16" as const, "float32" as const, "uint8" as const),
    fill: fc.constantFrom(0, 7),
    rangeReads: fc.boolean(),
    seed: fc.integer(),
  }),
);

function indexCodecs(crc: boolean): JsonObject[] {
  const codecs: JsonObject[] = [{ name: "bytes", configuration: { endian: "little" } }];
  if (crc) codecs.push({ name: "crc32c", configuration: {} });
  return codecs;
}

function shardingCodec(layout: Layout, rand: () => number): { name: string; configuration: JsonObject } {
  const leaf: JsonObject[] = [{ name: "bytes", configuration: { endian: "little" } }];
  // (gzip through node:zlib costs ~0.4 ms per call: keep it off the tiny nested chunks.)
  if (layout.gzip && !layout.nested) leaf.push({ name: "gzip", configuration: { level: 1 } });
  const innerShape = layout.dims.map((d) => d.inner);
  let codecs = leaf;
  if (layout.nested) {
    // An inner-inner chunk shape dividing the inner chunk shape: 1 or the whole.
    const innerInner = innerShape.map((n) => (rand() < 0.5 ? 1 : n));
    codecs = [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: innerInner,
          codecs: leaf,
          index_codecs: indexCodecs(!layout.crc),
          index_location: layout.nestedLocation,
        },
      },
    ];
  }
  return {
    name: "sharding_indexed",
    configuration: {
      chunk_shape: innerShape,
      codecs,
      index_codecs: indexCodecs(layout.crc),
      index_location: layout.location,
    },
  };
}

function shapeOf(layout: Layout): number[] {
  return layout.dims.map((d) => {
    const shard = d.inner * d.perShard;
    return Math.max(1, d.shards * shard - (d.trim % shard));
  });
}

function allocate(dtype: Layout["dtype"], n: number): ArrayOf<Layout["dtype"]> {
  return dtype === "int16" ? new Int16Array(n) : dtype === "float32" ? new Float32Array(n) : new Uint8Array(n);
}

/** Values with many fill-valued elements and a fill-valued box. */
function randomData(layout: Layout, shape: number[], rand: () => number): ArrayOf<Layout["dtype"]> {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = allocate(layout.dtype, n);
  const fillShare = rand();
  for (let i = 0; i < n; i++) data[i] = rand() < fillShare ? layout.fill : 1 + Math.floor(rand() * 100);
  // Clear a random box to the fill value.
  const lo = shape.map((s) => Math.floor(rand() * s));
  const hi = shape.map((s, d) => lo[d] + Math.floor(rand() * (s - lo[d] + 1)));
  forEachIndex(shape, (coords, flat) => {
    if (coords.every((c, d) => c >= lo[d] && c < hi[d])) data[flat] = layout.fill;
  });
  return data;
}

function forEachIndex(shape: number[], fn: (coords: number[], flat: number) => void): void {
  const n = shape.reduce((a, b) => a * b, 1);
  const coords = new Array<number>(shape.length).fill(0);
  for (let flat = 0; flat < n; flat++) {
    fn(coords, flat);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++coords[d] < shape[d]) break;
      coords[d] = 0;
    }
  }
}

/** A random selection over `shape` and the number of elements it selects (int dims dropped). */
function randomSelection(shape: number[], rand: () => number, forWrite: boolean): { selection: Selection; size: number } {
  const pick = (n: number) => Math.floor(rand() * n);
  let size = 1;
  const selection = shape.map((len) => {
    const kind = pick(4);
    if (kind === 0) return pick(len);
    if (kind === 1) {
      const step = 1 + pick(3);
      if (!forWrite && rand() < 0.3) {
        // A reversed slice start:stop:-step.
        const start = pick(len);
        const stop = pick(start + 1) - 1; // -1 = through index 0
        size *= Math.ceil((start - stop) / step);
        return slice(start, stop < 0 ? null : stop, -step);
      }
      const start = pick(len);
      const stop = start + 1 + pick(len - start);
      size *= Math.ceil((stop - start) / step);
      return slice(start, stop, step);
    }
    if (kind === 2) {
      const count = 1 + pick(Math.min(len, 5));
      let indices: number[];
      if (forWrite) {
        const all = Array.from({ length: len }, (_, i) => i).sort(() => rand() - 0.5);
        indices = all.slice(0, count);
      } else {
        indices = Array.from({ length: count }, () => pick(len));
      }
      size *= indices.length;
      return indices;
    }
    size *= len;
    return null;
  });
  return { selection, size };
}

/** Checks that every shard's index marks exactly the fill-only inner chunks as empty, and fill-only shards are absent. */
function checkEmptyInnerChunks(layout: Layout, store: MemoryStore, shape: number[], values: DataArray): void {
  const ndim = shape.length;
  const shardShape = layout.dims.map((d) => d.inner * d.perShard);
  const grid = shape.map((n, d) => Math.ceil(n / shardShape[d]));
  const perShard = layout.dims.map((d) => d.perShard);
  const count = perShard.reduce((a, b) => a * b, 1);
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  forEachIndex(grid, (shard) => {
    const key = ndim === 0 ? "s/c" : `s/c/${shard.join("/")}`;
    const stored = store.map.get(key);
    let shardHasData = false;
    const entries = stored === undefined ? undefined : readIndex(stored, count, layout.location, layout.crc);
    forEachIndex(perShard, (inner, linear) => {
      let hasData = false;
      const lo = inner.map((c, d) => shard[d] * shardShape[d] + c * layout.dims[d].inner);
      forEachIndex(
        layout.dims.map((d) => d.inner),
        (local) => {
          const pos = local.map((c, d) => lo[d] + c);
          if (pos.some((p, d) => p >= shape[d])) return;
          const flat = pos.reduce((acc, p, d) => acc + p * strides[d], 0);
          if (values[flat] !== layout.fill) hasData = true;
        },
      );
      shardHasData ||= hasData;
      if (entries !== undefined) {
        const empty = entries[2 * linear] === EMPTY_U64 && entries[2 * linear + 1] === EMPTY_U64;
        expect(empty, `inner chunk ${inner} of shard ${key} empty`).toBe(!hasData);
      }
    });
    expect(stored !== undefined, `shard ${key} stored`).toBe(shardHasData);
  });
}

async function setup(layout: Layout) {
  const rand = prng(layout.seed);
  const registry = registryWith();
  const store = new MemoryStore();
  const shape = shapeOf(layout);
  const common = { shape, dataType: layout.dtype, fillValue: layout.fill, registry };
  await createArray(store, "s", {
    ...common,
    chunkShape: layout.dims.map((d) => d.inner * d.perShard),
    codecs: [shardingCodec(layout, rand)],
  });
  const plain = await createArray(store, "p", {
    ...common,
    chunkShape: layout.dims.map((d) => d.inner),
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
  });
  const view = layout.rangeReads ? store : storeWithoutRanges(store);
  const sharded = await openArray(view, "s", { registry });
  return { rand, registry, store, view, shape, sharded, plain };
}

async function expectSame(a: ZarrArray, b: ZarrArray, selection?: Selection) {
  const x = await get(a, selection);
  const y = await get(b, selection);
  expect(x.shape).toEqual(y.shape);
  expect(Array.from(x.data as ArrayLike<number>)).toEqual(Array.from(y.data as ArrayLike<number>));
}

describe("sharded arrays match plain arrays", () => {
  it("whole writes, random reads, index contents", async () => {
    await fc.assert(
      fc.asyncProperty(layoutArb, async (layout) => {
        const { rand, store, view, shape, sharded, plain } = await setup(layout);
        const data = randomData(layout, shape, rand);
        await set(sharded, null, data);
        await set(plain, null, data);
        await expectSame(sharded, plain);
        checkEmptyInnerChunks(layout, store, shape, data);
        for (let i = 0; i < 4; i++) await expectSame(sharded, plain, randomSelection(shape, rand, false).selection);
        // A fresh instance (cold caches) reads the same.
        const reopened = await openArray(view, "s", { registry: registryWith() });
        await expectSame(reopened, plain, randomSelection(shape, rand, false).selection);
      }),
      { numRuns: 40 },
    );
  });

  it("random partial writes", async () => {
    await fc.assert(
      fc.asyncProperty(layoutArb, async (layout) => {
        const { rand, store, view, shape, sharded, plain } = await setup(layout);
        if (rand() < 0.7) {
          const data = randomData(layout, shape, rand);
          await set(sharded, null, data);
          await set(plain, null, data);
        }
        for (let step = 0; step < 4; step++) {
          const { selection, size } = randomSelection(shape, rand, true);
          const r = rand();
          if (r < 0.25) {
            await set(sharded, selection, layout.fill);
            await set(plain, selection, layout.fill);
          } else if (r < 0.4) {
            const v = 1 + Math.floor(rand() * 50);
            await set(sharded, selection, v);
            await set(plain, selection, v);
          } else {
            const value = allocate(layout.dtype, size);
            for (let i = 0; i < size; i++) value[i] = rand() < 0.5 ? layout.fill : 1 + Math.floor(rand() * 100);
            await set(sharded, selection, value);
            await set(plain, selection, value);
          }
          await expectSame(sharded, plain, randomSelection(shape, rand, false).selection);
        }
        const all = await get(plain);
        await expectSame(sharded, plain);
        checkEmptyInnerChunks(layout, store, shape, all.data);
        const reopened = await openArray(view, "s", { registry: registryWith() });
        await expectSame(reopened, plain);
      }),
      { numRuns: 40 },
    );
  });
});
