#!/usr/bin/env node
// Write benchmark: the 256 MiB float32 array of the read benchmark (8192×8192, 512×512
// chunks) written from memory to local disk by @zarr and zarrita.js (Zarr v3) and by
// zarr-python 2.13 (Zarr v2), in several encodings, in one run. Prints throughput and ratios.
//
//   node bench/write.mjs                   every variant (the TypeScript zstd encoder is slow: minutes)
//   node bench/write.mjs --smoke           1024×1024, one repetition
//   node bench/write.mjs --only gzip       some variants
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createArray, set } from "@zarr/all";
import { FileSystemStore } from "@zarr/store-fs";
import { FileSystemStore as ZarritaFileSystemStore } from "@zarrita/storage";
import * as zarrita from "zarrita";

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const smoke = args.includes("--smoke");
const N = smoke ? 1024 : 8192;
const C = smoke ? 256 : 512;
const REPS = Number(option("--reps") ?? (smoke ? 1 : 3));
const dir = join(import.meta.dirname, "data", "write");
const MiB = 1024 * 1024;

const VARIANTS = [
  { name: "uncompressed", v2: null, v3: [] },
  { name: "gzip", v2: { id: "gzip", level: 1 }, v3: [{ name: "gzip", configuration: { level: 1 } }] },
  { name: "zstd", v2: { id: "zstd", level: 1 }, v3: [{ name: "zstd", configuration: { level: 1, checksum: false } }] },
  {
    name: "blosc-lz4-shuffle",
    v2: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
    v3: [{ name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 } }],
  },
];
const only = option("--only")?.split(",");
const variants = only ? VARIANTS.filter((v) => only.includes(v.name)) : VARIANTS;

const values = new Float32Array(N * N);
for (let i = 0; i < values.length; i++) values[i] = Math.sin(i * 0.001) * 100 + (i % N) * 0.01;

async function time(fn) {
  const times = [];
  for (let r = 0; r < REPS; r++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const t0 = performance.now();
    await fn();
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function zarrPython(variant) {
  const code = `
import json, shutil, sys, time, numpy as np, zarr, numcodecs
n, c, path, comp, reps = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4]), int(sys.argv[5])
i = np.arange(n * n, dtype=np.float64)
data = (np.sin(i * 0.001) * 100 + (i % n) * 0.01).astype("<f4").reshape(n, n)
times = []
for _ in range(reps):
    shutil.rmtree(path, ignore_errors=True)
    t0 = time.perf_counter()
    z = zarr.open_array(path, mode="w", shape=(n, n), chunks=(c, c), dtype="<f4", fill_value=0,
                        compressor=numcodecs.get_codec(comp) if comp else None)
    z[:] = data
    times.append(time.perf_counter() - t0)
times.sort()
print(json.dumps(times[len(times) // 2]))
`;
  return JSON.parse(
    execFileSync("/usr/bin/python3", ["-c", code, String(N), String(C), join(dir, "py.zarr"), JSON.stringify(variant.v2), String(REPS)], {
      encoding: "utf8",
    }),
  );
}

const codecsFor = (v) => [{ name: "bytes", configuration: { endian: "little" } }, ...v.v3];
const rows = [];
for (const variant of variants) {
  const t = {};
  t["@zarr"] = await time(async () => {
    const arr = await createArray(new FileSystemStore(join(dir, "ours.zarr")), "", {
      shape: [N, N],
      chunkShape: [C, C],
      dataType: "float32",
      fillValue: 0,
      codecs: codecsFor(variant),
    });
    await set(arr, null, values);
  });
  try {
    t["zarrita.js"] = await time(async () => {
      const arr = await zarrita.create(zarrita.root(new ZarritaFileSystemStore(join(dir, "zarrita.zarr"))), {
        shape: [N, N],
        chunkShape: [C, C],
        dtype: "float32",
        fillValue: 0,
        codecs: codecsFor(variant),
      });
      await zarrita.set(arr, null, { data: values, shape: [N, N], stride: [N, 1] });
    });
  } catch (error) {
    console.error(`zarrita.js cannot write ${variant.name}: ${error.message}`);
  }
  t["zarr-python 2.13"] = zarrPython(variant);
  rows.push({ variant: variant.name, t });
}
rmSync(dir, { recursive: true, force: true });

console.log(`\nWrite benchmark: ${N}×${N} float32 (${(N * N * 4) / MiB} MiB) from memory to local disk, ${C}×${C} chunks, median of ${REPS}\n`);
console.log(`${"variant".padEnd(23)}${"writer".padEnd(19)}${"time (s)".padStart(9)}${"MiB/s".padStart(8)}   @zarr speed-up`);
for (const r of rows) {
  for (const [writer, t] of Object.entries(r.t)) {
    const ratio = writer === "@zarr" ? "" : `${(t / r.t["@zarr"]).toFixed(2)}×`;
    console.log(`${r.variant.padEnd(23)}${writer.padEnd(19)}${t.toFixed(3).padStart(9)}${((N * N * 4) / MiB / t).toFixed(0).padStart(8)}   ${ratio}`);
  }
}
console.log("\n(speed-up = the other writer's time / @zarr's time; above 1 means @zarr is faster)");
