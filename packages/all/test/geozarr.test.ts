/**
 * Importing @zarr/all makes its codecs the default everywhere: GeoZarr data written here
 * (zstd, @zarr/all's default codec, which @zarr/core alone does not have) is read by every
 * @zarr/geozarr helper given just the store, without a registry.
 */
import {
  buildPyramid,
  createDataset,
  describeMultiscales,
  loadHierarchy,
  migrate,
  readBbox,
  validate,
} from "@zarr/geozarr";
import { describe, expect, it } from "vitest";
import { createArray, createGroup, defaultRegistry, get, MemoryStore, openArray, registry, set, type WorkerPool } from "../src/index.js";

const H = 40;
const W = 60;
const TRANSFORM = [10, 0, 500000, 0, -10, 5000000] as const;

async function zstdDataset(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await createDataset(store, "", { crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: TRANSFORM, shape: [H, W] } });
  const band = await createArray(store, "b04", { shape: [H, W], chunkShape: [16, 16], dataType: "uint16", dimensionNames: ["y", "x"], fillValue: 0 });
  await set(band, null, Uint16Array.from({ length: H * W }, (_, i) => (i % 1000) + 1));
  return store;
}

describe("@zarr/geozarr helpers read @zarr/all's zstd data without a registry", () => {
  it("core's defaultRegistry holds every codec of @zarr/all once it is imported", () => {
    for (const entry of registry.list()) expect(defaultRegistry.has(entry.type as "codec", entry.name), entry.name).toBe(true);
  });

  it("loadHierarchy, validate, readBbox, buildPyramid, describeMultiscales and a pyramid level read back", async () => {
    const store = await zstdDataset();
    const codecs = (await openArray(store, "b04")).metadata.codecs.map((c) => c.name);
    expect(codecs).toContain("zstd");

    const h = await loadHierarchy(store);
    expect(h.node("b04")?.dimensionNames).toEqual(["y", "x"]);
    expect((await validate(store)).findings.filter((f) => f.severity === "error")).toEqual([]);

    const box = await readBbox(store, { variable: "b04", bbox: [500000, 4999800, 500030, 5000000] });
    expect(box.shape).toEqual([20, 3]);
    expect(Array.from(box.data as Uint16Array).slice(0, 3)).toEqual([1, 2, 3]);

    const target = new MemoryStore();
    const result = await buildPyramid(store, target, { minSize: 10, chunkShape: [16, 16] });
    expect(result.levels.map((l) => l.shape)).toEqual([
      [40, 60],
      [20, 30],
      [10, 15],
    ]);
    expect((await openArray(target, "1/b04")).metadata.codecs.map((c) => c.name)).toContain("zstd");
    const levels = describeMultiscales(await loadHierarchy(target)).levels;
    expect(levels.map((l) => l.asset)).toEqual(["0", "1", "2"]);
    const coarse = await readBbox(target, { variable: "b04", level: 2, bbox: [500000, 4999960, 500040, 5000000] });
    expect(coarse.shape).toEqual([1, 1]);
    // The average of the 4×4 top-left block of level 0: rows 0-3, columns 0-3 → (1..4, 61..64, 121..124, 181..184).
    expect(Array.from(coarse.data as Uint16Array)).toEqual([Math.round((2.5 + 62.5 + 122.5 + 182.5) / 4)]);
  });

  it("migrate reads zstd coordinate arrays to derive the transform", async () => {
    const store = new MemoryStore();
    await createGroup(store, "", { attributes: { "proj:code": "EPSG:32633" } });
    for (const [name, n, f] of [
      ["y", H, (i: number) => 5000000 - 10 * (i + 0.5)],
      ["x", W, (j: number) => 500000 + 10 * (j + 0.5)],
    ] as const) {
      const c = await createArray(store, name, { shape: [n], dataType: "float64", dimensionNames: [name] });
      await set(c, null, Float64Array.from({ length: n }, (_, i) => f(i)));
    }
    const band = await createArray(store, "b04", { shape: [H, W], chunkShape: [16, 16], dataType: "uint16", dimensionNames: ["y", "x"] });
    await set(band, null, new Uint16Array(H * W).fill(7));
    expect((await openArray(store, "x")).metadata.codecs.map((c) => c.name)).toContain("zstd");
    const report = await migrate(store);
    expect(report.changes.length).toBeGreaterThan(0);
    const after = await loadHierarchy(store);
    const attrs = after.root?.attributes ?? {};
    expect(attrs["spatial:transform"]).toEqual([...TRANSFORM]);
    expect((await get(await openArray(store, "b04"), null)).data[0]).toBe(7);
  });
});

describe("buildPyramid with a worker pool", () => {
  it("decodes and encodes chunks on the pool and writes the same bytes as without it", async () => {
    const { createWorkerPool } = await import("../src/workers.js");
    const pool = createWorkerPool({ size: 2 });
    try {
      const n = 512;
      const source = new MemoryStore();
      await createDataset(source, "", { crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: TRANSFORM, shape: [n, n] } });
      // 256×256 float32 zstd chunks (256 KiB): worth a worker.
      const band = await createArray(source, "b04", { shape: [n, n], chunkShape: [256, 256], dataType: "float32", dimensionNames: ["y", "x"], fillValue: 0 });
      await set(band, null, Float32Array.from({ length: n * n }, (_, i) => Math.sin(i / 97) * 1000 + (i % 13)));
      let calls = 0;
      const counting: WorkerPool = {
        size: pool.size,
        run<R>(moduleUrl: string, exportName: string, args: readonly unknown[], transfer?: readonly ArrayBuffer[]): Promise<R> {
          calls++;
          return pool.run<R>(moduleUrl, exportName, args, transfer);
        },
        close: () => pool.close(),
      };
      const options = { factors: [2], minSize: 128, chunkShape: [256, 256] as [number, number], resampling: "average" as const, concurrency: 2 };
      const alone = new MemoryStore();
      const pooled = new MemoryStore();
      await buildPyramid(source, alone, options);
      await buildPyramid(source, pooled, { ...options, workers: counting });
      // Level 0 (4 chunks) and the ×2 level (1 chunk) were read and written: tasks went to the pool.
      expect(calls).toBeGreaterThanOrEqual(8);
      expect(pooled.keys()).toEqual(alone.keys());
      for (const key of alone.keys()) expect(Buffer.compare(Buffer.from((await pooled.get(key)) as Uint8Array), Buffer.from((await alone.get(key)) as Uint8Array)), key).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
