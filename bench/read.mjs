#!/usr/bin/env node
// Read benchmark: the same 256 MiB float32 array (8192×8192, 512×512 chunks) read by
// @zarr, by zarrita.js (both from a Zarr v3 copy) and by zarr-python 2.13 (from a Zarr v2
// copy whose chunk files are byte-identical), all in one run. Prints throughput and ratios.
//
//   node bench/read.mjs            full size
//   node bench/read.mjs --smoke    1024×1024, one repetition (a quick check that it runs)
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createArray, get, openArray, set, slice } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { FileSystemStore as ZarritaFileSystemStore } from "@zarrita/storage";
import * as zarrita from "zarrita";

const smoke = process.argv.includes("--smoke");
const N = smoke ? 1024 : 8192;
const C = smoke ? 256 : 512;
const REPS = smoke ? 1 : 5;
const dataDir = join(import.meta.dirname, "data", smoke ? "smoke" : "full");
const bytes = N * N * 4;
const MiB = 1024 * 1024;

/** Variants of the same data; issue 3 adds compressed ones. */
const variants = [{ name: "uncompressed", v3codecs: [{ name: "bytes", configuration: { endian: "little" } }], v2compressor: null }];

function values() {
  const v = new Float32Array(N * N);
  for (let i = 0; i < v.length; i++) v[i] = Math.sin(i * 0.001) * 100 + (i % N) * 0.01;
  return v;
}

async function prepare(variant) {
  const dir = join(dataDir, variant.name);
  const v3 = join(dir, "v3.zarr");
  const v2 = join(dir, "v2.zarr");
  if (existsSync(join(v2, ".zarray"))) return { v3, v2 };
  rmSync(dir, { recursive: true, force: true });
  const store = new FileSystemStore(v3);
  const arr = await createArray(store, "", { shape: [N, N], chunkShape: [C, C], dataType: "float32", fillValue: 0, codecs: variant.v3codecs });
  await set(arr, null, values());
  // The v2 copy: same chunk bytes, v2 keys ("i.j") and metadata.
  mkdirSync(v2, { recursive: true });
  writeFileSync(
    join(v2, ".zarray"),
    JSON.stringify({ zarr_format: 2, shape: [N, N], chunks: [C, C], dtype: "<f4", compressor: variant.v2compressor, fill_value: 0, filters: null, order: "C" }),
  );
  for (const i of readdirSync(join(v3, "c"))) for (const j of readdirSync(join(v3, "c", i))) linkSync(join(v3, "c", i, j), join(v2, `${i}.${j}`));
  return { v3, v2 };
}

async function time(fn) {
  const times = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    await fn();
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function zarrPython(v2, selection) {
  const code = `
import json, sys, time, zarr
z = zarr.open_array(sys.argv[1], mode="r")
times = []
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    a = z[${selection}]
    times.append(time.perf_counter() - t0)
times.sort()
print(json.dumps({"median": times[len(times) // 2], "sum": float(a[:3].sum() if a.ndim == 1 else a[0, :3].sum())}))
`;
  try {
    return JSON.parse(execFileSync("/usr/bin/python3", ["-c", code, v2, String(REPS)], { encoding: "utf8" })).median;
  } catch (error) {
    console.error(`zarr-python unavailable: ${error.message.split("\n")[0]}`);
    return undefined;
  }
}

const rows = [];
for (const variant of variants) {
  const { v3, v2 } = await prepare(variant);
  const ours = await openArray(new FileSystemStore(v3, { readOnly: true }), "");
  const theirs = await zarrita.open(zarrita.root(new ZarritaFileSystemStore(v3)), { kind: "array" });
  const full = {
    "@zarr": await time(() => get(ours)),
    "zarrita.js": await time(() => zarrita.get(theirs)),
    "zarr-python 2.13": zarrPython(v2, ":"),
  };
  const lo = N / 8;
  const hi = N / 8 + N / 4;
  const sub = {
    "@zarr": await time(() => get(ours, [slice(lo, hi), slice(lo, hi)])),
    "zarrita.js": await time(() => zarrita.get(theirs, [zarrita.slice(lo, hi), zarrita.slice(lo, hi)])),
    "zarr-python 2.13": zarrPython(v2, `${lo}:${hi}, ${lo}:${hi}`),
  };
  rows.push({ variant: variant.name, selection: "full", mb: bytes / MiB, t: full });
  rows.push({ variant: variant.name, selection: `[${lo}:${hi}, ${lo}:${hi}]`, mb: ((hi - lo) * (hi - lo) * 4) / MiB, t: sub });
}

console.log(`\nRead benchmark: ${N}×${N} float32 (${bytes / MiB} MiB), ${C}×${C} chunks, median of ${REPS}\n`);
console.log("variant        selection          reader              time (s)   MiB/s   @zarr speed-up");
for (const r of rows) {
  for (const [reader, t] of Object.entries(r.t)) {
    const speed = t === undefined ? "n/a" : (r.mb / t).toFixed(0);
    const ratio = t === undefined ? "n/a" : reader === "@zarr" ? "" : `${(t / r.t["@zarr"]).toFixed(2)}×`;
    console.log(`${r.variant.padEnd(15)}${r.selection.padEnd(19)}${reader.padEnd(20)}${(t ?? Number.NaN).toFixed(3).padStart(8)}${speed.padStart(8)}   ${ratio}`);
  }
}
console.log("\n(speed-up = the other reader's time / @zarr's time; > 1 means @zarr is faster)");
