#!/usr/bin/env node
// The floors under the engine targets that are not met: what this machine and Node cost
// before any Zarr code runs, and how fast the codec kernels are next to their C versions.
// Every number here is measured by this script; bench/README.md cites them.
//
//   node bench/floors.mjs              full size (256 MiB result, the bench chunks)
//   node bench/floors.mjs --quick      small sizes, one repetition (a check that it runs)
//   node bench/floors.mjs --only hugepages --runs 30 --pause 3
//   options: --reps N  --json FILE  --only SECTION,...  --runs N  --pause S
//   sections: faults, inflate, workers, encoders, read, hugepages (default: all)
//
// 1. Page faults of a fresh result: touching every 4 KiB page of a new 256 MiB
//    SharedArrayBuffer from 1 and from 2 threads (what any fresh-result read pays).
// 2. Inflate: node:zlib inflating the gzip bench array's chunks on one thread (what a
//    gzip read costs per CPU before it copies anything).
// 3. Worker threads: the RSS and minor faults of an idle node with 0, 1 and 2 idle
//    `new Worker` threads (what a decode pool costs before it runs any code).
// 4. Encoders: milliseconds per MiB chunk of the bench values for our LZ4 block encoder,
//    blosc-lz4 (shuffle, clevel 5) and zstd level 1, and for numcodecs' C Blosc (1 and 2
//    threads) and Zstd (level 1) in zarr-python's Python, on the same chunks.
// 5. Where a fresh-result uncompressed read's time goes: wall time, user and system CPU
//    per `get` of the whole uncompressed array (default options), and with `out` reused.
// 6. Huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1): time, system CPU and minor faults
//    of touching every page of a fresh 256 MiB Float32Array, and wall time, CPU and faults
//    of a whole `zarr get` of the blosc-lz4 array (default options), without and with the
//    tunable: `--runs` child processes each way (default 20), taking turns, started back to
//    back and after `--pause` seconds idle (default 3), and (page touching) a second array
//    in one process at once or after the pause (bench/lib/huge-pages.mjs says why).
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cliGetArgs } from "./lib/cli.mjs";
import { CPUS, MiB, main, NODE, PYTHON, parseArgs, pythonZarr, REPO, reps, requireBuilt, size } from "./lib/common.mjs";
import { readData, variant } from "./lib/data.mjs";
import { hugePageMachine, pageTouchRuns, processRuns } from "./lib/huge-pages.mjs";
import { count, mib, Report, ratio } from "./lib/output.mjs";

const PAGE = 4096;
const SECTIONS = ["faults", "inflate", "workers", "encoders", "read", "hugepages"];

/** Runs `script` (ES module source) in a fresh node with `argv`; returns its stdout. */
function runNode(script, argv) {
  const r = spawnSync(NODE, ["--input-type=module", "-e", script, "--", ...argv], { encoding: "utf8" });
  if (r.status !== 0) {
    const lines = r.stderr.trim().split("\n");
    throw new Error(`floors child failed: ${lines.find((l) => /Error/.test(l)) ?? lines.pop()}`);
  }
  return r.stdout;
}

const faultScript = `
import { Worker } from "node:worker_threads";
const [bytes, threads, reps] = process.argv.slice(1).map(Number);
const src = 'const { parentPort } = require("node:worker_threads"); parentPort.on("message", ({ sab, lo, hi }) => { const a = new Uint8Array(sab); for (let i = lo; i < hi; i += 4096) a[i] = 1; parentPort.postMessage(0); });';
const ws = Array.from({ length: threads }, () => new Worker(src, { eval: true, execArgv: [] }));
await Promise.all(ws.map((w) => new Promise((r) => w.once("online", r))));
let best = Infinity;
for (let k = 0; k < reps + 1; k++) {
  const t = performance.now();
  const sab = new SharedArrayBuffer(bytes);
  const per = Math.ceil(bytes / threads / 4096) * 4096;
  await Promise.all(ws.map((w, i) => new Promise((r) => { w.once("message", r); w.postMessage({ sab, lo: i * per, hi: Math.min(bytes, (i + 1) * per) }); })));
  if (k > 0) best = Math.min(best, performance.now() - t);
}
console.log(JSON.stringify(best));
process.exit(0);
`;

const inflateScript = `
import { readFileSync, readdirSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
const [dir, reps] = [process.argv[1], Number(process.argv[2])];
const chunks = [];
for (const i of readdirSync(dir + "/c")) for (const j of readdirSync(dir + "/c/" + i)) chunks.push(readFileSync(dir + "/c/" + i + "/" + j));
// gzip members: a 10-byte header (no optional fields, as numcodecs writes) and an 8-byte trailer.
const bodies = chunks.map((b) => b.subarray(10, b.length - 8));
let best = Infinity;
for (let k = 0; k < reps; k++) {
  const t = performance.now();
  for (const b of bodies) inflateRawSync(b);
  best = Math.min(best, performance.now() - t);
}
console.log(JSON.stringify(best));
`;

const workerScript = `
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
const n = Number(process.argv[1]);
const ws = [];
for (let i = 0; i < n; i++) ws.push(new Worker("setInterval(() => {}, 1000)", { eval: true, execArgv: [] }));
await Promise.all(ws.map((w) => new Promise((r) => w.once("online", r))));
await new Promise((r) => setTimeout(r, 300));
const hwm = Number(readFileSync("/proc/self/status", "utf8").match(/VmHWM:\\s+(\\d+)/)[1]) * 1024;
console.log(JSON.stringify({ rss: hwm, faults: process.resourceUsage().minorPageFault }));
process.exit(0);
`;

/** The built entry point of package directory `name` (the children run outside any package). */
const dist = (name) => pathToFileURL(join(REPO, "packages", name, "dist", "index.js")).href;

const encoderScript = `
import { bloscCompress, byteShuffle } from "${dist("codec-blosc")}";
import { lz4CompressBlockInto, lz4CompressBound } from "${dist("codec-lz4")}";
import { zstdCompress } from "${dist("codec-zstd")}";
const [n, c, reps] = process.argv.slice(1).map(Number);
const chunks = [];
for (let k = 0; k < Math.min(16, (n / c) ** 2); k++) {
  const v = new Float32Array(c * c);
  const r0 = (k % 4) * c, c0 = Math.floor(k / 4) * c;
  for (let r = 0; r < c && r0 + r < n; r++) for (let q = 0; q < c && c0 + q < n; q++) {
    const i = (r0 + r) * n + c0 + q;
    v[r * c + q] = Math.sin(i * 0.001) * 100 + (i % n) * 0.01;
  }
  chunks.push(new Uint8Array(v.buffer));
}
const best = (fn) => { let b = Infinity; for (let k = 0; k < reps + 1; k++) { const t = performance.now(); fn(); if (k > 0) b = Math.min(b, performance.now() - t); } return b / chunks.length / (chunks[0].length / 1048576); };
const shuffled = chunks.map((ch) => { const s = new Uint8Array(ch.length); byteShuffle(ch, 0, s, 0, ch.length, 4); return s; });
const block = 131072;
const out = new Uint8Array(lz4CompressBound(block));
const lz4 = best(() => { for (const s of shuffled) for (let o = 0; o < s.length; o += block) lz4CompressBlockInto(s.subarray(o, o + block), out, 0, out.length, 5); });
const opts = { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 };
const blosc = best(() => { for (const ch of chunks) bloscCompress(ch, opts); });
const zstd = best(() => { for (const ch of chunks) zstdCompress(ch, 1); });
const total = (f) => chunks.reduce((a, ch) => a + f(ch).length, 0) / chunks.reduce((a, ch) => a + ch.length, 0);
console.log(JSON.stringify({ lz4, blosc, zstd, bloscRatio: total((ch) => bloscCompress(ch, opts)), zstdRatio: total((ch) => zstdCompress(ch, 1)) }));
`;

const readCpuScript = `
import { FileSystemStore, get, openArray } from "${dist("all")}";
const [dir, reps] = [process.argv[1], Number(process.argv[2])];
const array = await openArray(new FileSystemStore(dir, { readOnly: true }), "");
const out = (await get(array)).data;
const rows = [];
for (const [mode, options] of [["fresh", {}], ["out reused", { out }]]) {
  await get(array, null, options);
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  for (let k = 0; k < reps; k++) await get(array, null, options);
  const wall = (performance.now() - t) / reps;
  const cpu = process.cpuUsage(cpu0);
  rows.push({ mode, wall, user: cpu.user / 1000 / reps, system: cpu.system / 1000 / reps });
}
console.log(JSON.stringify(rows));
`;

const bloscPython = `
import json, sys, time
import numpy as np
import numcodecs
from numcodecs import blosc
n, c, reps = (int(a) for a in sys.argv[1:4])
i = np.arange(n * n, dtype=np.float64)
values = (np.sin(i * 0.001) * 100 + (i % n) * 0.01).astype(np.float32).reshape(n, n)
chunks = [np.ascontiguousarray(values[(k % 4) * c:(k % 4 + 1) * c, (k // 4) * c:(k // 4 + 1) * c]) for k in range(min(16, (n // c) ** 2))]
def ms_per_mib(codec):
    """Best of reps + 1 encodings of every chunk: milliseconds per MiB."""
    best = float("inf")
    for _ in range(reps + 1):
        t = time.perf_counter()
        for ch in chunks:
            codec.encode(ch)
        best = min(best, time.perf_counter() - t)
    return best * 1000 / len(chunks) / (chunks[0].nbytes / 1048576)

def ratio(codec):
    return sum(len(codec.encode(ch)) for ch in chunks) / sum(ch.nbytes for ch in chunks)

codec = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=1, blocksize=0)
result = {"ratio": ratio(codec)}
for threads in (1, 2):
    blosc.set_nthreads(threads)
    result["t%d" % threads] = ms_per_mib(codec)
zstd = numcodecs.Zstd(level=1)
result["zstdRatio"] = ratio(zstd)
result["zstd"] = ms_per_mib(zstd)
print(json.dumps(result))
`;

/** 1. Faults of a fresh result, from 1 and 2 threads. */
function faults(report, n, REPS) {
  const faultRows = [];
  for (const threads of [1, 2]) {
    const ms = JSON.parse(runNode(faultScript, [String(n * n * 4), String(threads), String(REPS)]));
    faultRows.push([String(threads), ms.toFixed(1), count((n * n * 4) / PAGE)]);
  }
  report.table("Touching every page of a fresh result (SharedArrayBuffer), ms", ["threads", "ms", "pages"], faultRows, ["r", "r", "r"]);
}

/** 2. node:zlib inflate of the gzip array's chunks, one thread. */
async function inflate(report, n, c, REPS) {
  const { v3: gz } = await readData({ n, c, variant: variant("gzip") });
  const inflateMs = JSON.parse(runNode(inflateScript, [gz, String(REPS)]));
  report.table(
    "node:zlib inflating every chunk of the gzip array on one thread",
    ["chunks", "ms (one thread)", "ms per CPU with all CPUs"],
    [[String((n / c) ** 2), inflateMs.toFixed(0), (inflateMs / CPUS).toFixed(0)]],
    ["r", "r", "r"],
  );
}

/** 3. Idle worker threads. */
function idleWorkers(report) {
  const workerRows = [];
  for (const workers of [0, 1, 2]) {
    const m = JSON.parse(runNode(workerScript, [String(workers)]));
    workerRows.push([String(workers), mib(m.rss), count(m.faults)]);
  }
  report.table("An idle node with idle worker threads (`new Worker`, nothing loaded)", ["workers", "peak RSS", "minor faults"], workerRows, ["r", "r", "r"]);
}

/** 4. Encoders, ours and C's, on the same chunks. */
function encoders(report, n, c, REPS) {
  const ours = JSON.parse(runNode(encoderScript, [String(n), String(c), String(REPS)]));
  const rows = [
    ["@zarr LZ4 block (shuffled input, acceleration 5, 128 KiB blocks)", ours.lz4.toFixed(2), ""],
    ["@zarr blosc-lz4 (shuffle, clevel 5)", ours.blosc.toFixed(2), ours.bloscRatio.toFixed(3)],
    ["@zarr zstd level 1", ours.zstd.toFixed(2), ours.zstdRatio.toFixed(3)],
  ];
  if (pythonZarr().ok) {
    const c1 = JSON.parse(execFileSync(PYTHON, ["-c", bloscPython, String(n), String(c), String(REPS)], { encoding: "utf8" }));
    rows.push(["numcodecs Blosc lz4 (C), 1 thread", c1.t1.toFixed(2), c1.ratio.toFixed(3)]);
    rows.push(["numcodecs Blosc lz4 (C), 2 threads", c1.t2.toFixed(2), c1.ratio.toFixed(3)]);
    rows.push(["numcodecs Zstd level 1 (C)", c1.zstd.toFixed(2), c1.zstdRatio.toFixed(3)]);
  } else report.note("zarr-python is not available: the C encoder rows are skipped.");
  report.table("Encoding one chunk (1 MiB of the bench values), ms per MiB", ["encoder", "ms/MiB", "compressed/raw"], rows, ["l", "r", "r"]);
}

/** 5. The uncompressed read's CPU, fresh result and out reused. */
async function readCpu(report, n, c, REPS) {
  const { v3: raw } = await readData({ n, c, variant: variant("uncompressed") });
  const cpu = JSON.parse(runNode(readCpuScript, [raw, String(Math.max(REPS, 3))]));
  report.table(
    "`get` of the whole uncompressed array (default options), per read: wall and CPU, ms",
    ["result", "wall", "user CPU", "system CPU"],
    cpu.map((r) => [r.mode, r.wall.toFixed(1), r.user.toFixed(1), r.system.toFixed(1)]),
    ["l", "r", "r", "r"],
  );
}

/** The cells mean, median, min, max, sd of a spread. */
const spreadCells = (x, digits = 0) => [x.mean, x.median, x.min, x.max, x.sd].map((v) => v.toFixed(digits));

/** 6. Huge pages: a fresh result's page touching and a whole `zarr get`, without and with the tunable. */
async function hugePages(report, n, c, { runs, pause }) {
  const machine = hugePageMachine();
  report.line(
    `huge pages: glibc ${machine.glibc ?? "none"}, THP enabled ${machine.enabled ?? "–"}, defrag ${machine.defrag ?? "–"}` +
      (machine.reportingOrder === null ? "" : `, free page reporting order ${machine.reportingOrder}`),
  );
  if (!machine.usable) {
    report.note(`huge pages not measured: ${machine.why}.`);
    return;
  }
  if (!(runs >= 1)) throw new Error("--runs needs a positive integer");
  const bytes = n * n * 4;
  const on = (row) => (row.huge ? "hugetlb=1" : "without");
  const touch = await pageTouchRuns({ bytes, runs, pause });
  report.table(
    `Huge pages: touching every page of a fresh ${mib(bytes)} Float32Array in a new process, ${runs} runs each way taking turns, ms`,
    ["memory", "tunable", "mean", "median", "min", "max", "sd", "system CPU (mean)", "minor faults (median)", "huge pages (median)"],
    touch.map((r) => [r.state, on(r), ...spreadCells(r.ms, 1), r.systemMs.mean.toFixed(1), count(r.faults.median), mib(r.hugeBytes.median)]),
    ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r"],
  );
  const { v3: blosc } = await readData({ n, c, variant: variant("blosc-lz4-shuffle") });
  const get = await processRuns({ command: NODE, args: cliGetArgs(blosc), runs, pause });
  report.table(
    `Huge pages: \`zarr get\` of the blosc-lz4 array (default options, -o /dev/null), ${runs} whole processes each way taking turns, wall ms`,
    ["memory", "tunable", "mean", "median", "min", "max", "sd", "CPU (mean)", "system CPU (mean)", "minor faults (median)"],
    get.map((r) => [r.state, on(r), ...spreadCells(r.ms), r.cpuMs.mean.toFixed(0), r.systemMs.mean.toFixed(0), count(r.faults.median)]),
    ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r"],
  );
  for (const [what, rows] of [["page touching", touch], ["zarr get", get]]) {
    for (let i = 0; i < rows.length; i += 2) {
      const [off, huge] = rows[i].huge ? [rows[i + 1], rows[i]] : [rows[i], rows[i + 1]];
      const of = (key, stat) => ratio(huge[key][stat] / off[key][stat]);
      report.note(
        `huge pages, ${what}, ${off.state}: with / without the tunable, wall time ${of("ms", "mean")} (mean; median ${of("ms", "median")}), system CPU ${of("systemMs", "mean")} (mean).`,
      );
    }
  }
}

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n, c } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const REPS = reps(args, 5);
  const only = args.list("--only") ?? SECTIONS;
  for (const name of only) if (!SECTIONS.includes(name)) throw new Error(`--only: unknown section ${JSON.stringify(name)} (have ${SECTIONS.join(", ")})`);
  const want = (name) => only.includes(name);
  const report = new Report({ script: "floors.mjs", title: "Floors: what the machine and Node cost before Zarr code runs", args });
  report.line(`${n}×${n} float32 (${(n * n * 4) / MiB} MiB), ${c}×${c} chunks; best of ${REPS}; ${CPUS} CPUs`);

  if (want("faults")) faults(report, n, REPS);
  if (want("inflate")) await inflate(report, n, c, REPS);
  if (want("workers")) idleWorkers(report);
  if (want("encoders")) encoders(report, n, c, REPS);
  if (want("read")) await readCpu(report, n, c, REPS);
  if (want("hugepages")) await hugePages(report, n, c, { runs: Math.floor(args.number("--runs", args.quick ? 1 : 20)), pause: args.number("--pause", args.quick ? 0.2 : 3) });
  report.finish();
});
