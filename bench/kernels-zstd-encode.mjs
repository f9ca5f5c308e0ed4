#!/usr/bin/env node
// The zstd encoder's WebAssembly kernel against the same encoder in TypeScript, on one thread,
// on chunks of the write benchmark's array (sin(i * 0.001) * 100 + (i % n) * 0.01 as float32,
// n×n in c×c chunks: 1 MiB chunks at the default 512×512), at levels 1, 3 and 5:
//   - the raw encoders: zstdCompress (TypeScript) and the kernel (same bytes: checked);
//   - the codec's whole encode (createZstdCodec(...).encode) with kernels on and off
//     (setWasmKernels), which is what a write does per chunk;
//   - numcodecs' Zstd (libzstd, C) on the same chunks, in Python, for reference;
//   - whole writes of the array (bench/write.mjs's writers, zstd level 1, each in a process of
//     its own): @zarr with kernels on and off (ZARR_WASM=0), zarrita.js and zarr-python, as CPU
//     seconds per write: the process's CPU time (bench/lib/rusage.py) for 1 + R writes minus
//     that for 1 write, so start-up and generating the values cancel out.
// Times are CPU time (the machine is shared: wall times swing with other jobs), medians of the
// repetitions; ratios are TypeScript / WASM (the kernel's speed-up) or peer / @zarr.
//
//   node bench/kernels-zstd-encode.mjs                  16 chunks of the 8192×8192 array, 5 repetitions
//   node bench/kernels-zstd-encode.mjs --quick          4 chunks, 1 repetition
//   options: --levels 1,3,5  --chunks K  --size N  --chunk C  --reps R  --json FILE
//            --write-size N (default 4096: a 64 MiB array; 0 skips the whole writes)  --write-reps R (default 3)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { LIB, loadZarrita, MiB, main, NODE, PYTHON, parseArgs, pythonZarr, REPO, reps, size } from "./lib/common.mjs";
import { benchChunk, variant } from "./lib/data.mjs";
import { cpuMs } from "./lib/measure.mjs";
import { Report, ratio } from "./lib/output.mjs";

const dist = (pkg, file = "index.js") => pathToFileURL(join(REPO, "packages", pkg, "dist", file)).href;



async function cpuMsAsync(fn) {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** numcodecs Zstd encode time per MiB (CPU ms, median of `repetitions`) of the chunks in `file`. */
function numcodecsMsPerMib(file, chunkBytes, levels, repetitions) {
  const script = `
import json, sys, time
import numcodecs
data = open(sys.argv[1], "rb").read()
size = int(sys.argv[2])
chunks = [data[i:i + size] for i in range(0, len(data), size)]
out = {}
for level in json.loads(sys.argv[3]):
    codec = numcodecs.Zstd(level=level)
    codec.encode(chunks[0])
    times = []
    for _ in range(int(sys.argv[4])):
        start = time.process_time()
        for ch in chunks:
            codec.encode(ch)
        times.append(time.process_time() - start)
    times.sort()
    out[level] = times[len(times) // 2] * 1000 / (len(data) / 1048576)
print(json.dumps(out))
`;
  const text = execFileSync(PYTHON, ["-c", script, file, String(chunkBytes), JSON.stringify(levels), String(repetitions)], { encoding: "utf8" });
  return JSON.parse(text);
}

/** CPU seconds (user + system) of a process running `command` (bench/lib/rusage.py). */
function processCpu(command, env = {}) {
  const out = execFileSync(PYTHON, [join(LIB, "rusage.py"), ...command], { encoding: "utf8", env: { ...process.env, ...env } });
  const r = JSON.parse(out);
  if (r.status !== 0) throw new Error(`${command.join(" ")} failed: ${r.stderr.trim().split("\n").pop()}`);
  return r.utime + r.stime;
}

/**
 * CPU seconds per write of the n×n array in c×c chunks (zstd level 1) by each writer, each in
 * a process of its own: (CPU of 1 + reps writes − CPU of 1 write) / reps, median of `rounds`.
 */
function wholeWrites(n, c, repetitions, rounds, dir) {
  const zstd = variant("zstd");
  const writers = {
    "@zarr (kernel)": (r) => processCpu([NODE, join(LIB, "write-child.mjs"), "@zarr", "zstd", String(n), String(c), String(r), join(dir, "a")]),
    "@zarr (TypeScript)": (r) =>
      processCpu([NODE, join(LIB, "write-child.mjs"), "@zarr", "zstd", String(n), String(c), String(r), join(dir, "b")], { ZARR_WASM: "0" }),
    "zarrita.js": (r) => processCpu([NODE, join(LIB, "write-child.mjs"), "zarrita.js", "zstd", String(n), String(c), String(r), join(dir, "c")]),
    "zarr-python": (r) =>
      processCpu([PYTHON, join(LIB, "zarr_python.py"), "time-write", join(dir, "d"), String(n), String(c), JSON.stringify(zstd.v2), String(r)]),
  };
  const perWrite = {};
  for (const name of Object.keys(writers)) perWrite[name] = [];
  for (let round = 0; round < rounds; round++) {
    // Interleaved, so load on the machine hits every writer alike.
    for (const [name, run] of Object.entries(writers)) perWrite[name].push((run(1 + repetitions) - run(1)) / repetitions);
  }
  return Object.fromEntries(Object.entries(perWrite).map(([name, xs]) => [name, median(xs)]));
}

await main(async () => {
  const args = parseArgs();
  const { n: N, c: C } = size(args, { n: 8192, c: 512 }, { n: 8192, c: 512 });
  const REPS = reps(args, 5);
  const K = args.number("--chunks", args.quick ? 4 : 16);
  const levels = (args.list("--levels") ?? ["1", "3", "5"]).map(Number);
  const { zstdCompress, createZstdCodec } = await import(dist("codec-zstd"));
  const { zstdCompressWithKernel, zstdEncodeKernelReady } = await import(dist("codec-zstd", "encoder/kernel.js"));
  // The kernel's bytes are imported on the first encode (the codec awaits this; direct calls must).
  await zstdEncodeKernelReady();
  const { setWasmKernels } = await import(dist("spec"));

  // K chunks spread over the array's grid (C order, evenly spaced).
  const perRow = N / C;
  const total = perRow * perRow;
  const chunks = Array.from({ length: K }, (_, k) => {
    const index = Math.floor((k * total) / K);
    return benchChunk(N, C, Math.floor(index / perRow), index % perRow);
  });
  const mib = (chunks.length * chunks[0].length) / MiB;

  const report = new Report({ script: "kernels-zstd-encode.mjs", title: "zstd encoder: WebAssembly kernel vs TypeScript (one thread)", args });
  report.line(`${K} chunks of ${C}×${C} float32 (${mib} MiB in all) from the ${N}×${N} write-benchmark array; CPU ms per MiB, median of ${REPS}`);
  report.line(`Node ${process.versions.node}; the machine is shared: CPU time, not wall time, and ratios from the same run`);

  const python = pythonZarr();
  let reference = {};
  if (python.ok) {
    const dir = mkdtempSync(join(tmpdir(), "zstd-encode-bench-"));
    try {
      const file = join(dir, "chunks.bin");
      const all = new Uint8Array(chunks.length * chunks[0].length);
      for (const [i, ch] of chunks.entries()) all.set(ch, i * ch.length);
      writeFileSync(file, all);
      reference = numcodecsMsPerMib(file, chunks[0].length, levels, REPS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    report.note(`numcodecs not measured: ${python.why}`);
  }

  const rows = [];
  for (const level of levels) {
    // Same bytes, or the comparison means nothing.
    let compressed = 0;
    for (const ch of chunks) {
      const ts = zstdCompress(ch, level);
      const wasm = zstdCompressWithKernel(ch, level, false, "bench");
      if (wasm === undefined || wasm.length !== ts.length || wasm.some((b, i) => b !== ts[i])) {
        throw new Error(`level ${level}: the kernel's frame differs from the TypeScript encoder's`);
      }
      compressed += ts.length;
    }
    const codec = createZstdCodec({ level, checksum: false });
    const encodeAll = async () => {
      for (const ch of chunks) await codec.encode(ch, { key: "bench" });
    };
    const times = { ts: [], wasm: [], codecTs: [], codecWasm: [] };
    for (let r = 0; r < REPS; r++) {
      // Interleaved, so load on the machine hits both sides alike.
      times.wasm.push(
        cpuMs(() => {
          for (const ch of chunks) zstdCompressWithKernel(ch, level, false, "bench");
        }),
      );
      times.ts.push(
        cpuMs(() => {
          for (const ch of chunks) zstdCompress(ch, level);
        }),
      );
      setWasmKernels(true);
      times.codecWasm.push(await cpuMsAsync(encodeAll));
      setWasmKernels(false);
      times.codecTs.push(await cpuMsAsync(encodeAll));
      setWasmKernels(true);
    }
    const per = (xs) => median(xs) / mib;
    const wasm = per(times.wasm);
    const ts = per(times.ts);
    const codecWasm = per(times.codecWasm);
    const codecTs = per(times.codecTs);
    const c = reference[level];
    rows.push([
      level,
      (mib * MiB / compressed).toFixed(3),
      ts.toFixed(2),
      wasm.toFixed(2),
      ratio(ts / wasm),
      codecTs.toFixed(2),
      codecWasm.toFixed(2),
      ratio(codecTs / codecWasm),
      c === undefined ? "–" : c.toFixed(2),
      c === undefined ? "–" : ratio(c / codecWasm),
    ]);
  }
  report.table(
    "CPU ms per MiB of input",
    ["level", "ratio", "TS", "WASM", "TS / WASM", "codec TS", "codec WASM", "codec TS / WASM", "numcodecs (C)", "C / codec WASM"],
    rows,
    ["r", "r", "r", "r", "r", "r", "r", "r", "r", "r"],
  );
  report.note("TS / WASM above 1: the kernel is faster. C / codec WASM above 1: the kernel-backed codec is faster than numcodecs' libzstd.");

  const writeSize = args.number("--write-size", args.quick ? 1024 : 4096);
  if (writeSize > 0) {
    const zarrita = await loadZarrita();
    if (!python.ok || !zarrita.ok) {
      report.note(`whole writes not measured: ${python.ok ? zarrita.why : python.why}`);
    } else {
      const dir = mkdtempSync(join(tmpdir(), "zstd-encode-writes-"));
      try {
        const cpu = wholeWrites(writeSize, Math.min(C, writeSize), Math.max(1, args.number("--write-reps", args.quick ? 1 : 3)), REPS, dir);
        const ours = cpu["@zarr (kernel)"];
        report.table(
          `Whole writes, zstd level 1: CPU seconds per write of a ${writeSize}×${writeSize} float32 array (${(writeSize * writeSize * 4) / MiB} MiB), each writer in its own process`,
          ["writer", "CPU s per write", "this / @zarr (kernel)"],
          Object.entries(cpu).map(([name, s]) => [name, s.toFixed(3), name === "@zarr (kernel)" ? "" : ratio(s / ours)]),
          ["l", "r", "r"],
        );
        report.target({ name: "whole write, zstd, CPU: zarr-python / @zarr", value: cpu["zarr-python"] / ours, op: "≥", limit: 1 });
        report.target({ name: "whole write, zstd, CPU: zarrita.js / @zarr", value: cpu["zarrita.js"] / ours, op: "≥", limit: 2 });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  report.finish();
});
