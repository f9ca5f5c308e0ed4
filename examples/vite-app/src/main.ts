// The app: opens a 2-D float array over HTTP, reads it tile by tile with a pool of module
// Web Workers decoding the zstd chunks, and draws the tiles on a canvas with a colour ramp.
// It reports its progress on <body> (data-state, data-worker-calls…) for people and tests.
import { zstd } from "@zarr/codec-zstd";
import { createRegistry, get, openArray, slice } from "@zarr/core";
import { createWorkerPool } from "@zarr/core/workers";
import type { WorkerPool } from "@zarr/spec";
import { HttpStore } from "@zarr/store-http";
import { tilePixels, valueRange } from "./ramp.js";

/** Tiles span whole chunks (workers take only whole chunks) and about this many pixels. */
const TILE_TARGET = 256;

const params = new URLSearchParams(location.search);
const storeUrl = new URL(params.get("url") ?? "/data/", location.href).href;
const arrayPath = params.get("array") ?? "field";
const body = document.body;
const status = document.getElementById("status") as HTMLElement;
const canvas = document.getElementById("map") as HTMLCanvasElement;

/** A pool that counts the calls it ran, so the page can show that the workers did the work. */
function countingPool(pool: WorkerPool): WorkerPool & { calls(): number } {
  let calls = 0;
  return {
    size: pool.size,
    run(moduleUrl, exportName, args, transfer) {
      calls++;
      return pool.run(moduleUrl, exportName, args, transfer);
    },
    close: () => pool.close(),
    calls: () => calls,
  };
}

async function main(): Promise<void> {
  const pool = countingPool(
    createWorkerPool({
      size: Math.min(4, navigator.hardwareConcurrency || 2),
      createWorker: () => new Worker(new URL("./zarr-worker.ts", import.meta.url), { type: "module" }),
    }),
  );
  try {
    const arr = await openArray(new HttpStore(storeUrl), arrayPath, { registry: createRegistry([zstd]) });
    if (arr.shape.length !== 2) throw new Error(`${arrayPath} has ${arr.shape.length} dimensions; this app draws 2-D arrays`);
    const [height, width] = arr.shape;
    const tile = arr.chunkGrid.chunkShape([0, 0]).map((c: number) => c * Math.max(1, Math.floor(TILE_TARGET / c)));
    const tiles: { row: number; col: number; h: number; w: number }[] = [];
    for (let row = 0; row < height; row += tile[0])
      for (let col = 0; col < width; col += tile[1]) tiles.push({ row, col, h: Math.min(tile[0], height - row), w: Math.min(tile[1], width - col) });
    status.textContent = `reading ${tiles.length} tiles of ${arrayPath} (${height}×${width}) with ${pool.size} workers…`;
    // All tiles at once: the pool keeps every worker busy with their chunks.
    const values = await Promise.all(
      tiles.map(async (t) => (await get(arr, [slice(t.row, t.row + t.h), slice(t.col, t.col + t.w)], { workers: pool })).data as ArrayLike<number>),
    );
    const range = valueRange(values);
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext("2d") as CanvasRenderingContext2D;
    for (const [i, t] of tiles.entries()) ctx.putImageData(tilePixels(values[i], t.w, t.h, range), t.col, t.row);
    Object.assign(body.dataset, {
      tiles: String(tiles.length),
      workers: String(pool.size),
      workerCalls: String(pool.calls()),
      isolated: String(crossOriginIsolated),
      min: String(range.min),
      max: String(range.max),
      state: "ready",
    });
    status.textContent = `${tiles.length} tiles, values ${range.min.toPrecision(4)} … ${range.max.toPrecision(4)}, ${pool.calls()} chunks decoded in workers${crossOriginIsolated ? "" : " (page not cross-origin isolated: read on the main thread)"}`;
  } finally {
    await pool.close();
  }
}

main().catch((error: unknown) => {
  body.dataset.state = "error";
  status.textContent = `failed: ${error instanceof Error ? error.message : String(error)}`;
  console.error(error);
});
