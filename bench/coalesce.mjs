#!/usr/bin/env node
// Many small reads of one shard, as map tiles or a time slider make them: 64 separate `get`
// calls in flight at once, each reading one 128×128 tile of a float32 array stored in shards of
// 8×8 inner chunks (zstd), over HTTP from 127.0.0.1 with 20 ms added to every request. HttpStore
// with range coalescing (its default) against the same store with `coalesce: false`, in the same
// run: requests the server saw and wall time, from a fresh store each time (nothing cached).
//
//   node bench/coalesce.mjs                 64 tiles, 20 ms latency, 5 repetitions
//   node bench/coalesce.mjs --tiles 16 --latency 50 --reps 9
//   node bench/coalesce.mjs --quick         one repetition (alias: --smoke)
//
// Targets (issue 25): at least 4× fewer requests and at least 2× faster with coalescing.
import { once } from "node:events";
import { mkdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import http from "node:http";
import { join, normalize, sep } from "node:path";
import { createArray, get, open, set, slice } from "@zarr/all";
import { FileSystemStore } from "@zarr/store-fs";
import { HttpStore } from "@zarr/store-http";
import { main, parseArgs, reps as repsOf, requireBuilt } from "./lib/common.mjs";
import { dataRoot } from "./lib/data.mjs";
import { median } from "./lib/measure.mjs";
import { count, Report, ratio, seconds } from "./lib/output.mjs";

const TILE = 128;
const SHARD = 8 * TILE;

/** A Range-capable server over `root` adding `latency` ms per request and counting them. */
async function serve(root, latency) {
  const files = new Map();
  const seen = { requests: 0 };
  const server = http.createServer(async (req, res) => {
    seen.requests++;
    await new Promise((r) => setTimeout(r, latency));
    const path = normalize(join(root, decodeURIComponent(new URL(req.url, "http://x").pathname)));
    if (!path.startsWith(root + sep)) return res.writeHead(400).end();
    let body = files.get(path);
    if (body === undefined) {
      try {
        body = await readFile(path);
      } catch {
        return res.writeHead(404).end();
      }
      files.set(path, body);
    }
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    if (m === null) return res.writeHead(200, { "content-length": body.length }).end(body);
    const start = m[1] === "" ? Math.max(0, body.length - Number(m[2])) : Number(m[1]);
    const end = m[1] === "" || m[2] === "" ? body.length - 1 : Math.min(Number(m[2]), body.length - 1);
    if (start >= body.length) return res.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
    res.writeHead(206, { "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${body.length}` }).end(body.subarray(start, end + 1));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${server.address().port}/`, seen, close: () => new Promise((r) => server.close(r)) };
}

/** The array: 2 × 2 shards of SHARD² float32, 8 × 8 inner chunks of TILE² each, zstd. */
async function makeData(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const n = 2 * SHARD;
  const arr = await createArray(new FileSystemStore(dir), "", {
    shape: [n, n],
    dataType: "float32",
    chunkShape: [SHARD, SHARD],
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [TILE, TILE],
          codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 1, checksum: false } }],
          index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
        },
      },
    ],
  });
  await set(arr, null, Float32Array.from({ length: n * n }, (_, i) => Math.sin(i * 0.001) * 100 + (i % n) * 0.01));
}

/** `tiles` concurrent reads of distinct tiles of the first shard; the requests and seconds they took. */
async function readTiles(server, tiles, coalesce) {
  const store = new HttpStore(server.url, coalesce ? {} : { coalesce: false });
  const arr = await open(store);
  const before = server.seen.requests;
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from({ length: tiles }, (_, k) => {
      const row = Math.floor(k / 8) % 8;
      const col = k % 8;
      return get(arr, [slice(row * TILE, (row + 1) * TILE), slice(col * TILE, (col + 1) * TILE)]);
    }),
  );
  const s = (performance.now() - t0) / 1000;
  let sum = 0;
  for (const r of results) for (let i = 0; i < r.data.length; i += 997) sum += r.data[i];
  return { requests: server.seen.requests - before, s, sum };
}

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const tiles = args.number("--tiles", 64);
  const latency = args.number("--latency", 20);
  const reps = repsOf(args, 5);
  const report = new Report({ script: import.meta.filename, title: "Many tile reads of one shard over HTTP (`coalesce.mjs`)", args });
  const dir = join(dataRoot(), "coalesce");
  await makeData(dir);
  const server = await serve(dir, latency);
  try {
    const runs = { on: [], off: [] };
    for (let r = 0; r < reps; r++) {
      // Taking turns, so both see the same machine.
      runs.on.push(await readTiles(server, tiles, true));
      runs.off.push(await readTiles(server, tiles, false));
    }
    if (runs.on[0].sum !== runs.off[0].sum) throw new Error("coalesced and uncoalesced reads returned different values");
    const row = (name, rs) => [name, count(median(rs.map((x) => x.requests))), seconds(median(rs.map((x) => x.s)))];
    report.line(`${tiles} concurrent get calls, each one ${TILE}×${TILE} float32 tile (one inner chunk) of the same ${SHARD}×${SHARD} shard; ${latency} ms per request; fresh HttpStore and open() per repetition (the metadata request is not counted); median of ${reps}`);
    report.table("Requests and time", ["HttpStore", "requests", "seconds"], [row("coalesce (default)", runs.on), row("coalesce: false", runs.off)], ["l", "r", "r"]);
    const fewer = median(runs.off.map((x) => x.requests)) / median(runs.on.map((x) => x.requests));
    const faster = median(runs.off.map((x) => x.s)) / median(runs.on.map((x) => x.s));
    report.target({ name: "requests: uncoalesced / coalesced", value: fewer, op: "≥", limit: 4 });
    report.target({ name: "time: uncoalesced / coalesced", value: faster, op: "≥", limit: 2 });
  } finally {
    await server.close();
  }
  report.finish();
});
