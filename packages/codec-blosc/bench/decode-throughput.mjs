// Decode throughput of a 1 MiB float32 chunk: @zarr/codec-blosc vs zarrita.js (numcodecs.js,
// c-blosc compiled to WebAssembly) vs numcodecs 0.11 (C c-blosc 1.21, via Debian's Python).
// The chunks are written by numcodecs. Times are CPU time (best of several rounds), which
// stays meaningful on a shared machine; wall-clock best-of is printed too.
//
//   npx tsc -p tsconfig.build.json && node bench/decode-throughput.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { bloscDecompress } from "../dist/index.js";

// zarrita's own blosc: the numcodecs.js package next to zarrita in pnpm's store.
const zarrita = realpathSync(new URL("../../../node_modules/zarrita", import.meta.url));
const numcodecsDir = join(dirname(zarrita), "numcodecs");
const numcodecsPkg = JSON.parse(readFileSync(join(numcodecsDir, "package.json"), "utf8"));
const { default: WasmBlosc } = await import(pathToFileURL(join(numcodecsDir, numcodecsPkg.exports["./blosc"].import)).href);

const ROUNDS = 9;
const REPS = 20;

const py = execFileSync(
  "/usr/bin/python3",
  [
    "-c",
    `
import base64, json, time, numpy as np
from numcodecs import blosc
from numcodecs.blosc import Blosc
blosc.use_threads = False
blosc.set_nthreads(1)
rng = np.random.default_rng(42)
n = 1 << 18
x = np.linspace(0, 20, n)
a = (280 + 15 * np.sin(x) + rng.normal(0, 0.5, n)).astype('<f4')   # a smooth field with noise
out = {'raw': base64.b64encode(a.tobytes()).decode(), 'cases': []}
for label, cname, shuffle in [('lz4 + shuffle', 'lz4', 1), ('zstd + bitshuffle', 'zstd', 2)]:
    enc = Blosc(cname, 5, shuffle, 0).encode(a)
    cpu = wall = 1e9
    for r in range(${ROUNDS}):
        t, w = time.process_time(), time.perf_counter()
        for _ in range(${REPS}): blosc.decompress(enc)
        cpu = min(cpu, (time.process_time() - t) / ${REPS})
        wall = min(wall, (time.perf_counter() - w) / ${REPS})
    out['cases'].append({'label': label, 'chunk': base64.b64encode(enc).decode(), 'cpu': cpu * 1e3, 'wall': wall * 1e3})
print(json.dumps(out))
`,
  ],
  { maxBuffer: 1 << 28 },
);
const { raw: rawB64, cases } = JSON.parse(py.toString());
const raw = Buffer.from(rawB64, "base64");

function measure(fn) {
  let cpu = Infinity;
  let wall = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const c = process.cpuUsage();
    const w = performance.now();
    for (let i = 0; i < REPS; i++) fn();
    const d = process.cpuUsage(c);
    cpu = Math.min(cpu, (d.user + d.system) / 1000 / REPS);
    wall = Math.min(wall, (performance.now() - w) / REPS);
  }
  return { cpu, wall };
}

async function measureAsync(fn) {
  let cpu = Infinity;
  let wall = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const c = process.cpuUsage();
    const w = performance.now();
    for (let i = 0; i < REPS; i++) await fn();
    const d = process.cpuUsage(c);
    cpu = Math.min(cpu, (d.user + d.system) / 1000 / REPS);
    wall = Math.min(wall, (performance.now() - w) / REPS);
  }
  return { cpu, wall };
}

const mb = raw.length / 1e6;
const rate = (ms) => `${(mb / (ms / 1000)).toFixed(0).padStart(5)} MB/s`;
console.log(`1 MiB float32 chunk, numcodecs Blosc(clevel=5), ${ROUNDS} rounds x ${REPS} decodes, best round\n`);
for (const c of cases) {
  const chunk = new Uint8Array(Buffer.from(c.chunk, "base64"));
  const wasm = WasmBlosc.fromConfig({ id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 });
  if (!Buffer.from(bloscDecompress(chunk)).equals(raw)) throw new Error(`@zarr/codec-blosc decoded ${c.label} wrongly`);
  if (!Buffer.from(await wasm.decode(chunk)).equals(raw)) throw new Error(`numcodecs.js decoded ${c.label} wrongly`);
  for (let i = 0; i < 20; i++) {
    bloscDecompress(chunk);
    await wasm.decode(chunk);
  }
  const ours = measure(() => bloscDecompress(chunk));
  const theirs = await measureAsync(() => wasm.decode(chunk));
  console.log(`${c.label} (ratio ${(raw.length / chunk.length).toFixed(2)})`);
  console.log(`  @zarr/codec-blosc      cpu ${ours.cpu.toFixed(3)} ms ${rate(ours.cpu)}   wall ${ours.wall.toFixed(3)} ms`);
  console.log(`  zarrita (WASM c-blosc) cpu ${theirs.cpu.toFixed(3)} ms ${rate(theirs.cpu)}   wall ${theirs.wall.toFixed(3)} ms`);
  console.log(`  numcodecs (C c-blosc)  cpu ${c.cpu.toFixed(3)} ms ${rate(c.cpu)}   wall ${c.wall.toFixed(3)} ms`);
  console.log(
    `  ours vs WASM: ${(theirs.cpu / ours.cpu).toFixed(2)}x faster; ours vs C: ${((100 * c.cpu) / ours.cpu).toFixed(0)}% of C speed\n`,
  );
}
