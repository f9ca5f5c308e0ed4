#!/usr/bin/env node
// HTTP read benchmark: the benchmark array served by a local HTTP server (127.0.0.1, Range
// support, 20 ms added to every request), read whole by @zarr (HttpStore, 64 chunk reads in
// flight) and by zarrita.js (FetchStore from @zarrita/storage, its default: every chunk at
// once), in the same run. Prints the median times and the ratio.
//
//   node bench/http.mjs                        uncompressed + blosc-lz4-shuffle, 20 ms latency
//   node bench/http.mjs --latency 50 --reps 9  other settings (default 5 repetitions, taking turns)
//   node bench/http.mjs --concurrency 128      @zarr's chunk reads in flight
//   node bench/http.mjs --workers 2            @zarr decodes in 2 worker threads
//   node bench/http.mjs --fetch global         @zarr uses the global fetch (undici) instead of
//                                              nodeFetch from @zarr/store-http/node (own HTTP/1.1 client)
//   node bench/http.mjs --quick                a small array (generated here), one repetition (alias: --smoke)
//   node bench/http.mjs --transports           the Node transports on HttpStore's own read path instead:
//                                              256 chunk-sized (1 MiB) HttpStore.readInto calls into the
//                                              caller's buffers, 8 in flight, over (a) nodeFetch, (b) undici
//                                              Agent/request (bench/lib/undici-fetch.mjs), (c) global fetch;
//                                              at 0 and 20 ms added latency (--latencies 0,20, --chunk-kib 1024,
//                                              --reads 256, --concurrency 8, --reps 5)
//
// The data is what bench/read.mjs caches at full size (256 MiB float32, 512×512 chunks;
// bench/lib/data.mjs, under <tmpdir>/zarr-bench). When it is missing, a smaller array
// (2048×2048, 256×256 chunks) is written here by @zarr itself into the same cache
// directory (no Python needed).
//
// The server (bench/lib/http-server.mjs) runs in a worker thread, so serving does not compete
// with the readers for the main thread's event loop, and it serves files from memory after
// their first request.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { startFileServer } from "./lib/http-server.mjs";

if (process.argv.includes("--transports")) {
  await transports();
} else {
  await main();
}

async function main() {
  const { HttpStore, createArray, get, openArray, set } = await import("@zarr/all");
  const { FetchStore } = await import("@zarrita/storage");
  const zarrita = await import("zarrita");

  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i < 0 ? fallback : args[i + 1];
  };
  const smoke = args.includes("--smoke") || args.includes("--quick");
  const latency = Number(option("--latency", 20));
  const reps = Number(option("--reps", smoke ? 1 : 5));
  const concurrency = Number(option("--concurrency", 64));
  const workerCount = Number(option("--workers", 0));
  const transport = option("--fetch", "node");
  if (transport !== "node" && transport !== "global") throw new Error(`--fetch must be node or global, got ${transport}`);
  const { nodeFetch } = await import("@zarr/store-http/node");
  const storeOptions = transport === "node" ? { fetch: nodeFetch } : {};
  const { createWorkerPool } = await import("@zarr/all/workers");
  const workers = workerCount > 0 ? createWorkerPool({ size: workerCount }) : undefined;
  const variants = option("--only", "uncompressed,blosc-lz4-shuffle").split(",");
  const MiB = 1024 * 1024;

  /** The root of the served tree and each variant's path in it. */
  async function data() {
    const { cachedReadData, dataRoot, variant } = await import("./lib/data.mjs");
    const full = variants.map((v) => cachedReadData({ n: 8192, c: 512, variant: variant(v) }));
    if (!smoke && full.every((d) => d !== null)) {
      return { root: full[0].root, paths: Object.fromEntries(variants.map((v, i) => [v, full[i].path])) };
    }
    // Not prepared by read.mjs (or --quick): write a smaller array with @zarr itself.
    const { FileSystemStore } = await import("@zarr/all");
    const root = join(dataRoot(), smoke ? "http-smoke" : "http");
    const n = smoke ? 512 : 2048;
    const c = smoke ? 128 : 256;
    const codecs = {
      uncompressed: [],
      "blosc-lz4-shuffle": [{ name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 } }],
    };
    const paths = {};
    for (const v of variants) {
      if (!(v in codecs)) throw new Error(`unknown variant ${v} (have ${Object.keys(codecs)})`);
      paths[v] = `${v}.zarr`;
      if (existsSync(join(root, paths[v], "zarr.json"))) continue;
      const arr = await createArray(new FileSystemStore(join(root, paths[v])), "", {
        shape: [n, n],
        chunkShape: [c, c],
        dataType: "float32",
        codecs: [{ name: "bytes", configuration: { endian: "little" } }, ...codecs[v]],
      });
      const values = new Float32Array(n * n);
      for (let i = 0; i < values.length; i++) values[i] = Math.sin(i * 0.001) * 100 + (i % n) * 0.01;
      await set(arr, null, values);
    }
    return { root, paths };
  }

  /** Median seconds of each reader, the readers taking turns (so background load hits both alike). */
  async function race(readers) {
    for (const fn of Object.values(readers)) await fn(); // warm-up: connections, JIT, codec set-up
    const times = Object.fromEntries(Object.keys(readers).map((k) => [k, []]));
    for (let r = 0; r < reps; r++) {
      for (const [name, fn] of Object.entries(readers)) {
        const t0 = performance.now();
        await fn();
        times[name].push((performance.now() - t0) / 1000);
      }
    }
    const median = (t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)];
    return Object.fromEntries(Object.entries(times).map(([k, t]) => [k, median(t)]));
  }

  const { root, paths } = await data();
  const server = await startFileServer({ mounts: { "/": root }, latency });
  const base = server.url;
  const rows = [];
  try {
    for (const v of variants) {
      const url = base + paths[v];
      const ours = await openArray(new HttpStore(url, storeOptions), "");
      const theirs = await zarrita.open(zarrita.root(new FetchStore(url)), { kind: "array" });
      const mb = (ours.shape.reduce((a, b) => a * b, 1) * 4) / MiB;
      const chunks = ours.chunkGrid.gridShape.reduce((a, b) => a * b, 1);
      // Same values from both readers, checked once.
      const a = await get(ours, null, { concurrency, workers });
      const b = await zarrita.get(theirs);
      if (a.data.length !== b.data.length || a.data.some((x, i) => !Object.is(x, b.data[i]))) throw new Error(`${v}: the readers disagree`);
      // One result buffer allocated (and page-faulted) before timing, as zarr-python's out= allows.
      const out = new Float32Array(workers ? new SharedArrayBuffer(a.data.byteLength) : new ArrayBuffer(a.data.byteLength)).fill(1);
      const t = await race({
        "@zarr": () => get(ours, null, { concurrency, workers }),
        "@zarr, out": () => get(ours, null, { concurrency, workers, out }),
        "zarrita.js": () => zarrita.get(theirs),
      });
      rows.push({ variant: v, shape: ours.shape, chunks, mb, t });
    }
  } finally {
    await server.close();
    await workers?.close();
  }

  console.log(
    `\nHTTP read benchmark: whole array over http://127.0.0.1 with ${latency} ms added per request; ` +
      `@zarr HttpStore (${transport === "node" ? "nodeFetch" : "global fetch"}) with ${concurrency} chunk reads in flight${workers ? ` and ${workerCount} decode workers` : ""}, zarrita.js FetchStore (its default: all at once); ` +
      `median of ${reps}; ${availableParallelism()} CPUs\n`,
  );
  console.log(`${"variant".padEnd(20)}${"array".padEnd(26)}${"reader".padEnd(13)}${"time (s)".padStart(9)}${"MiB/s".padStart(8)}   vs zarrita.js`);
  for (const r of rows) {
    const label = `${r.shape.join("×")} (${r.chunks} chunks)`;
    for (const [reader, t] of Object.entries(r.t)) {
      const ratio = reader.startsWith("@zarr") ? `${(r.t["zarrita.js"] / t).toFixed(2)}×` : "";
      console.log(`${r.variant.padEnd(20)}${label.padEnd(26)}${reader.padEnd(13)}${t.toFixed(3).padStart(9)}${(r.mb / t).toFixed(0).padStart(8)}   ${ratio}`);
    }
  }
  console.log(
    "\n(vs zarrita.js = zarrita.js time / this reader's time; the target is at least 2×.\n" +
      ' "@zarr, out": get(..., { out }) into one buffer allocated before timing, as zarr-python\'s out= allows.)',
  );
}

/** The Node transports compared on HttpStore.readInto: chunk-sized range reads into the caller's buffers. */
async function transports() {
  const { HttpStore } = await import("@zarr/store-http");
  const { nodeFetch } = await import("@zarr/store-http/node");
  const { createUndiciFetch } = await import("./lib/undici-fetch.mjs");
  const { dataRoot } = await import("./lib/data.mjs");
  const { mkdir, writeFile } = await import("node:fs/promises");
  const { randomFillSync } = await import("node:crypto");
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i < 0 ? fallback : args[i + 1];
  };
  const quick = args.includes("--quick") || args.includes("--smoke");
  const latencies = option("--latencies", "0,20").split(",").map(Number);
  const chunk = Number(option("--chunk-kib", quick ? 64 : 1024)) * 1024;
  const reads = Number(option("--reads", quick ? 32 : 256));
  const concurrency = Number(option("--concurrency", 8));
  const reps = Number(option("--reps", quick ? 1 : 5));
  // One 64-chunk file, read round and round (a server's page cache holds it).
  const fileChunks = Math.min(64, reads);
  const root = join(dataRoot(), "http-transports");
  const name = `blob-${chunk}x${fileChunks}.bin`;
  await mkdir(root, { recursive: true });
  const blob = randomFillSync(new Uint8Array(chunk * fileChunks));
  await writeFile(join(root, name), blob);

  const undiciFetch = createUndiciFetch();
  const fetches = { nodeFetch, "undici request": undiciFetch, "global fetch": globalThis.fetch };
  // Each slot of the 8 in flight reads into its own caller-owned buffer, reused.
  const targets = Array.from({ length: concurrency }, () => new Uint8Array(chunk));
  const readAll = async (store) => {
    let next = 0;
    await Promise.all(
      targets.map(async (target) => {
        while (next < reads) {
          const i = next++;
          const size = await store.readInto(name, [{ offset: (i % fileChunks) * chunk, target }]);
          if (size !== blob.length) throw new Error(`read ${i}: size ${size}`);
        }
      }),
    );
  };
  const median = (t) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)];
  const rows = [];
  for (const latency of latencies) {
    const server = await startFileServer({ mounts: { "/": root }, latency });
    try {
      const stores = Object.fromEntries(Object.entries(fetches).map(([k, f]) => [k, new HttpStore(server.url, { fetch: f })]));
      // Warm-up, and one check that every transport puts the right bytes in place.
      for (const [k, store] of Object.entries(stores)) {
        await readAll(store);
        const probe = new Uint8Array(chunk);
        await store.readInto(name, [{ offset: chunk, target: probe }]);
        if (!probe.every((b, j) => b === blob[chunk + j])) throw new Error(`${k}: wrong bytes`);
      }
      const times = Object.fromEntries(Object.keys(stores).map((k) => [k, []]));
      for (let r = 0; r < reps; r++) {
        for (const [k, store] of Object.entries(stores)) {
          const t0 = performance.now();
          await readAll(store);
          times[k].push((performance.now() - t0) / 1000);
        }
      }
      rows.push({ latency, t: Object.fromEntries(Object.entries(times).map(([k, t]) => [k, median(t)])) });
    } finally {
      await server.close();
    }
  }
  await undiciFetch.close();
  const mb = (reads * chunk) / 1024 / 1024;
  console.log(
    `\nHTTP transports on HttpStore.readInto: ${reads} reads of ${chunk / 1024} KiB into the caller's buffers, ${concurrency} in flight, ` +
      `http://127.0.0.1 (server in a worker thread); median of ${reps}; ${availableParallelism()} CPUs\n`,
  );
  console.log("| added latency | transport | time (s) | MiB/s | time / undici time |");
  console.log("| --- | --- | ---: | ---: | ---: |");
  for (const { latency, t } of rows) {
    for (const [k, s] of Object.entries(t)) {
      console.log(`| ${latency} ms | ${k} | ${s.toFixed(3)} | ${(mb / s).toFixed(0)} | ${(s / t["undici request"]).toFixed(2)} |`);
    }
  }
  console.log("\n(time / undici time below 1: faster than undici's request.)");
}
