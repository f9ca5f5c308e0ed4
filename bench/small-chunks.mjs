#!/usr/bin/env node
// Many small chunks: a 64 MiB float32 array (4096×4096) in 4096 chunks of 64×64, written by
// zarr-python 2.13 (Zarr v2; compressor None, and gzip level 1), read whole by three
// processes: our CLI (`zarr get STORE / -o /dev/null`), zarr-python
// (`python3 bench/lib/zarr_python.py read STORE`: z[:]) and zarrita.js
// (bench/lib/zarrita-read.mjs). Per-chunk overhead dominates: store requests, metadata-free
// chunk lookups, small decodes and copies.
//
//   node bench/small-chunks.mjs             4096×4096 float32 (64 MiB), 64×64 chunks (4096), median of 5
//   node bench/small-chunks.mjs --quick     1024×1024, 64×64 chunks (256), one run
//   options: --only raw,gzip  --reps N  --size N --chunk C  --json FILE
//
// Target: @zarr time / zarr-python time ≤ 1.3.
import { peers, raceReaders } from "./lib/cli.mjs";
import { CPUS, MiB, main, parseArgs, reps, requireBuilt, size } from "./lib/common.mjs";
import { SMALL_VARIANTS, pickVariants, smallChunkData } from "./lib/data.mjs";
import { Report, ratio, seconds, throughput } from "./lib/output.mjs";

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n, c } = size(args, { n: 4096, c: 64 }, { n: 1024, c: 64 });
  const REPS = reps(args, 5);
  const variants = pickVariants(args.list("--only"), SMALL_VARIANTS);
  const bytes = n * n * 4;
  const chunks = Math.ceil(n / c) ** 2;
  const report = new Report({ script: "small-chunks.mjs", title: "Many small chunks (Zarr v2 by zarr-python, whole-process read)", args });
  report.line(`${n}×${n} float32 (${(bytes / MiB).toFixed(0)} MiB) in ${chunks} chunks of ${c}×${c}, Zarr v2; median of ${REPS}, taking turns; ${CPUS} CPUs`);
  report.line("@zarr: `zarr get STORE / -o /dev/null`; zarr-python: `python3 bench/lib/zarr_python.py read STORE`; zarrita.js: `node bench/lib/zarrita-read.mjs STORE`");

  const available = await peers(report);

  const rows = [];
  for (const v of variants) {
    const { path, writer } = await smallChunkData({ n, c, variant: v });
    if (writer !== "zarr-python") report.note(`${v.name}: data written by ${writer}`);
    const t = await raceReaders(report, available, { label: v.name, ours: path, zarrita: path, python: path, reps: REPS, quick: args.quick });
    rows.push([
      v.name,
      seconds(t["@zarr"]),
      throughput(bytes, t["@zarr"]),
      seconds(t["zarr-python"]),
      seconds(t["zarrita.js"]),
      ratio(t["@zarr"] / t["zarr-python"]),
      ratio(t["zarrita.js"] / t["@zarr"]),
    ]);
    report.target({ name: `small chunks ${v.name}: @zarr CLI / zarr-python`, value: t["@zarr"] / t["zarr-python"], op: "≤", limit: 1.3 });
  }
  report.table(
    "Whole-process read, seconds",
    ["compressor", "@zarr CLI", "MiB/s", "zarr-python", "zarrita.js", "@zarr / zarr-python", "zarrita.js / @zarr"],
    rows,
    ["l", "r", "r", "r", "r", "r", "r"],
  );
  report.note("@zarr / zarr-python: below 1 means @zarr is faster; zarrita.js / @zarr: above 1 means @zarr is faster.");
  report.finish();
});
