#!/usr/bin/env node
// Reads of arrays whose chunks are all missing: shape [N] uint8 in chunks of [1], nothing
// stored (every element reads as the fill value), for N = 10^6 and 2·10^7 (--quick: 2·10^4).
// The same array as Zarr v3 (written by @zarr) and as Zarr v2 (written by zarr-python 2.13,
// which cannot read v3; our reader reads both).
//
//   (a) in process: the time of `get(array, null)` alone (bench/lib/missing-read.mjs) vs
//       zarr-python's `z[:]` alone, each in a process of its own, with that process's peak RSS;
//   (b) whole process: `zarr get STORE / -o /dev/null` (default options: .npy, worker pool on)
//       vs `python3 -c 'zarr.open(STORE)[:]'`, wall time and peak RSS;
//   (c) shape [10^15]: `zarr get` runs for --seconds (default 10; --quick 3) and is killed; its
//       RSS, sampled every 100 ms, must stay under a constant (such a read takes forever, its
//       memory must not grow).
//
//   node bench/missing-chunks.mjs                  10^6 and 2·10^7 chunks; zarr-python up to 10^6 only
//   node bench/missing-chunks.mjs --python-all     zarr-python at 2·10^7 too (about 15 minutes on its own)
//   node bench/missing-chunks.mjs --quick          2·10^4 chunks, 3 s of the 10^15 read
//   options: --sizes 1e6,2e7  --reps N  --seconds S  --json FILE
//
// Targets: at most 10 µs per missing chunk and @zarr / zarr-python ≤ 1 (in process and whole
// process); peak RSS ≤ 1.2 × result + the idle process's RSS + 64 MiB (the modules loaded), and
// its growth from the smallest to the largest N ≤ 1.2 × the results' growth; the 10^15 read's RSS
// under 256 MiB.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createArray } from "@zarr/all";
import { FileSystemStore } from "@zarr/store-fs";
import { CLI, LIB, MiB, main, NODE, PYTHON, parseArgs, pythonZarr, reps as repsOf, requireBuilt, skipping } from "./lib/common.mjs";
import { dataRoot } from "./lib/data.mjs";
import { median, rusage, tail } from "./lib/measure.mjs";
import { count, mib, Report, ratio, seconds } from "./lib/output.mjs";

/** zarr-python's in-process read: prints the time of `z[:]` alone. */
const PY_READ = "import sys,time,zarr\nz=zarr.open(sys.argv[1],mode='r')\nt=time.perf_counter()\na=z[:]\nprint(time.perf_counter()-t)";
/** zarr-python's whole-process read. */
const PY_WHOLE = "import sys,zarr\nzarr.open(sys.argv[1],mode='r')[:]";
/** zarr-python writes the v2 array (metadata only: nothing is stored). */
const PY_CREATE = "import sys,zarr\nzarr.open(sys.argv[1],mode='w',shape=(int(sys.argv[2]),),chunks=(1,),dtype='u1',fill_value=0)";

/** The directory of an empty array of `n` chunks in `format` (made once, cached under dataRoot()). */
async function emptyArray(n, format) {
  const dir = join(dataRoot(), "missing-chunks", `${format}-${n}`);
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  if (format === "v2") runOk(PYTHON, ["-c", PY_CREATE, tmp, String(n)]);
  else await createArray(new FileSystemStore(tmp), "", { shape: [n], chunkShape: [1], dataType: "uint8", fillValue: 0 });
  renameSync(tmp, dir);
  return dir;
}

/** `rusage` of a command that must succeed. */
function runOk(command, args) {
  const r = rusage(command, args);
  if (r.status !== 0) throw new Error(`${[command, ...args].join(" ")} failed (exit ${r.status}): ${tail(r.stderr)}`);
  return r;
}

/** Median of `reps` runs of `measure()` → `{ seconds, maxRss }`; seconds and RSS each by median. */
function medianOf(reps, measure) {
  const runs = Array.from({ length: reps }, measure);
  return { seconds: median(runs.map((r) => r.seconds)), maxRss: median(runs.map((r) => r.maxRss)) };
}

/** Runs a read child under rusage.py with its stdout captured to a file: `{ seconds (the call), maxRss }`. */
function timedChild(command, args, parse) {
  const out = join(dataRoot(), "missing-chunks", `out-${process.pid}.txt`);
  const r = runOk("/bin/sh", ["-c", `"$0" "$@" > "${out}"`, command, ...args]);
  const text = readFileSync(out, "utf8");
  rmSync(out, { force: true });
  return { seconds: parse(text), maxRss: r.maxRss, wall: r.seconds };
}

/** Peak RSS of a process over `secs` seconds (sampled from /proc every 100 ms), then kills it. */
function rssOver(command, args, secs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const samples = [];
    const sample = () => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (m) samples.push({ t: performance.now(), rss: Number(m[1]) * 1024 });
      } catch {
        // exited between samples
      }
    };
    const timer = setInterval(sample, 100);
    const t0 = performance.now();
    const stop = setTimeout(() => child.kill("SIGKILL"), secs * 1000);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearInterval(timer);
      clearTimeout(stop);
      if (signal !== "SIGKILL") return reject(new Error(`zarr get of the 10^15 array ended early (${signal ?? `exit ${code}`}): ${tail(stderr)}`));
      const half = t0 + (secs * 1000) / 2;
      const max = (xs) => Math.max(0, ...xs.map((s) => s.rss));
      resolve({ max: max(samples), firstHalf: max(samples.filter((s) => s.t < half)), secondHalf: max(samples.filter((s) => s.t >= half)), n: samples.length });
    });
  });
}

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const sizes = (args.list("--sizes") ?? (args.quick ? ["2e4"] : ["1e6", "2e7"])).map(Number);
  const REPS = repsOf(args, 1);
  const SECS = args.number("--seconds", args.quick ? 3 : 10);
  const pythonAll = args.flag("--python-all");
  const py = pythonZarr();
  const report = new Report({ script: "missing-chunks.mjs", title: "Reads of arrays whose chunks are all missing", args });
  report.line(`shape [N] uint8 in chunks of [1], nothing stored; N = ${sizes.map(count).join(", ")}; median of ${REPS}`);
  report.line("in process: the read call alone, in a process of its own (`bench/lib/missing-read.mjs`; zarr-python `z[:]`); whole process: `zarr get STORE / -o /dev/null` vs `python3 -c 'zarr.open(STORE)[:]'`");
  if (!py.ok) report.note(skipping("zarr-python", py.why));

  const idle = runOk(NODE, ["-e", ""]).maxRss;
  const rows = [];
  /** Per size, the largest peak RSS of our reads: how memory grows with the chunk count. */
  const peaks = [];
  for (const n of sizes) {
    const v3 = await emptyArray(n, "v3");
    const v2 = py.ok ? await emptyArray(n, "v2") : undefined;
    const bytes = n; // uint8
    const memLimit = 1.2 * bytes + idle + 64 * MiB;
    const withPython = py.ok && (n <= 2e6 || pythonAll);
    if (py.ok && !withPython) report.note(`zarr-python at ${count(n)} chunks skipped (about 40 µs each; pass --python-all)`);
    const ours = (dir) => medianOf(REPS, () => timedChild(NODE, [join(LIB, "missing-read.mjs"), dir], (t) => JSON.parse(t).seconds));
    const theirs = (dir) => medianOf(REPS, () => timedChild(PYTHON, ["-c", PY_READ, dir], Number));
    const wholeOurs = (dir) => medianOf(REPS, () => runOk(NODE, [CLI, "get", dir, "/", "-o", "/dev/null"]));
    const wholeTheirs = (dir) => medianOf(REPS, () => runOk(PYTHON, ["-c", PY_WHOLE, dir]));
    const measured = [
      ["in process", "v3", ours(v3)],
      ["in process", "v2", v2 && ours(v2)],
      ["in process", "v2 zarr-python", withPython ? theirs(v2) : undefined],
      ["whole process", "v3", wholeOurs(v3)],
      ["whole process", "v2", v2 && wholeOurs(v2)],
      ["whole process", "v2 zarr-python", withPython ? wholeTheirs(v2) : undefined],
    ];
    peaks.push({ n, rss: Math.max(...measured.filter(([, w, r]) => r && !w.includes("zarr-python")).map(([, , r]) => r.maxRss)) });
    for (const mode of ["in process", "whole process"]) {
      const python = measured.find(([m, w]) => m === mode && w === "v2 zarr-python")[2];
      for (const [m, what, r] of measured) {
        if (m !== mode || r === undefined) continue;
        const isOurs = !what.includes("zarr-python");
        const vsPython = isOurs && python && what === "v2" ? r.seconds / python.seconds : undefined;
        rows.push([count(n), mode, isOurs ? `@zarr ${what}` : "zarr-python v2", seconds(r.seconds), ((r.seconds / n) * 1e6).toFixed(2), mib(r.maxRss), ratio(r.maxRss / (bytes + idle)), ratio(vsPython)]);
        if (!isOurs) continue;
        report.target({ name: `${count(n)} chunks, ${mode}, @zarr ${what}: µs per missing chunk`, value: (r.seconds / n) * 1e6, op: "≤", limit: 10, unit: "µs" });
        report.target({ name: `${count(n)} chunks, ${mode}, @zarr ${what}: peak RSS`, value: r.maxRss, op: "≤", limit: memLimit, unit: "MiB", detail: "1.2 × result + idle node + 64 MiB" });
        if (vsPython !== undefined) report.target({ name: `${count(n)} chunks, ${mode}: @zarr v2 / zarr-python`, value: vsPython, op: "≤", limit: 1 });
      }
    }
  }
  report.table(
    "Reads of N missing chunks",
    ["chunks", "mode", "reader", "seconds", "µs / chunk", "peak RSS", "RSS / (result + idle node)", "@zarr / zarr-python"],
    rows,
    ["r", "l", "l", "r", "r", "r", "r", "r"],
  );
  if (peaks.length > 1) {
    const [a, b] = [peaks[0], peaks[peaks.length - 1]];
    report.target({ name: `peak RSS growth from ${count(a.n)} to ${count(b.n)} chunks / result growth`, value: (b.rss - a.rss) / (b.n - a.n), op: "≤", limit: 1.2 });
  }
  report.note(`idle node process: ${mib(idle)} peak RSS; µs / chunk is the time over N (all chunks missing).`);

  const huge = await emptyArray(1e15, "v3");
  const h = await rssOver(NODE, [CLI, "get", huge, "/", "-o", "/dev/null"], SECS);
  report.table(
    `zarr get of shape [10^15] (chunks [1], nothing stored), killed after ${SECS} s`,
    ["RSS samples", "peak RSS", "peak, first half", "peak, second half"],
    [[String(h.n), mib(h.max), mib(h.firstHalf), mib(h.secondHalf)]],
    ["r", "r", "r", "r"],
  );
  report.target({ name: "10^15 chunks: peak RSS while reading", value: h.max, op: "≤", limit: 256 * MiB, unit: "MiB" });
  report.note("The 10^15 read writes a .npy slab by slab (32 MiB slabs, two in flight): its RSS must level off, not grow with the chunks read.");
  report.finish();
});
