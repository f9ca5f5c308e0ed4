/**
 * Reads as a stream of chunk tasks: the plan's projections are lazy (the same chunks as the
 * eager projection, in constant memory), and a store that lists its keys cheaply lets the
 * executor answer missing chunks without asking for them, with exact results, fill values
 * in place, progress, aborts and the concurrency bound as before.
 */
import {
  chunkProjections,
  type DimChunkProjection,
  projectDimension as eagerPoints,
  projectRange,
  type ReadIntoRange,
  type StoreRequestOptions,
} from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LISTING_MIN_TASKS } from "../src/engine/executor.js";
import { createArray, get, MemoryStore, type Selection, set, slice } from "../src/index.js";
import { plan } from "../src/plan.js";
import type { ResolvedDim } from "../src/selection.js";
import { gridFor, selectionFor } from "./orthogonal-model.js";

/** The eager projection of one resolved dimension: every chunk's projection in a list. */
function eager(r: ResolvedDim, part: Parameters<typeof projectRange>[1], length: number): DimChunkProjection[] {
  if (r.kind === "int") return projectRange({ start: r.index, step: 1, count: 1 }, part, length);
  if (r.kind === "range") return projectRange(r, part, length);
  return eagerPoints({ indices: r.indices }, part, length);
}

describe("the plan of a read", () => {
  it("streams the chunks the eager projection lists, in the same order (random shapes, grids, selections)", async () => {
    const cases = fc
      .array(fc.integer({ min: 0, max: 7 }), { minLength: 0, maxLength: 3 })
      .chain((shape) => fc.record({ shape: fc.constant(shape), grid: gridFor(shape), sel: selectionFor(shape) }));
    await fc.assert(
      fc.asyncProperty(cases, async ({ shape, grid, sel }) => {
        const arr = await createArray(new MemoryStore(), "a", {
          shape,
          ...("regular" in grid ? { chunkShape: grid.regular } : { chunkShapes: grid.rectilinear }),
          dataType: "int32",
        });
        const p = await plan(arr, sel as Selection);
        const perDim = p.resolved.map((r, d) => eager(r, arr.chunkGrid.dims[d], arr.shape[d]));
        const want = [...chunkProjections(perDim, "F")];
        expect([...p.projections()]).toEqual(want);
        expect(p.total).toBe(want.length);
      }),
      { numRuns: 1500 },
    );
  });

  it("holds no per-chunk state: a plan over 10^15 chunks is made at once and streams its first chunks", async () => {
    const arr = await createArray(new MemoryStore(), "a", { shape: [1e15], chunkShape: [1], dataType: "uint8" });
    const p = await plan(arr, [slice(null, null, -2)]);
    expect(p.total).toBe(5e14);
    const it = p.projections();
    expect(it.next().value).toMatchObject({ coords: [1e15 - 1], dst: [{ start: 0, step: 1, count: 1 }] });
    expect(it.next().value).toMatchObject({ coords: [1e15 - 3], dst: [{ start: 1, step: 1, count: 1 }] });
  });
});

/** A MemoryStore that lists its keys cheaply (as FileSystemStore does), counting chunk reads and those in flight. */
class ListingStore extends MemoryStore {
  reads = 0;
  listings = 0;
  inFlight = 0;
  mostInFlight = 0;
  /** Milliseconds each chunk read takes. */
  delay = 0;
  /** What the next listings answer: the keys, `undefined` (cannot list), or a failure. */
  listing: "keys" | "undefined" | "fail" = "keys";
  async #counted<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (key.endsWith("zarr.json")) return read();
    this.reads++;
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    try {
      if (this.delay > 0) await new Promise((r) => setTimeout(r, this.delay));
      return await read();
    } finally {
      this.inFlight--;
    }
  }
  override get(key: string, options?: StoreRequestOptions) {
    return this.#counted(key, () => super.get(key, options));
  }
  override readInto(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions) {
    return this.#counted(key, () => super.readInto(key, ranges, options));
  }
  async listStoredKeys(prefix: string, limit: number): Promise<string[] | undefined> {
    this.listings++;
    if (this.listing === "fail") throw new Error("listing failed");
    if (this.listing === "undefined") return undefined;
    const keys = [...this.map.keys()].filter((k) => k.startsWith(prefix));
    return keys.length > limit ? undefined : keys;
  }
}

const N = 4 * LISTING_MIN_TASKS;

/** An array of N chunks of 2 elements with a few chunks written: `present` holds their indices. */
async function sparse(fillValue: number, present: number[]) {
  const store = new ListingStore();
  const arr = await createArray(store, "a", { shape: [2 * N - 1], chunkShape: [2], dataType: "float64", fillValue });
  for (const c of present) await set(arr, [slice(2 * c, Math.min(2 * c + 2, 2 * N - 1))], c + 0.5);
  store.reads = 0;
  return { store, arr };
}

/** What a whole read of `sparse` must give. */
function expected(fillValue: number, present: number[]): Float64Array {
  const want = new Float64Array(2 * N - 1).fill(fillValue);
  for (const c of present) want.fill(c + 0.5, 2 * c, Math.min(2 * c + 2, 2 * N - 1));
  return want;
}

describe("a read of many mostly missing chunks", () => {
  const present = [0, 7, 8190, 8191, 20000, N - 1];

  for (const fill of [Number.NaN, -3, 0]) {
    it(`gives exact values, fill ${fill} elsewhere, and reads only the stored chunks`, async () => {
      const { store, arr } = await sparse(fill, present);
      const got = await get(arr, null);
      expect(got.data).toEqual(expected(fill, present));
      // One listing, one read per stored chunk, none for the missing ones.
      expect(store.listings).toBe(1);
      expect(store.reads).toBe(present.length);
    });
  }

  it("reads key by key when the store cannot list, or its listing fails, with the same result", async () => {
    for (const listing of ["undefined", "fail"] as const) {
      const { store, arr } = await sparse(Number.NaN, present);
      store.listing = listing;
      expect((await get(arr, null)).data).toEqual(expected(Number.NaN, present));
      expect(store.reads).toBe(N);
    }
  });

  it("does not list for a read of fewer chunks than the threshold", async () => {
    const { store, arr } = await sparse(1, present);
    const got = await get(arr, [slice(0, 2 * (LISTING_MIN_TASKS - 1))]);
    expect(got.data).toEqual(expected(1, present).subarray(0, 2 * (LISTING_MIN_TASKS - 1)));
    expect(store.listings).toBe(0);
  });

  it("selections with steps and index lists land stored values and fill values in place", async () => {
    const { arr } = await sparse(-1, present);
    const all = expected(-1, present);
    const back = await get(arr, [slice(null, null, -3)]);
    const wantBack = Float64Array.from({ length: Math.ceil(all.length / 3) }, (_, i) => all[all.length - 1 - 3 * i]);
    expect(back.data).toEqual(wantBack);
    const idx = [2 * N - 2, 14, 0, 15, 3, 40000];
    expect((await get(arr, [idx])).data).toEqual(Float64Array.from(idx, (i) => all[i]));
  });

  it("reports progress for every chunk, up to the total", async () => {
    const { arr } = await sparse(0, present);
    const seen: number[] = [];
    let total = 0;
    await get(arr, null, {
      onProgress: (p) => {
        seen.push(p.done);
        total = p.total;
      },
    });
    expect(total).toBe(N);
    expect(seen.length).toBe(N);
    expect(seen.every((d, i) => d === i + 1)).toBe(true);
  });

  it("stops mid-stream on an abort, even when every chunk is answered without a request", async () => {
    const store = new ListingStore();
    // 10^12 chunks, none stored: the read would run for days.
    const arr = await createArray(store, "a", { shape: [1e12], chunkShape: [1], dataType: "uint8" });
    const controller = new AbortController();
    let done = 0;
    const read = get(arr, [slice(0, 1e8)], {
      signal: controller.signal,
      onProgress: (p) => {
        done = p.done;
        if (p.done === 50_000) setTimeout(() => controller.abort(), 0);
      },
    });
    await expect(read).rejects.toMatchObject({ code: "ABORTED" });
    expect(done).toBeGreaterThanOrEqual(50_000);
    expect(done).toBeLessThan(1e8);
  });

  it("keeps at most `concurrency` stored chunks in flight", async () => {
    const many = Array.from({ length: 300 }, (_, i) => i * 100);
    const { store, arr } = await sparse(0, many);
    store.delay = 1;
    expect((await get(arr, null, { concurrency: 3 })).data).toEqual(expected(0, many));
    expect(store.mostInFlight).toBe(3);
  });
});
