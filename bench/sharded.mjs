#!/usr/bin/env node
// Sharded read: the zstd array of bench/read.mjs stored sharded (shards of 4×4 inner chunks,
// sharding_indexed with zstd inside, crc32c on the index) against the same chunks unsharded,
// both read whole in-process by @zarr with a worker pool (`createWorkerPool` from
// @zarr/all/workers, `get(array, null, { workers })`). The shards are assembled from the
// unsharded array's chunk bytes (bench/lib/data.mjs), so both decode the very same zstd
// frames. zarrita.js reads both too, for reference.
//
// Then whole processes: `zarr get STORE / -o /dev/null` (default options: slab by slab, worker
// pool) of each, taking turns, with wall and CPU seconds, peak RSS and page faults, and a
// zarr-python process reading the unsharded array's byte-identical Zarr v2 copy beside them
// (zarr-python 2.13 cannot read sharded arrays).
//
//   node bench/sharded.mjs             8192×8192 float32 (256 MiB), 512×512 inner chunks, 2048×2048 shards, median of 5
//   node bench/sharded.mjs --quick     1024×1024, 128×128 inner chunks, 512×512 shards, one run
//   options: --workers N (default: available CPUs)  --reps N  --size N --chunk C  --json FILE
//
// Targets: sharded time / unsharded time ≤ 1.1, in process and whole process (issue 26, point 8).
import { join } from "node:path";
import { probeCliGet } from "./lib/cli.mjs";
import { CPUS, LIB, loadZarrita, MiB, main, NODE, PYTHON, parseArgs, pythonZarr, reps, requireBuilt, size, skipping } from "./lib/common.mjs";
import { readData, shardedData, variant } from "./lib/data.mjs";
import { median, race, rusage, tail, timeIt } from "./lib/measure.mjs";
import { count, mib, Report, ratio, seconds, throughput } from "./lib/output.mjs";

/** Whole processes taking turns: medians of wall and CPU seconds, peak RSS and minor faults by name. */
function raceProcesses(commands, REPS) {
  const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let r = 0; r < REPS; r++) {
    for (const [who, [cmd, args]] of Object.entries(commands)) {
      const u = rusage(cmd, args);
      if (u.status !== 0) throw new Error(`${who} failed (exit ${u.status}): ${tail(u.stderr)}`);
      samples[who].push(u);
    }
  }
  const of = (xs, f) => median(xs.map(f));
  return Object.fromEntries(
    Object.entries(samples).map(([who, xs]) => [
      who,
      { wall: of(xs, (u) => u.seconds), cpu: of(xs, (u) => u.userSeconds + u.systemSeconds), rss: of(xs, (u) => u.maxRss), faults: of(xs, (u) => u.minorFaults) },
    ]),
  );
}

const PER = 4;

await main(async () => {
  requireBuilt();
  const { get, openArray, FileSystemStore } = await import("@zarr/all");
  const { createWorkerPool } = await import("@zarr/all/workers");
  const args = parseArgs();
  const { n, c } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 128 });
  const REPS = reps(args, 5);
  const workerCount = args.number("--workers", CPUS);
  const bytes = n * n * 4;
  const report = new Report({ script: "sharded.mjs", title: "Sharded vs unsharded read (zstd, worker pool)", args });
  report.line(
    `${n}×${n} float32 (${(bytes / MiB).toFixed(0)} MiB); zstd level 1 chunks of ${c}×${c}, unsharded or in shards of ${PER}×${PER} chunks (${PER * c}×${PER * c}); median of ${REPS} after a warm-up, taking turns; ${CPUS} CPUs`,
  );
  report.line(`@zarr: \`get(array, null, { workers })\`, workers = createWorkerPool({ size: ${workerCount} }); each call a fresh result`);

  const zarrita = await loadZarrita();
  if (!zarrita.ok) report.note(skipping("zarrita.js", zarrita.why));
  const { sharded, unsharded } = await shardedData({ n, c, per: PER });
  const workers = workerCount > 0 ? createWorkerPool({ size: workerCount }) : undefined;
  let times;
  try {
    const a = await openArray(new FileSystemStore(unsharded, { readOnly: true }), "");
    const s = await openArray(new FileSystemStore(sharded, { readOnly: true }), "");
    const ra = await get(a, null, { workers });
    const rs = await get(s, null, { workers });
    if (Buffer.compare(Buffer.from(ra.data.buffer, ra.data.byteOffset, ra.data.byteLength), Buffer.from(rs.data.buffer, rs.data.byteOffset, rs.data.byteLength)) !== 0) {
      throw new Error("the sharded and unsharded arrays read differently");
    }
    const contenders = {
      "@zarr unsharded": () => timeIt(() => get(a, null, { workers })),
      "@zarr sharded": () => timeIt(() => get(s, null, { workers })),
    };
    if (zarrita.ok) {
      const z = zarrita.zarrita;
      const za = await z.open(z.root(new zarrita.storage.FileSystemStore(unsharded)), { kind: "array" });
      const zs = await z.open(z.root(new zarrita.storage.FileSystemStore(sharded)), { kind: "array" });
      contenders["zarrita.js unsharded"] = () => timeIt(() => z.get(za));
      contenders["zarrita.js sharded"] = () => timeIt(() => z.get(zs));
    }
    const r = await race(contenders, { reps: REPS, warmup: 1 });
    for (const [who, e] of Object.entries(r.errors)) report.note(`${who} failed: ${e}`);
    times = r.times;
  } finally {
    await workers?.close();
  }
  const t = times;
  report.table(
    "Whole-array read, seconds",
    ["reader", "unsharded", "sharded", "sharded MiB/s", "sharded / unsharded"],
    [
      ["@zarr (worker pool)", seconds(t["@zarr unsharded"]), seconds(t["@zarr sharded"]), throughput(bytes, t["@zarr sharded"]), ratio(t["@zarr sharded"] / t["@zarr unsharded"])],
      ...(zarrita.ok
        ? [["zarrita.js", seconds(t["zarrita.js unsharded"]), seconds(t["zarrita.js sharded"]), throughput(bytes, t["zarrita.js sharded"]), ratio(t["zarrita.js sharded"] / t["zarrita.js unsharded"])]]
        : []),
    ],
    ["l", "r", "r", "r", "r"],
  );
  report.target({ name: "sharded zstd: sharded / unsharded (@zarr, worker pool)", value: t["@zarr sharded"] / t["@zarr unsharded"], op: "≤", limit: 1.1 });

  // Whole processes, as a user runs them.
  const commands = { "zarr get, unsharded": [NODE, probeCliGet(unsharded).args], "zarr get, sharded": [NODE, probeCliGet(sharded).args] };
  const python = pythonZarr();
  const { v2 } = await readData({ n, c, variant: variant("zstd") });
  if (python.ok && v2 !== null) commands["zarr-python, unsharded (v2)"] = [PYTHON, [join(LIB, "zarr_python.py"), "read", v2]];
  else report.note(skipping("zarr-python", python.ok ? "no Zarr v2 copy of the data" : python.why));
  const w = raceProcesses(commands, REPS);
  report.table(
    "Whole process: zarr get STORE / -o /dev/null (default options), median",
    ["process", "wall s", "CPU s", "peak RSS", "minor faults", "wall / unsharded zarr get"],
    Object.entries(w).map(([who, x]) => [who, seconds(x.wall), seconds(x.cpu), mib(x.rss), count(x.faults), ratio(x.wall / w["zarr get, unsharded"].wall)]),
    ["l", "r", "r", "r", "r", "r"],
  );
  report.target({
    name: "sharded zstd, whole process: zarr get sharded / unsharded",
    value: w["zarr get, sharded"].wall / w["zarr get, unsharded"].wall,
    op: "≤",
    limit: 1.1,
  });
  report.note(`zarrita.js / @zarr, sharded: ${ratio(t["zarrita.js sharded"] / t["@zarr sharded"])} (above 1 means @zarr is faster).`);
  report.finish();
});
