#!/usr/bin/env node
// Sharded read: the zstd array of bench/read.mjs stored sharded (shards of 4×4 inner chunks,
// sharding_indexed with zstd inside, crc32c on the index) against the same chunks unsharded,
// both read whole in-process by @zarr with a worker pool (`createWorkerPool` from
// @zarr/all/workers, `get(array, null, { workers })`). The shards are assembled from the
// unsharded array's chunk bytes (bench/lib/data.mjs), so both decode the very same zstd
// frames. zarrita.js reads both too, for reference.
//
//   node bench/sharded.mjs             8192×8192 float32 (256 MiB), 512×512 inner chunks, 2048×2048 shards, median of 5
//   node bench/sharded.mjs --quick     1024×1024, 128×128 inner chunks, 512×512 shards, one run
//   options: --workers N (default: available CPUs)  --reps N  --size N --chunk C  --json FILE
//
// Target: sharded time / unsharded time ≤ 1.1.
import { CPUS, MiB, loadZarrita, main, parseArgs, reps, requireBuilt, size, skipping } from "./lib/common.mjs";
import { shardedData } from "./lib/data.mjs";
import { race, timeIt } from "./lib/measure.mjs";
import { Report, ratio, seconds, throughput } from "./lib/output.mjs";

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
  report.note(`zarrita.js / @zarr, sharded: ${ratio(t["zarrita.js sharded"] / t["@zarr sharded"])} (above 1 means @zarr is faster).`);
  report.finish();
});
