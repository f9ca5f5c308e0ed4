#!/usr/bin/env node
// Tile benchmark for @zarr/maplibre (issue 25's target): a 256×256 Web Mercator tile from a
// 3-level GeoZarr pyramid with 512×512 chunks (gzip), served over HTTP by a local server
// (in a worker thread, from memory) that adds 20 ms to every request.
//
// For each tile (chunk cache emptied before each, so every tile is a cold read):
//   - requests and round trips after the metadata: a round trip is one wave of requests
//     that start after the previous wave's answers (the longest chain of request → answer →
//     request), counted from the client's fetch timestamps;
//   - CPU of the read on the calling thread (HTTP, gzip decode, the window copy), and CPU of
//     the pixel work the worker does (`paintTile` of @zarr/maplibre/tile-task: reprojection,
//     sampling, colouring; default interpolated reprojection, and exact for comparison),
//     as process CPU time (user + system), median of the tiles.
// Datasets: EPSG:4326 (the built-in route) and UTM 33N (proj4 per pixel).
//
//   node bench/maplibre-tiles.mjs [--latency 20] [--reps 5]
// Needs the packages built (pnpm build in packages/maplibre and its dependencies).
import http from "node:http";
import { createRequire } from "node:module";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

if (!isMainThread) {
  // The stores' keys and bytes, held in memory: serving should take as little CPU as it can.
  const { files, latency } = workerData;
  const server = http.createServer(async (req, res) => {
    await new Promise((r) => setTimeout(r, latency));
    const bytes = files.get(decodeURIComponent(new URL(req.url, "http://x").pathname).slice(1));
    if (bytes === undefined) return res.writeHead(404).end();
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    if (m !== null) {
      const start = Number(m[1]);
      const end = m[2] === "" ? bytes.length - 1 : Math.min(bytes.length - 1, Number(m[2]));
      res.writeHead(206, { "Content-Range": `bytes ${start}-${end}/${bytes.length}`, "Content-Length": end - start + 1 });
      return res.end(bytes.subarray(start, end + 1));
    }
    res.writeHead(200, { "Content-Length": bytes.length }).end(bytes);
  });
  server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
} else {
  await main();
}

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}

function cpuMs(start) {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

function median(xs) {
  return xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** Depth of the request chain: a request starting after another's answer is one wave later. */
function roundTrips(requests) {
  const sorted = requests.slice().sort((a, b) => a.start - b.start);
  const wave = [];
  sorted.forEach((r, i) => {
    let w = 1;
    for (let q = 0; q < i; q++) if (sorted[q].end <= r.start) w = Math.max(w, wave[q] + 1);
    wave.push(w);
  });
  return wave.length === 0 ? 0 : Math.max(...wave);
}

async function main() {
  const latency = arg("--latency", 20);
  const reps = arg("--reps", 5);
  const { HttpStore } = await import("@zarr/store-http");
  const { createArray, createChunkCache, MemoryStore, set } = await import("@zarr/all");
  const { buildPyramid, createDataset, loadHierarchy } = await import("@zarr/geozarr");
  const { proj4Reprojector } = await import("@zarr/geozarr/proj4");
  const maplibre = await import("../packages/maplibre/dist/index.js");
  const { paintTile, setTileReprojector } = await import("../packages/maplibre/dist/tile-task.js");
  // proj4 is a dev dependency of @zarr/maplibre (the caller passes it in).
  const proj4 = createRequire(new URL("../packages/maplibre/package.json", import.meta.url))("proj4");

  const files = new Map();
  const N = 2048;
  const datasets = {
    "EPSG:4326": { transform: [0.005, 0, 10, 0, -0.005, 48], lon: 15.1, lat: 43.1 },
    "EPSG:32633": { transform: [50, 0, 450000, 0, -50, 5000000], lon: 15.0, lat: 44.7 },
  };
  {
    for (const [code, d] of Object.entries(datasets)) {
      const name = code.replace(":", "-");
      const src = new MemoryStore();
      await createDataset(src, "", { crs: { code }, spatial: { dimensions: ["y", "x"], transform: d.transform, shape: [N, N] } });
      const band = await createArray(src, "v", { shape: [N, N], chunkShape: [512, 512], dataType: "float32", dimensionNames: ["y", "x"], fillValue: Number.NaN });
      await set(band, null, Float32Array.from({ length: N * N }, (_, i) => Math.sin(i / 3000) * 50 + (i % N) / 40));
      const pyramid = new MemoryStore();
      await buildPyramid(src, pyramid, { factors: 2, minSize: 512, chunkShape: [512, 512], codecs: ["bytes", "gzip"] });
      for (const [key, bytes] of pyramid.map) files.set(`${name}/${key}`, bytes);
    }
    const server = new Worker(new URL(import.meta.url), { workerData: { files, latency } });
    const [port] = await new Promise((r) => server.once("message", (p) => r([p])));
    console.log(`3-level pyramids (2048², 1024², 512²) of float32, 512×512 chunks, gzip; HTTP with ${latency} ms per request; ${reps} tiles per zoom, cold chunk cache each`);
    console.log("dataset     zoom level  requests  round trips  wall ms  read CPU ms  paint CPU ms (worker)  exact reprojection");
    for (const [code, d] of Object.entries(datasets)) {
      const log = [];
      const fetchLogged = async (url, init) => {
        const entry = { start: performance.now(), end: Number.POSITIVE_INFINITY };
        log.push(entry);
        try {
          return await fetch(url, init);
        } finally {
          entry.end = performance.now();
        }
      };
      const store = new HttpStore(`http://127.0.0.1:${port}/${code.replace(":", "-")}/`, { fetch: fetchLogged });
      const h = await loadHierarchy(store);
      const reprojector = code === "EPSG:4326" ? undefined : proj4Reprojector(proj4);
      setTileReprojector(reprojector);
      const chunkCache = createChunkCache({ maxBytes: 64 << 20 });
      const source = await maplibre.openTileSource(h, { reprojector, range: [-50, 100], chunkCache });
      const table = maplibre.colormapTable("viridis");
      // One tile first, uncounted: compiles the code paths (JIT) as a running app has.
      const warm = await maplibre.readTileInput(source, { z: 10, x: Math.floor(((d.lon + 180) / 360) * 1024), y: Math.floor(((1 - Math.log(Math.tan((d.lat * Math.PI) / 180) + 1 / Math.cos((d.lat * Math.PI) / 180)) / Math.PI) / 2) * 1024) });
      if (warm !== undefined) await paintTile(warm, { range: source.range, table });
      for (const z of [8, 9, 10]) {
        const rows = [];
        for (let k = 0; k < reps; k++) {
          const n = 2 ** z;
          const phi = (d.lat * Math.PI) / 180;
          const tile = {
            z,
            x: Math.floor(((d.lon + 180) / 360) * n) + (k % 2),
            y: Math.floor(((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * n) + (k >> 1) % 2,
          };
          chunkCache.clear();
          log.length = 0;
          const t0 = performance.now();
          const c0 = process.cpuUsage();
          const input = await maplibre.readTileInput(source, tile);
          if (input === undefined) continue; // a neighbour outside the data at low zoom
          const readCpu = cpuMs(c0);
          const wall = performance.now() - t0;
          const requests = log.length;
          const trips = roundTrips(log.slice());
          const c1 = process.cpuUsage();
          await paintTile(input, { range: source.range, table });
          const paintCpu = cpuMs(c1);
          const c2 = process.cpuUsage();
          await paintTile(input, { range: source.range, table, reprojectionError: 0 });
          const exactCpu = cpuMs(c2);
          rows.push({ level: input.level, requests, trips, wall, readCpu, paintCpu, exactCpu });
        }
        const levels = [...new Set(rows.map((r) => r.level))].join(",");
        console.log(
          `${code.padEnd(11)} ${String(z).padStart(4)} ${levels.padStart(5)}  ${String(median(rows.map((r) => r.requests))).padStart(8)}  ${String(Math.max(...rows.map((r) => r.trips))).padStart(11)}  ${median(rows.map((r) => r.wall)).toFixed(1).padStart(7)}  ${median(rows.map((r) => r.readCpu)).toFixed(1).padStart(11)}  ${median(rows.map((r) => r.paintCpu)).toFixed(1).padStart(12)}  ${median(rows.map((r) => r.exactCpu)).toFixed(1).padStart(27)}`,
        );
      }
    }
    await server.terminate();
  }
}
