#!/usr/bin/env node
// Write benchmark: the 256 MiB float32 array of the read benchmark (8192×8192, 512×512
// chunks) written from memory to local disk by @zarr and zarrita.js (Zarr v3) and by
// zarr-python 2.13 (Zarr v2), in several encodings, in one run. Prints a markdown table of
// times, throughput and ratios.
//
//   node bench/write.mjs                   every variant, @zarr and zarrita.js in this process
//                                          (the TypeScript zstd encoder is slow: minutes)
//   node bench/write.mjs --isolated        each writer in a process of its own (bench/lib/write-child.mjs),
//                                          so no writer inherits another's heap, GC debt or JIT state
//   node bench/write.mjs --quick           1024×1024 (256×256 chunks), one repetition (alias: --smoke)
//   node bench/write.mjs --only gzip       some variants
//   node bench/write.mjs --workers 2       @zarr encodes in a pool of 2 worker threads (set(..., { workers }))
//   options: --reps N  --size N --chunk C  --json FILE (for bench/report.mjs)
//
// zarr-python always runs in its own process. Times are of the writes alone (the values are
// generated before timing), median of the repetitions.
//
// Targets (speed-up = the other writer's time / @zarr's time): uncompressed ≥ 1.5 vs zarrita.js
// and ≥ 0.5 vs zarr-python; compressed ≥ 2 vs zarrita.js and ≥ 1 vs zarr-python.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { CPUS, LIB, MiB, NODE, loadZarrita, main, parseArgs, pythonZarr, reps, requireBuilt, size, skipping } from "./lib/common.mjs";
import { VARIANTS, benchValues, dataRoot, pickVariants } from "./lib/data.mjs";
import { Report, ratio, seconds, throughput } from "./lib/output.mjs";
import { WRITERS, writePython } from "./lib/writers.mjs";

const WRITE_VARIANTS = VARIANTS.filter((v) => ["uncompressed", "gzip", "zstd", "blosc-lz4-shuffle"].includes(v.name));

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n: N, c: C } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const REPS = reps(args, 3);
  const isolated = args.flag("--isolated");
  const workers = args.number("--workers", 0);
  const variants = pickVariants(args.list("--only"), WRITE_VARIANTS);
  const dir = join(dataRoot(), `write-${process.pid}`);
  const mode = `${isolated ? "isolated" : "in-process"}${workers > 0 ? `, ${workers} workers` : ""}`;
  const report = new Report({ script: "write.mjs", title: `Write (${mode}: @zarr vs zarrita.js vs zarr-python)`, args });
  report.line(`${N}×${N} float32 (${(N * N * 4) / MiB} MiB) from memory to local disk (${dir}), ${C}×${C} chunks; median of ${REPS}; ${CPUS} CPUs`);
  report.line(
    isolated
      ? "@zarr and zarrita.js: each writer and codec in a process of its own (bench/lib/write-child.mjs); zarr-python in its own process"
      : "@zarr and zarrita.js: one after the other in this process; zarr-python in its own process",
  );
  report.line(workers > 0 ? `@zarr encodes in ${workers} worker threads (createWorkerPool, passed to set)` : "@zarr: default options (encoding on the main thread)");

  const zarrita = await loadZarrita();
  if (!zarrita.ok) report.note(skipping("zarrita.js", zarrita.why));
  const python = pythonZarr();
  if (!python.ok) report.note(skipping("zarr-python", python.why));
  const writers = Object.keys(WRITERS).filter((w) => w !== "zarrita.js" || zarrita.ok);
  const values = isolated ? undefined : benchValues(N);

  const rows = [];
  try {
    for (const v of variants) {
      const t = {};
      for (const w of writers) {
        try {
          t[w] = isolated
            ? JSON.parse(
                execFileSync(NODE, [join(LIB, "write-child.mjs"), w, v.name, String(N), String(C), String(REPS), join(dir, w), String(workers)], {
                  encoding: "utf8",
                  stdio: ["ignore", "pipe", "pipe"],
                }),
              )
            : await WRITERS[w]({ dir, n: N, c: C, variant: v, values, reps: REPS, workers });
        } catch (error) {
          const message = error.stderr?.trim()
            ? error.stderr.trim().split("\n").pop().replace(/^write-child: /, "")
            : `${error.message.split("\n")[0]}${error.cause ? ` (${error.cause.message ?? error.cause})` : ""}`;
          report.note(`${w} cannot write ${v.name}: ${message}`);
        }
      }
      if (python.ok) {
        try {
          t["zarr-python"] = writePython({ dir, n: N, c: C, variant: v, reps: REPS });
        } catch (error) {
          report.note(`zarr-python cannot write ${v.name}: ${error.message.split("\n")[0]}`);
        }
      }
      rows.push({ variant: v.name, t });
      const compressed = v.name !== "uncompressed";
      const label = compressed ? `${v.name} (compressed)` : v.name;
      report.target({ name: `write ${label}, ${mode}: zarrita.js / @zarr`, value: t["zarrita.js"] / t["@zarr"], op: "≥", limit: compressed ? 2 : 1.5 });
      report.target({ name: `write ${label}, ${mode}: zarr-python / @zarr`, value: t["zarr-python"] / t["@zarr"], op: "≥", limit: compressed ? 1 : 0.5 });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const table = [];
  for (const r of rows) {
    for (const [writer, t] of Object.entries(r.t)) {
      table.push([r.variant, writer, seconds(t), throughput(N * N * 4, t), writer === "@zarr" ? "" : ratio(t / r.t["@zarr"])]);
    }
  }
  report.table("Write times", ["variant", "writer", "time (s)", "MiB/s", "this / @zarr"], table, ["l", "l", "r", "r", "r"]);
  report.note("this / @zarr = the other writer's time / @zarr's time (@zarr's speed-up): above 1 means @zarr is faster.");
  report.finish();
});
