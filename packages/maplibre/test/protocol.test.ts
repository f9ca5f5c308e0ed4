/**
 * The MapLibre protocol handler in Node: the same pixels as renderTile, on the calling
 * thread and in a pool of worker threads (core's pool running the tile task), shared
 * chunk reads between neighbouring tiles, cancellation, coded errors.
 */
import { pathToFileURL } from "node:url";
import { gzip } from "@zarr/codec-gzip";
import { createArray, createChunkCache, createRegistry, MemoryStore, set } from "@zarr/core";
import { createWorkerPool } from "@zarr/core/workers";
import { proj4Reprojector } from "@zarr/geozarr/proj4";
import type { WorkerPool } from "@zarr/spec";
import proj4 from "proj4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geozarrProtocol, openTileSource, parseTileUrl, renderTile, type TileSource } from "../src/index.js";
import { countingStore, lonLatDataset } from "./helpers.js";

/** A pool counting its calls by export (`decodeChunk` of core's engine task, `paintTile`). */
function watched(inner: WorkerPool): WorkerPool & { calls: Record<string, number> } {
  const w = {
    size: inner.size,
    calls: {} as Record<string, number>,
    run<R>(...args: Parameters<WorkerPool["run"]>): Promise<R> {
      w.calls[args[1]] = (w.calls[args[1]] ?? 0) + 1;
      return inner.run<R>(...args);
    },
    close: () => inner.close(),
  };
  return w;
}

const registry = createRegistry([gzip]);

/** EPSG:4326 over lon [0, 40), lat (−20, 20] at 0.05°, gzip, 400 × 400 chunks (625 KiB decoded: worth a worker). */
async function gzipDataset(): Promise<MemoryStore> {
  const { createDataset } = await import("@zarr/geozarr");
  const store = new MemoryStore();
  await createDataset(store, "", { crs: { code: "EPSG:4326" }, spatial: { dimensions: ["lat", "lon"], transform: [0.05, 0, 0, 0, -0.05, 20], shape: [800, 800] } });
  const arr = await createArray(store, "v", {
    shape: [800, 800],
    chunkShape: [400, 400],
    dataType: "float32",
    dimensionNames: ["lat", "lon"],
    fillValue: Number.NaN,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 1 } }],
    registry,
  });
  await set(arr, null, Float32Array.from({ length: 800 * 800 }, (_, i) => (i % 800) / 2 + Math.floor(i / 800) / 10));
  return store;
}

const identity = (rgba: Uint8ClampedArray) => rgba;
const load = (p: ReturnType<typeof geozarrProtocol>, url: string, controller = new AbortController()) =>
  p({ url }, controller).then((r) => r.data as Uint8ClampedArray);

describe("geozarrProtocol", () => {
  let workers: WorkerPool;
  let source: TileSource;
  beforeAll(async () => {
    workers = createWorkerPool({ size: 2 });
    source = await openTileSource(await lonLatDataset(), { range: [0, 400] });
  });
  afterAll(() => workers.close());

  it("parses tile URLs", () => {
    expect(parseTileUrl("geozarr://sst/3/4/2")).toEqual({ id: "sst", tile: { z: 3, x: 4, y: 2 } });
    expect(parseTileUrl("geozarr://a%20b/0/0/0.png?t=1")).toEqual({ id: "a b", tile: { z: 0, x: 0, y: 0 } });
    expect(() => parseTileUrl("https://x/3/4/2")).toThrow(/Not a GeoZarr tile URL/);
  });

  it("answers with renderTile's pixels, on this thread and in worker threads", async () => {
    const expected = await renderTile(source, { z: 5, x: 16, y: 15 }, { colormap: "magma" });
    expect(expected.some((b) => b !== 0)).toBe(true);
    const here = geozarrProtocol({ datasets: { v: { source, colormap: "magma" } }, toImage: identity });
    expect(await load(here, "geozarr://v/5/16/15")).toEqual(expected);
    const pooled = geozarrProtocol({
      datasets: { v: { source, colormap: "magma" } },
      workers,
      taskModule: new URL("../dist/tile-task.js", import.meta.url).href,
      toImage: identity,
    });
    expect(await load(pooled, "geozarr://v/5/16/15")).toEqual(expected);
    expect(pooled.painted).toBe(1);
  });

  it("paints UTM data in workers with the reprojector their task module set", async () => {
    const { MemoryStore, createArray, set } = await import("@zarr/core");
    const { createDataset } = await import("@zarr/geozarr");
    const store = new MemoryStore();
    await createDataset(store, "", { crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: [100, 0, 450000, 0, -100, 5000000], shape: [256, 256] } });
    const arr = await createArray(store, "b", { shape: [256, 256], chunkShape: [128, 128], dataType: "uint16", dimensionNames: ["y", "x"] });
    await set(arr, null, Uint16Array.from({ length: 65536 }, (_, k) => k % 256));
    const utm = await openTileSource(store, { reprojector: proj4Reprojector(proj4) });
    const expected = await renderTile(utm, { z: 9, x: 276, y: 184 });
    expect(expected.filter((_, k) => k % 4 === 3 && expected[k] === 255).length).toBeGreaterThan(1000);
    const pooled = geozarrProtocol({ datasets: { utm: { source: utm } }, workers, taskModule: pathToFileURL(`${import.meta.dirname}/workers/utm-task.mjs`).href, toImage: identity });
    expect(await load(pooled, "geozarr://utm/9/276/184")).toEqual(expected);
  });

  it("shares chunk reads between neighbouring tiles through the source's chunk cache", async () => {
    const store = countingStore(await lonLatDataset());
    const cached = await openTileSource(store, { range: [0, 400], chunkCache: createChunkCache({ maxBytes: 16 * 1024 * 1024 }) });
    const p = geozarrProtocol({ datasets: { v: { source: cached } }, toImage: identity });
    await load(p, "geozarr://v/7/67/62");
    const first = store.chunkReads.splice(0);
    expect(first.length).toBeGreaterThan(0);
    await load(p, "geozarr://v/7/67/63"); // the tile below: same chunks
    expect(store.chunkReads).toEqual([]);
    expect(cached.chunkCache?.hits).toBeGreaterThan(0);
    // Without a cache, the same tile reads its chunks again.
    const uncached = await openTileSource(store, { range: [0, 400], chunkCache: false });
    const q = geozarrProtocol({ datasets: { v: { source: uncached } }, toImage: identity });
    const before = store.chunkReads.length;
    await load(q, "geozarr://v/7/67/63");
    expect(store.chunkReads.length).toBeGreaterThan(before);
  });

  it("decodes a tile's chunks in the pool and paints it there; neighbours reuse the decoded chunks", async () => {
    const store = countingStore(await gzipDataset());
    const gz = await openTileSource(store, { range: [0, 400], registry, chunkCache: createChunkCache({ maxBytes: 16 * 1024 * 1024 }) });
    const expected = await renderTile(await openTileSource(store, { range: [0, 400], registry, chunkCache: false }), { z: 6, x: 33, y: 30 });
    const pool = watched(workers);
    const p = geozarrProtocol({ datasets: { v: { source: gz } }, workers: pool, taskModule: new URL("../dist/tile-task.js", import.meta.url).href, toImage: identity });
    store.chunkReads.length = 0;
    expect(await load(p, "geozarr://v/6/33/30")).toEqual(expected);
    const decoded = pool.calls.decodeChunk;
    expect(decoded).toBe(store.chunkReads.length); // every chunk read was decoded in a worker
    expect(decoded).toBeGreaterThan(0);
    expect(pool.calls.paintTile).toBe(1);
    await load(p, "geozarr://v/6/33/31"); // the tile below: its chunk is cached, decoded
    expect(pool.calls.decodeChunk).toBe(decoded);
    expect(pool.calls.paintTile).toBe(2);
  });

  it("stops an aborted tile's chunk reads before any worker call", async () => {
    const inner = await gzipDataset();
    let reads = 0;
    let finished = 0;
    const slow = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop !== "get") return Reflect.get(target, prop, receiver);
        return async (key: string, options?: { signal?: AbortSignal }) => {
          if (key.endsWith("zarr.json")) return target.get(key, options);
          reads++;
          await new Promise((r) => setTimeout(r, 100));
          if (options?.signal?.aborted) return undefined; // ignored: the read is cancelled
          finished++;
          return target.get(key, options);
        };
      },
    });
    const gz = await openTileSource(slow, { range: [0, 400], registry });
    const pool = watched(workers);
    const p = geozarrProtocol({ datasets: { v: { source: gz } }, workers: pool, taskModule: new URL("../dist/tile-task.js", import.meta.url).href, toImage: identity });
    const controller = new AbortController();
    const pending = load(p, "geozarr://v/6/33/31", controller);
    await new Promise((r) => setTimeout(r, 30));
    expect(reads).toBeGreaterThan(0);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    await new Promise((r) => setTimeout(r, 150));
    expect(pool.calls).toEqual({});
    expect(finished).toBe(0);
    expect(gz.chunkCache?.entries).toBe(0);
  });

  it("stops when MapLibre aborts, and reports unknown datasets with a code", async () => {
    const p = geozarrProtocol({ datasets: { v: { source } }, workers, taskModule: new URL("../dist/tile-task.js", import.meta.url).href, toImage: identity });
    const controller = new AbortController();
    const pending = load(p, "geozarr://v/6/33/31", controller);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
    expect(p.painted).toBe(0);
    await expect(load(p, "geozarr://nope/0/0/0")).rejects.toMatchObject({ code: "NODE_NOT_FOUND", message: expect.stringContaining('"nope"') });
    p.set("w", { source, colormap: "rdbu" });
    expect((await load(p, "geozarr://w/6/33/31")).length).toBe(256 * 256 * 4);
    p.delete("w");
    await expect(load(p, "geozarr://w/6/33/31")).rejects.toMatchObject({ code: "NODE_NOT_FOUND" });
  });
});
