#!/usr/bin/env node
// Memory of a whole-process read: peak RSS and minor page faults of
// `zarr get STORE / -o /dev/null` reading the whole array (uncompressed and zstd), against
// the result's size plus what an idle node process (`node -e ""`) takes. The default
// `zarr get` of these arrays writes them in slabs (cli/src/npy-slabs.ts); the same read as
// one result (`--select ...`) is measured too, for reference. zarrita.js
// (bench/lib/zarrita-read.mjs) and, uncompressed, the raw floor (bench/lib/floor-read.mjs)
// are measured the same way for reference.
//
// Each child is measured by bench/lib/rusage.py (python3's resource.getrusage(RUSAGE_CHILDREN)
// after the child exits: ru_maxrss and ru_minflt); without python3, by GNU time
// (/usr/bin/time -f "%M %R"; apt-get install time).
//
//   node bench/memory.mjs             8192×8192 float32 (256 MiB result), 512×512 chunks, median of 3
//   node bench/memory.mjs --quick     1024×1024, 256×256 chunks, one run
//   options: --reps N  --size N --chunk C  --json FILE
//
// Targets: peak RSS ≤ result bytes × 1.15 + idle node's peak RSS;
//          minor faults ≤ 1.2 × (result pages + idle node's minor faults).
import { join } from "node:path";
import { probeCliGet } from "./lib/cli.mjs";
import { CPUS, LIB, NODE, loadZarrita, main, parseArgs, reps, requireBuilt, size, skipping } from "./lib/common.mjs";
import { readData, variant } from "./lib/data.mjs";
import { median, rusage, rusageTool, tail } from "./lib/measure.mjs";
import { Report, count, mib, ratio } from "./lib/output.mjs";

const PAGE = 4096;

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n, c } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const REPS = reps(args, 3);
  const resultBytes = n * n * 4;
  const report = new Report({ script: "memory.mjs", title: "Memory of a whole-process read (zarr get -o /dev/null)", args });
  const tool = rusageTool();
  if (tool === null) throw new Error("cannot measure child processes: neither /usr/bin/python3 nor GNU time (apt-get install time) is available");
  report.line(`${n}×${n} float32 (result ${mib(resultBytes)}, ${count(resultBytes / PAGE)} pages of 4 KiB), ${c}×${c} chunks; median of ${REPS}; ${CPUS} CPUs`);
  report.line(`measured with ${tool}`);
  const zarrita = await loadZarrita();
  if (!zarrita.ok) report.note(skipping("zarrita.js", zarrita.why));

  /** Median peak RSS and minor faults of REPS runs of a command. */
  const measure = (label, command, argv) => {
    const runs = [];
    for (let r = 0; r < REPS; r++) {
      const m = rusage(command, argv);
      if (m.status !== 0) throw new Error(`${label} failed (exit ${m.status}): ${tail(m.stderr)}`);
      runs.push(m);
    }
    return { maxRss: median(runs.map((m) => m.maxRss)), minorFaults: median(runs.map((m) => m.minorFaults)), seconds: median(runs.map((m) => m.seconds)) };
  };

  const idle = measure("node -e \"\"", NODE, ["-e", ""]);
  const rssBudget = resultBytes * 1.15 + idle.maxRss;
  const faultBudget = 1.2 * (resultBytes / PAGE + idle.minorFaults);
  const rows = [["idle node (`node -e \"\"`)", "", mib(idle.maxRss), count(idle.minorFaults), idle.seconds.toFixed(2)]];
  for (const name of ["uncompressed", "zstd"]) {
    const { v3 } = await readData({ n, c, variant: variant(name) });
    const cli = probeCliGet(v3);
    if (cli.fallback) report.note(cli.fallback);
    const ours = measure(`zarr get (${name})`, NODE, cli.args);
    rows.push([`@zarr CLI \`zarr get\``, name, mib(ours.maxRss), count(ours.minorFaults), ours.seconds.toFixed(2)]);
    report.target({ name: `memory ${name}: @zarr CLI peak RSS`, value: ours.maxRss, op: "≤", limit: rssBudget, unit: "MiB" });
    report.target({ name: `memory ${name}: @zarr CLI minor page faults`, value: ours.minorFaults, op: "≤", limit: faultBudget, unit: "faults" });
    // For reference (not a target): the whole array as one result, as `--select` forces; the
    // default `zarr get` of a large array writes it in slabs and never holds all of it.
    const once = measure(`zarr get --select ... (${name})`, NODE, [...cli.args, "--select", "..."]);
    rows.push([`@zarr CLI \`zarr get --select ...\` (one result)`, name, mib(once.maxRss), count(once.minorFaults), once.seconds.toFixed(2)]);
    if (zarrita.ok) {
      try {
        const z = measure(`zarrita.js (${name})`, NODE, [join(LIB, "zarrita-read.mjs"), v3]);
        rows.push(["zarrita.js process", name, mib(z.maxRss), count(z.minorFaults), z.seconds.toFixed(2)]);
        report.note(`${name}: zarrita.js peak RSS / @zarr's: ${ratio(z.maxRss / ours.maxRss)}`);
      } catch (error) {
        report.note(`zarrita.js (${name}) failed: ${error.message}`);
      }
    }
    if (name === "uncompressed") {
      const f = measure("floor", NODE, [join(LIB, "floor-read.mjs"), v3]);
      rows.push(["raw floor process", name, mib(f.maxRss), count(f.minorFaults), f.seconds.toFixed(2)]);
    }
  }
  report.table("Peak RSS and minor page faults", ["process", "codec", "peak RSS", "minor faults", "wall (s)"], rows, ["l", "l", "r", "r", "r"]);
  report.note(
    `Budgets: peak RSS ≤ ${mib(resultBytes)} × 1.15 + ${mib(idle.maxRss)} (idle node) = ${mib(rssBudget)}; ` +
      `minor faults ≤ 1.2 × (${count(resultBytes / PAGE)} result pages + ${count(idle.minorFaults)} idle) = ${count(faultBudget)}.`,
  );
  report.finish();
});
