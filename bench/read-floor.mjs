#!/usr/bin/env node
// Raw floor: reading the uncompressed array whole, compared with the least any reader must
// do (bench/lib/floor-read.mjs: allocate the result, read each chunk file into one reused
// buffer, copy its rows). In-process (@zarr `get` and zarrita.js `get`, each call a fresh
// result, against `floorRead()`) and whole-process (`zarr get STORE / -o /dev/null` and
// bench/lib/zarrita-read.mjs against `node bench/lib/floor-read.mjs STORE`).
//
//   node bench/read-floor.mjs             8192×8192 float32 (256 MiB), 512×512 chunks, median of 7
//   node bench/read-floor.mjs --quick     1024×1024, 256×256 chunks, one run
//   options: --reps N  --size N --chunk C  --json FILE
//
// Targets: @zarr within 1.15× of the floor, and zarrita.js time / @zarr time ≥ 1.4 (both
// in-process and whole-process).
import { join } from "node:path";
import { probeCliGet } from "./lib/cli.mjs";
import { CPUS, LIB, MiB, NODE, loadZarrita, main, parseArgs, reps, requireBuilt, size, skipping } from "./lib/common.mjs";
import { readData, variant } from "./lib/data.mjs";
import { floorRead } from "./lib/floor-read.mjs";
import { race, timeIt, timeProcess } from "./lib/measure.mjs";
import { Report, ratio, seconds, throughput } from "./lib/output.mjs";

await main(async () => {
  requireBuilt();
  const { get, openArray, FileSystemStore } = await import("@zarr/all");
  const args = parseArgs();
  const { n, c } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const REPS = reps(args, 7);
  const bytes = n * n * 4;
  const report = new Report({ script: "read-floor.mjs", title: "Raw floor (uncompressed read vs the least a reader must do)", args });
  report.line(`${n}×${n} float32 (${(bytes / MiB).toFixed(0)} MiB), ${c}×${c} uncompressed chunks; median of ${REPS}, taking turns; ${CPUS} CPUs`);
  report.line("floor: bench/lib/floor-read.mjs (allocate the result, read each chunk file into one reused buffer, copy its rows)");
  report.line("in-process: `get(array)` / `zarrita.get(array)` / `floorRead(dir)`, each call allocating a fresh result; default options");
  report.line("whole-process: `zarr get STORE / -o /dev/null` / `node bench/lib/zarrita-read.mjs STORE` / `node bench/lib/floor-read.mjs STORE`");

  const zarrita = await loadZarrita();
  if (!zarrita.ok) report.note(skipping("zarrita.js", zarrita.why));
  const { v3 } = await readData({ n, c, variant: variant("uncompressed") });

  // In-process.
  const ours = await openArray(new FileSystemStore(v3, { readOnly: true }), "");
  const a = await get(ours, null);
  const f = floorRead(v3);
  if (Buffer.compare(Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength), f) !== 0) throw new Error("the floor and @zarr disagree");
  const inProcess = {
    floor: () => timeIt(() => floorRead(v3)),
    "@zarr": () => timeIt(() => get(ours, null)),
  };
  if (zarrita.ok) {
    const z = zarrita.zarrita;
    const theirs = await z.open(z.root(new zarrita.storage.FileSystemStore(v3)), { kind: "array" });
    inProcess["zarrita.js"] = () => timeIt(() => z.get(theirs));
  }
  const ip = await race(inProcess, { reps: REPS, warmup: 1 });

  // Whole-process.
  const cli = probeCliGet(v3);
  if (cli.fallback) report.note(cli.fallback);
  const whole = {
    floor: () => timeProcess(NODE, [join(LIB, "floor-read.mjs"), v3]),
    "@zarr": () => timeProcess(NODE, cli.args),
  };
  if (zarrita.ok) whole["zarrita.js"] = () => timeProcess(NODE, [join(LIB, "zarrita-read.mjs"), v3]);
  const wp = await race(whole, { reps: REPS, warmup: args.quick ? 0 : 1 });

  for (const [mode, r] of [["in-process", ip], ["whole-process", wp]]) {
    for (const [who, e] of Object.entries(r.errors)) report.note(`${mode}: ${who} failed: ${e}`);
  }
  const row = (mode, t) => [
    mode,
    seconds(t.floor),
    seconds(t["@zarr"]),
    seconds(t["zarrita.js"]),
    throughput(bytes, t["@zarr"]),
    ratio(t["@zarr"] / t.floor),
    ratio(t["zarrita.js"] / t["@zarr"]),
  ];
  report.table(
    "Uncompressed whole-array read, seconds",
    ["mode", "floor", "@zarr", "zarrita.js", "@zarr MiB/s", "@zarr / floor", "zarrita.js / @zarr"],
    [row("in-process (fresh result)", ip.times), row("whole-process (CLI)", wp.times)],
    ["l", "r", "r", "r", "r", "r", "r"],
  );
  report.target({ name: "raw in-process: @zarr / floor", value: ip.times["@zarr"] / ip.times.floor, op: "≤", limit: 1.15 });
  report.target({ name: "raw whole-process: @zarr CLI / floor process", value: wp.times["@zarr"] / wp.times.floor, op: "≤", limit: 1.15 });
  report.target({ name: "raw in-process: zarrita.js / @zarr", value: ip.times["zarrita.js"] / ip.times["@zarr"], op: "≥", limit: 1.4 });
  report.target({ name: "raw whole-process: zarrita.js / @zarr CLI", value: wp.times["zarrita.js"] / wp.times["@zarr"], op: "≥", limit: 1.4 });
  report.note("@zarr / floor: how much slower than the floor @zarr is (1 = as fast); zarrita.js / @zarr: above 1 means @zarr is faster.");
  report.finish();
});
