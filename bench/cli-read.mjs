#!/usr/bin/env node
// CLI whole-process read: `node packages/cli/bin/zarr.js get STORE / -o /dev/null` (default
// options) against zarrita.js reading the same Zarr v3 array whole into memory in a process
// of its own (bench/lib/zarrita-read.mjs), and zarr-python 2.13 doing the same from the
// byte-identical v2 copy (for reference), for every codec of bench/read.mjs. Each time is a
// whole process: start-up, module loading, the read, exit.
//
//   node bench/cli-read.mjs                  8192×8192 float32 (256 MiB), 512×512 chunks, median of 5
//   node bench/cli-read.mjs --quick          1024×1024, 256×256 chunks, one run (a smoke test)
//   options: --only gzip,zstd  --reps N  --size N --chunk C  --json FILE (for bench/report.mjs)
//
// Target: zarrita.js time / @zarr time ≥ 2 on compressed codecs.
import { peers, raceReaders } from "./lib/cli.mjs";
import { CPUS, MiB, main, parseArgs, reps, requireBuilt, size } from "./lib/common.mjs";
import { pickVariants, readData } from "./lib/data.mjs";
import { Report, ratio, seconds, throughput } from "./lib/output.mjs";

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n, c } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const REPS = reps(args, 5);
  const variants = pickVariants(args.list("--only"));
  const report = new Report({ script: "cli-read.mjs", title: "CLI whole-process read (zarr get vs zarrita.js vs zarr-python)", args });
  const bytes = n * n * 4;
  report.line(`${n}×${n} float32 (${(bytes / MiB).toFixed(0)} MiB), ${c}×${c} chunks; median of ${REPS} runs, the readers taking turns; ${CPUS} CPUs`);
  report.line("@zarr: `node packages/cli/bin/zarr.js get STORE / -o /dev/null`, default options");
  report.line("zarrita.js: `node bench/lib/zarrita-read.mjs STORE` (zarrita.get of the whole array, into memory)");
  report.line("zarr-python: `python3 bench/lib/zarr_python.py read STORE_V2` (z[:] of the byte-identical v2 copy)");

  const available = await peers(report);

  const rows = [];
  for (const v of variants) {
    const data = await readData({ n, c, variant: v });
    const t = await raceReaders(report, available, { label: v.name, ours: data.v3, zarrita: data.v3, python: data.v2, reps: REPS, quick: args.quick });
    rows.push([
      v.name,
      seconds(t["@zarr"]),
      throughput(bytes, t["@zarr"]),
      seconds(t["zarrita.js"]),
      seconds(t["zarr-python"]),
      ratio(t["zarrita.js"] / t["@zarr"]),
      ratio(t["zarr-python"] / t["@zarr"]),
    ]);
    if (v.name !== "uncompressed") {
      report.target({ name: `CLI read ${v.name}: zarrita.js / @zarr`, value: t["zarrita.js"] / t["@zarr"], op: "≥", limit: 2 });
    }
  }
  report.table(
    "Whole-process read, seconds",
    ["codec", "@zarr CLI", "MiB/s", "zarrita.js", "zarr-python", "zarrita.js / @zarr", "zarr-python / @zarr"],
    rows,
    ["l", "r", "r", "r", "r", "r", "r"],
  );
  report.note("Ratios are the other reader's time / @zarr's time: above 1 means @zarr is faster.");
  report.finish();
});
