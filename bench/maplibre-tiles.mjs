#!/usr/bin/env node
// Tile benchmark for @zarr/maplibre (issue 25's target): a 256×256 Web Mercator tile from a
// 3-level GeoZarr pyramid (2048², 1024², 512²) of float32 with 512×512 chunks (gzip), served
// over HTTP with 20 ms added to every request by a server in a child process (so that this
// process's CPU time is the client's alone), read with HttpStore over nodeFetch (its Node.js
// transport; a browser's fetch does its network work off the page's threads).
//
// Each tile is read cold (chunk cache emptied first) the way geozarrProtocol does it:
// `readTileInput` (fetch the chunks, decode them, copy the tile's window out of the chunk
// cache), then `paintTile` of @zarr/maplibre/tile-task in a pool of 2 worker threads
// (reprojection, sampling, colouring). Two ways, taking turns tile by tile:
//   - decode in pool: `readTileInput(…, { workers })`, the cache's misses decoded by the
//     pool's `decodeChunk` (what the protocol does now);
//   - decode here: `readTileInput` without workers (what it did before: decoding on the
//     calling thread; node:zlib inflates asynchronously on libuv's thread pool, so in Node
//     this shows up as "other threads", where a browser would spend it on the main thread).
// Per tile: requests and round trips after the metadata (a round trip is one wave of
// requests that start after the previous wave's answers, from the client's fetch
// timestamps), wall time, and CPU time per thread (Linux /proc/self/task/*/schedstat, in ns):
// the main thread, the pool's two worker threads (decode, paint), and the rest of the
// process (V8's GC and compiler threads, libuv's thread pool); medians over the tiles. The
// same tile's neighbour (the tile to its east, chunk cache kept) shows what a cache hit costs.
// Paint CPU is for the default interpolated reprojection; "exact" reprojects every pixel.
// Datasets: EPSG:4326 (the built-in route) and UTM 33N (proj4).
//
//   node bench/maplibre-tiles.mjs [--latency 20] [--reps 5]
//   node bench/maplibre-tiles.mjs --quick      one tile per zoom (alias: --smoke)
//
// Targets (issue 25): ≤ 2 round trips after the metadata, ≤ 30 ms of CPU in a worker per tile.
import { fork } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { dirname, join } from "node:path";
import { gunzip, gzipSync } from "node:zlib";
import { main, parseArgs, reps as repsOf, requireBuilt } from "./lib/common.mjs";
import { dataRoot } from "./lib/data.mjs";
import { median } from "./lib/measure.mjs";
import { Report } from "./lib/output.mjs";
import { haveThreadCpu, processCpuMs, threadCpuMs, threadIds } from "./lib/thread-cpu.mjs";

const TASK = new URL("./lib/maplibre-tile-task.mjs", import.meta.url).href;
const N = 2048;
const DATASETS = {
  "EPSG:4326": { transform: [0.005, 0, 10, 0, -0.005, 48], lon: 15.1, lat: 43.1 },
  "EPSG:32633": { transform: [50, 0, 450000, 0, -50, 5000000], lon: 15.0, lat: 44.7 },
};

if (process.argv[2] === "--serve") {
  // The child: a static server over the pyramids' directory until the parent disconnects.
  const { startFileServer } = await import("./lib/http-server.mjs");
  const server = await startFileServer({ mounts: { "/": process.argv[3] }, latency: Number(process.argv[4]) });
  process.send(server.url);
  process.once("disconnect", () => server.close().then(() => process.exit(0)));
} else {
  await main(run);
}

/** Depth of the request chain: a request starting after another's answer is one wave later. */
function roundTrips(requests) {
  const sorted = requests.slice().sort((a, b) => a.start - b.start);
  const wave = [];
  for (let i = 0; i < sorted.length; i++) {
    let w = 1;
    for (let q = 0; q < i; q++) if (sorted[q].end <= sorted[i].start) w = Math.max(w, wave[q] + 1);
    wave.push(w);
  }
  return wave.length === 0 ? 0 : Math.max(...wave);
}

function tileAt(z, lon, lat) {
  const n = 2 ** z;
  const phi = (lat * Math.PI) / 180;
  return { z, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * n) };
}

/** Writes the 3-level pyramids (one per CRS) as files under `dir`. */
async function makeData(dir) {
  const { createArray, MemoryStore, set } = await import("@zarr/all");
  const { buildPyramid, createDataset } = await import("@zarr/geozarr");
  rmSync(dir, { recursive: true, force: true });
  for (const [code, d] of Object.entries(DATASETS)) {
    const src = new MemoryStore();
    await createDataset(src, "", { crs: { code }, spatial: { dimensions: ["y", "x"], transform: d.transform, shape: [N, N] } });
    const band = await createArray(src, "v", { shape: [N, N], chunkShape: [512, 512], dataType: "float32", dimensionNames: ["y", "x"], fillValue: Number.NaN });
    await set(band, null, Float32Array.from({ length: N * N }, (_, i) => Math.sin(i / 3000) * 50 + (i % N) / 40));
    const pyramid = new MemoryStore();
    await buildPyramid(src, pyramid, { factors: 2, minSize: 512, chunkShape: [512, 512], codecs: ["bytes", "gzip"] });
    for (const [key, bytes] of pyramid.map) {
      const file = join(dir, code.replace(":", "-"), key);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bytes);
    }
  }
}

/** CPU so far: main thread, the pool's threads, the whole process (ms). */
function cpuNow(workerTids) {
  return { main: threadCpuMs([process.pid]), workers: threadCpuMs(workerTids), all: processCpuMs() };
}

function cpuSince(a, b) {
  const main = b.main - a.main;
  const workers = b.workers - a.workers;
  return { main, workers, other: Math.max(0, b.all - a.all - main - workers) };
}

async function run() {
  requireBuilt();
  const args = parseArgs();
  const latency = args.number("--latency", 20);
  const reps = repsOf(args, 5);
  const report = new Report({ script: import.meta.filename, title: "Map tiles from a GeoZarr pyramid over HTTP (`maplibre-tiles.mjs`)", args });
  const dir = join(dataRoot(), "maplibre-tiles");
  await makeData(dir);
  const child = fork(import.meta.filename, ["--serve", dir, String(latency)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const [url] = await once(child, "message");

  const { HttpStore } = await import("@zarr/store-http");
  const { nodeFetch } = await import("@zarr/store-http/node");
  const { createChunkCache } = await import("@zarr/all");
  const { createWorkerPool } = await import("@zarr/all/workers");
  const { loadHierarchy } = await import("@zarr/geozarr");
  const { proj4Reprojector } = await import("@zarr/geozarr/proj4");
  const maplibre = await import("../packages/maplibre/dist/index.js");
  const { createRequire } = await import("node:module");
  const proj4 = createRequire(new URL("../packages/maplibre/package.json", import.meta.url))("proj4");

  // libuv's thread pool starts before the worker pool, so that the threads new after the
  // pool starts are its workers.
  await Promise.all([promisify(gunzip)(gzipSync(new Uint8Array(1 << 16))), import("node:fs/promises").then((fs) => fs.stat(dir))]);
  const before = new Set(threadIds());
  const workers = createWorkerPool({ size: 2 });
  await Promise.all([0, 1, 2, 3].map(() => workers.run(TASK, "paintTile", [undefined, undefined]).catch(() => undefined)));
  const workerTids = threadIds().filter((t) => !before.has(t));

  const rows = [];
  const worst = { trips: 0, workerCpu: 0 };
  try {
    for (const [code, d] of Object.entries(DATASETS)) {
      const log = [];
      const fetchLogged = async (input, init) => {
        const entry = { start: performance.now(), end: Number.POSITIVE_INFINITY };
        log.push(entry);
        try {
          return await nodeFetch(input, init);
        } finally {
          entry.end = performance.now();
        }
      };
      const store = new HttpStore(`${url}${code.replace(":", "-")}/`, { fetch: fetchLogged });
      const h = await loadHierarchy(store);
      const reprojector = code === "EPSG:4326" ? undefined : proj4Reprojector(proj4);
      const chunkCache = createChunkCache({ maxBytes: 64 << 20 });
      const source = await maplibre.openTileSource(h, { reprojector, range: [-50, 100], chunkCache });
      const paint = { range: source.range, table: maplibre.colormapTable("viridis") };
      const modes = { "in pool": { workers }, "here (before)": {} };

      /** One tile as geozarrProtocol renders it, phase by phase. */
      const measure = async (tile, readOptions, exact) => {
        log.length = 0;
        const t0 = performance.now();
        const c0 = cpuNow(workerTids);
        const input = await maplibre.readTileInput(source, tile, readOptions);
        if (input === undefined) return undefined; // a neighbour outside the data at low zoom
        const c1 = cpuNow(workerTids);
        const requests = log.length;
        const trips = roundTrips(log);
        const data = input.data;
        const owned = data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
        await workers.run(TASK, "paintTile", [input, paint], owned ? [data.buffer] : []);
        const c2 = cpuNow(workerTids);
        const wall = performance.now() - t0;
        const out = { level: input.level, requests, trips, wall, read: cpuSince(c0, c1), paint: cpuSince(c1, c2) };
        if (exact) {
          const again = await maplibre.readTileInput(source, tile, readOptions);
          const c3 = cpuNow(workerTids);
          await workers.run(TASK, "paintTile", [again, { ...paint, reprojectionError: 0 }]);
          out.exact = cpuSince(c3, cpuNow(workerTids)).workers;
        }
        return out;
      };

      // One tile per way first, uncounted: compiles the code paths (JIT) as a running app has.
      for (const options of Object.values(modes)) {
        chunkCache.clear();
        await measure(tileAt(10, d.lon, d.lat), options, false);
      }
      for (const z of [8, 9, 10]) {
        const byMode = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
        for (let k = 0; k < reps; k++) {
          const base = tileAt(z, d.lon, d.lat);
          const tile = { z, x: base.x + (k % 2), y: base.y + ((k >> 1) % 2) };
          for (const [mode, options] of Object.entries(modes)) {
            chunkCache.clear();
            const cold = await measure(tile, options, mode === "in pool");
            if (cold === undefined) continue;
            const neighbour = await measure({ ...tile, x: tile.x + 1 }, options, false);
            byMode[mode].push({ ...cold, neighbour });
          }
        }
        for (const [mode, rs] of Object.entries(byMode)) {
          if (rs.length === 0) continue;
          const med = (f) => median(rs.map(f).filter(Number.isFinite));
          const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : "–");
          const workerCpu = med((r) => r.read.workers + r.paint.workers);
          if (mode === "in pool") {
            worst.trips = Math.max(worst.trips, ...rs.map((r) => r.trips));
            worst.workerCpu = Math.max(worst.workerCpu, workerCpu);
          }
          rows.push([
            code,
            String(z),
            [...new Set(rs.map((r) => r.level))].join(","),
            mode,
            String(med((r) => r.requests)),
            String(Math.max(...rs.map((r) => r.trips))),
            ms(med((r) => r.wall)),
            ms(med((r) => r.read.main + r.paint.main)),
            ms(med((r) => r.read.workers)),
            ms(med((r) => r.paint.workers)),
            ms(med((r) => r.read.other + r.paint.other)),
            ms(med((r) => r.exact)),
            String(med((r) => r.neighbour?.requests)),
            ms(med((r) => (r.neighbour === undefined ? Number.NaN : r.neighbour.read.main + r.neighbour.paint.main))),
          ]);
        }
      }
    }
  } finally {
    await workers.close();
    child.disconnect();
    await once(child, "exit");
  }
  report.line(`3-level pyramids (${N}², ${N / 2}², ${N / 4}²) of float32, 512×512 chunks, gzip; HTTP with ${latency} ms per request from a server in a child process`);
  report.line(`${reps} tiles per zoom (median), each cold (chunk cache emptied); a pool of 2 worker threads paints every tile; CPU per thread from /proc/self/task/*/schedstat${haveThreadCpu ? "" : " (not available here: CPU columns are 0)"}`);
  report.table(
    "Per tile",
    ["dataset", "zoom", "level", "decode", "requests", "round trips", "wall ms", "main CPU ms", "worker decode ms", "worker paint ms", "other threads ms", "exact paint ms", "neighbour requests", "neighbour main ms"],
    rows,
    ["l", "r", "r", "l", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r"],
  );
  report.target({ name: "round trips after the metadata (worst tile, decode in pool)", value: worst.trips, op: "≤", limit: 2, unit: "n" });
  report.target({ name: "worker CPU ms per tile, decode + paint (worst zoom's median)", value: Math.round(worst.workerCpu * 10) / 10, op: "≤", limit: 30, unit: "ms" });
  report.note("main CPU: the calling thread (fetch, the window copy out of the chunk cache, dispatching to the pool); worker decode/paint: the pool's two threads during readTileInput and during paintTile; other threads: the rest of the process (V8's GC and compiler threads; libuv's thread pool, where node:zlib inflates when the calling thread decodes).");
  report.note("On a machine shared with other jobs, CPU time is steadier than wall time; worker CPU includes structured-clone and message handling of the calls.");
  report.finish();
}
