#!/usr/bin/env node
// Read benchmark: the same 256 MiB float32 array (8192×8192, 512×512 chunks) in several
// encodings, each read by @zarr and by zarrita.js (from a Zarr v3 copy) and by zarr-python
// 2.13 (from a Zarr v2 copy whose chunk files are byte-identical), all in one run. Prints
// throughput and ratios.
//
//   node bench/read.mjs                      every variant, full size
//   node bench/read.mjs --smoke              1024×1024, one repetition, a quick check that it runs
//   node bench/read.mjs --only gzip,zstd     some variants
//   node bench/read.mjs --workers 2          decode in 2 worker threads (@zarr only; from a
//                                            local store the workers also read the chunk files)
//
// The chunks are written once by zarr-python (numcodecs' C libraries) into bench/data/.
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createWorkerPool } from "@zarr/all/workers";
import { get, openArray, slice } from "@zarr/all";
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
const REPS = smoke ? 1 : 5;
const workers = Number(option("--workers") ?? 0);
const dataDir = join(import.meta.dirname, "data", smoke ? "smoke" : "full");
const MiB = 1024 * 1024;

/** The encodings: numcodecs compressor config (v2) and the equivalent v3 codec chain. */
const VARIANTS = [
  { name: "uncompressed", v2: null, v3: [] },
  { name: "gzip", v2: { id: "gzip", level: 1 }, v3: [{ name: "gzip", configuration: { level: 1 } }] },
  { name: "zlib", v2: { id: "zlib", level: 1 }, v3: [{ name: "numcodecs.zlib", configuration: { level: 1 } }] },
  { name: "zstd", v2: { id: "zstd", level: 1 }, v3: [{ name: "zstd", configuration: { level: 1, checksum: false } }] },
  {
    name: "blosc-lz4-shuffle",
    v2: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
    v3: [{ name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 } }],
  },
  {
    name: "blosc-zstd-bitshuffle",
    v2: { id: "blosc", cname: "zstd", clevel: 5, shuffle: 2, blocksize: 0 },
    v3: [{ name: "blosc", configuration: { cname: "zstd", clevel: 5, shuffle: "bitshuffle", typesize: 4, blocksize: 0 } }],
  },
];
const only = option("--only")?.split(",");
const variants = only ? VARIANTS.filter((v) => only.includes(v.name)) : VARIANTS;

/** Writes the v2 copy with zarr-python (C codecs, fast), then links its chunk files into a v3 layout. */
function prepare(variant) {
  const dir = join(dataDir, variant.name);
  const v2 = join(dir, "v2.zarr");
  const v3 = join(dir, "v3.zarr");
  if (existsSync(join(v3, "zarr.json"))) return { v2, v3 };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const code = `
import json, sys, numpy as np, zarr, numcodecs
n, c, path, comp = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
i = np.arange(n * n, dtype=np.float64)
data = (np.sin(i * 0.001) * 100 + (i % n) * 0.01).astype("<f4").reshape(n, n)
z = zarr.open_array(path, mode="w", shape=(n, n), chunks=(c, c), dtype="<f4", fill_value=0,
                    compressor=numcodecs.get_codec(comp) if comp else None)
z[:] = data
`;
  execFileSync("/usr/bin/python3", ["-c", code, String(N), String(C), v2, JSON.stringify(variant.v2)]);
  mkdirSync(join(v3, "c"), { recursive: true });
  writeFileSync(
    join(v3, "zarr.json"),
    JSON.stringify({
      zarr_format: 3,
      node_type: "array",
      shape: [N, N],
      data_type: "float32",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [C, C] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }, ...variant.v3],
      attributes: {},
    }),
  );
  for (const name of readdirSync(v2)) {
    if (name.startsWith(".")) continue;
    const [i, j] = name.split(".");
    mkdirSync(join(v3, "c", i), { recursive: true });
    linkSync(join(v2, name), join(v3, "c", i, j)); // byte-identical chunk files
  }
  return { v2, v3 };
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
print(json.dumps(times[len(times) // 2]))
`;
  return JSON.parse(execFileSync("/usr/bin/python3", ["-c", code, v2, String(REPS)], { encoding: "utf8" }));
}

const pool = workers > 0 ? createWorkerPool({ size: workers }) : undefined;
const rows = [];
for (const variant of variants) {
  const { v2, v3 } = prepare(variant);
  const ours = await openArray(new FileSystemStore(v3, { readOnly: true }), "");
  const theirs = await zarrita.open(zarrita.root(new ZarritaFileSystemStore(v3)), { kind: "array" });
  const lo = N / 8;
  const hi = lo + N / 4;
  const selections = [
    { label: "full", mb: (N * N * 4) / MiB, ours: null, zarrita: null, python: ":" },
    {
      label: `[${lo}:${hi}, ${lo}:${hi}]`,
      mb: ((hi - lo) * (hi - lo) * 4) / MiB,
      ours: [slice(lo, hi), slice(lo, hi)],
      zarrita: [zarrita.slice(lo, hi), zarrita.slice(lo, hi)],
      python: `${lo}:${hi}, ${lo}:${hi}`,
    },
  ];
  for (const s of selections) {
    // One buffer allocated (and page-faulted) before timing, as with zarr-python's out=.
    const elements = Math.round((s.mb * MiB) / 4);
    const out = new Float32Array(pool ? new SharedArrayBuffer(elements * 4) : new ArrayBuffer(elements * 4)).fill(1);
    rows.push({
      variant: variant.name,
      selection: s.label,
      mb: s.mb,
      t: {
        "@zarr": await time(() => get(ours, s.ours, { workers: pool })),
        "@zarr, out reused": await time(() => get(ours, s.ours, { workers: pool, out })),
        "zarrita.js": await time(() => zarrita.get(theirs, s.zarrita ?? undefined)),
        "zarr-python 2.13": zarrPython(v2, s.python),
      },
    });
  }
}
await pool?.close();

console.log(
  `\nRead benchmark: ${N}×${N} float32 (${(N * N * 4) / MiB} MiB), ${C}×${C} chunks, median of ${REPS}; ` +
    `${availableParallelism()} CPUs; @zarr decode workers: ${workers || "none (main thread)"}\n`,
);
console.log(`${"variant".padEnd(23)}${"selection".padEnd(22)}${"reader".padEnd(19)}${"time (s)".padStart(9)}${"MiB/s".padStart(8)}  vs zarrita.js  vs zarr-python`);
for (const r of rows) {
  for (const [reader, t] of Object.entries(r.t)) {
    const ratios = reader.startsWith("@zarr")
      ? `${(r.t["zarrita.js"] / t).toFixed(2).padStart(12)}×${(r.t["zarr-python 2.13"] / t).toFixed(2).padStart(14)}×`
      : "";
    console.log(`${r.variant.padEnd(23)}${r.selection.padEnd(22)}${reader.padEnd(19)}${t.toFixed(3).padStart(9)}${(r.mb / t).toFixed(0).padStart(8)}${ratios}`);
  }
}
console.log(
  "\n(ratios = the other reader's time / this reader's time; above 1 means @zarr is faster.\n" +
    " \"out reused\": get(..., { out }) into one buffer allocated before timing, as zarr-python's out= allows;\n" +
    " a fresh 256 MiB result costs the kernel ~65k page faults, which NumPy avoids with transparent huge pages.)",
);
