#!/usr/bin/env node
// Icechunk read benchmark: a 256 MiB float32 array (8192×8192, 512×512 chunks of 1 MiB,
// uncompressed) read whole by @zarr as a plain Zarr store and through @zarr/store-icechunk
// from a repository holding the same chunk bytes as native chunks (written by the test-only
// writer, bench/lib/icechunk-writer.mjs: there is no Icechunk writer here), on the local file
// system and over HTTP (the HTTP benchmarks' server, 20 ms added to every request), in the same
// run, taking turns. Prints median wall and CPU times and the Icechunk/plain ratios (target
// ≤ 1.1×). Then opens a repository of 1,000 arrays and reads one chunk, counting requests
// (target ≤ 4).
//
//   node bench/icechunk.mjs                 256 MiB, 5 repetitions
//   node bench/icechunk.mjs --quick         1024×1024 (4 MiB), one repetition (alias: --smoke)
//   node bench/icechunk.mjs --reps 9 --latency 50 --concurrency 64
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MiB, main, parseArgs, reps as repetitions, requireBuilt, size } from "./lib/common.mjs";
import { benchValues, dataRoot } from "./lib/data.mjs";
import { startFileServer } from "./lib/http-server.mjs";
import { IcechunkWriter, icechunkFromZarr } from "./lib/icechunk-writer.mjs";

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n, c } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const reps = repetitions(args, 5);
  const latency = args.number("--latency", 20);
  const concurrency = args.number("--concurrency", 64);
  const { FileSystemStore, HttpStore, createArray, get, openArray, set, slice } = await import("@zarr/all");
  const { openIcechunk } = await import("@zarr/store-icechunk");
  const { nodeFetch } = await import("@zarr/store-http/node");

  // The data: the plain array, and a repository made from it (cached under the bench data root).
  const root = join(dataRoot(), "icechunk", `n${n}-c${c}`);
  const plainDir = join(root, "plain.zarr");
  const repoDir = join(root, "repo");
  if (!existsSync(join(repoDir, "repo"))) {
    const arr = await createArray(new FileSystemStore(plainDir), "", {
      shape: [n, n], chunkShape: [c, c], dataType: "float32", codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    });
    await set(arr, null, benchValues(n));
    await icechunkFromZarr(new FileSystemStore(plainDir), new FileSystemStore(repoDir));
  }

  /** Median wall and CPU milliseconds of `read` over the repetitions (the caller interleaves). */
  const timings = new Map();
  async function measure(label, read) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const data = await read();
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    // Every value checked (after the clock stops): a chunk read as missing would be fast and wrong.
    if (data.length !== expected.length || data.some((v, i) => v !== expected[i])) throw new Error(`${label}: wrong values`);
    if (!timings.has(label)) timings.set(label, { wall: [], cpu: [] });
    timings.get(label).wall.push(wall);
    timings.get(label).cpu.push((cpu.user + cpu.system) / 1000);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const readAll = async (store) => (await get(await openArray(store, ""), null, { concurrency })).data;
  const expected = benchValues(n);

  // The HTTP benchmarks' static server (in a worker thread, files from memory, `latency` ms per request).
  const server = await startFileServer({ mounts: { "/": root }, latency });
  const base = server.url.replace(/\/$/, "");
  try {
    const readers = {
      "fs plain": () => readAll(new FileSystemStore(plainDir, { readOnly: true })),
      "fs icechunk": async () => readAll(await openIcechunk(new FileSystemStore(repoDir, { readOnly: true }))),
      "http plain": () => readAll(new HttpStore(`${base}/plain.zarr`, { fetch: nodeFetch })),
      "http icechunk": async () => readAll(await openIcechunk(new HttpStore(`${base}/repo`, { fetch: nodeFetch }))),
    };
    for (const read of Object.values(readers)) await read(); // warm-up: page cache, server memory, JIT
    for (let r = 0; r < reps; r++) for (const [label, read] of Object.entries(readers)) await measure(label, read);
  } finally {
    await server.close();
  }

  const row = (label) => ({ wall: median(timings.get(label).wall), cpu: median(timings.get(label).cpu) });
  const mib = (n * n * 4) / MiB;
  console.log(`Icechunk vs plain Zarr: ${n}×${n} float32 (${mib} MiB, ${(n / c) ** 2} chunks of ${(c * c * 4) / MiB} MiB), median of ${reps}, taking turns`);
  for (const where of ["fs", "http"]) {
    const plain = row(`${where} plain`);
    const ice = row(`${where} icechunk`);
    const extra = where === "http" ? ` (${latency} ms latency, ${concurrency} reads in flight)` : "";
    console.log(
      `  ${where}${extra}: plain ${plain.wall.toFixed(0)} ms (CPU ${plain.cpu.toFixed(0)} ms), icechunk ${ice.wall.toFixed(0)} ms (CPU ${ice.cpu.toFixed(0)} ms): ` +
        `wall ${(ice.wall / plain.wall).toFixed(2)}×, CPU ${(ice.cpu / plain.cpu).toFixed(2)}×`,
    );
  }

  // A repository of 1,000 arrays: open it and read one chunk, counting requests.
  const wideDir = join(dataRoot(), "icechunk", "wide-1000");
  if (!existsSync(join(wideDir, "repo"))) {
    const writer = new IcechunkWriter(new FileSystemStore(wideDir));
    await writer.init();
    const nodes = [{ path: "/", metadata: { zarr_format: 3, node_type: "group", attributes: {} } }];
    for (let i = 0; i < 1000; i++) {
      const chunk = new Uint8Array(new Float32Array(256).fill(i).buffer);
      nodes.push({
        path: `/var${i}`,
        metadata: {
          zarr_format: 3, node_type: "array", shape: [1024], data_type: "float32", chunk_grid: { name: "regular", configuration: { chunk_shape: [256] } },
          chunk_key_encoding: { name: "default", configuration: { separator: "/" } }, fill_value: 0, codecs: [{ name: "bytes", configuration: { endian: "little" } }], attributes: {},
        },
        chunks: [0, 1, 2, 3].map(async (j) => ({ index: [j], ...(await writer.writeChunk(chunk)) })),
      });
    }
    for (const node of nodes) if (node.chunks) node.chunks = await Promise.all(node.chunks);
    await writer.finish({ branches: { main: await writer.commit("1,000 arrays", nodes) } });
  }
  const requests = [];
  const inner = new FileSystemStore(wideDir, { readOnly: true });
  const counting = {
    get(key, o) {
      requests.push(key);
      return inner.get(key, o);
    },
    getRange(key, r, o) {
      requests.push(key);
      return inner.getRange(key, r, o);
    },
  };
  const t0 = performance.now();
  const store = await openIcechunk(counting);
  const values = await get(await openArray(store, "var617"), [slice(256, 512)]);
  const ms = performance.now() - t0;
  if (values.data[0] !== 617) throw new Error(`var617 read ${values.data[0]}`);
  console.log(`1,000 arrays: open + one chunk of one array = ${requests.length} requests (${requests.map((k) => k.split("/")[0]).join(", ")}), ${ms.toFixed(1)} ms on the file system`);
});
