#!/usr/bin/env node
// Partitioned copy: one `zarr cp` job run as 1, 2 and 4 local processes (`--part i/n`, then
// `--finalize`), directory to directory, on the same source in one run. Reports wall time,
// throughput, CPU seconds of all processes together, and throughput as ratios to 1 process.
//
//   node bench/parts.mjs            1024 chunks of 256 KiB (256 MiB), 3 repetitions
//   node bench/parts.mjs --quick    256 chunks of 64 KiB, one repetition (alias: --smoke)
//   options: --reps N  --size N (chunks)  --chunk C (KiB per chunk)  --json FILE
//
// The machine is shared: wall times move with the load, so each configuration runs --reps
// times (median) and CPU seconds (getrusage of all the processes, bench/lib/rusage.py) are
// reported beside them. On a machine with fewer cores than processes the ratio measures
// overlap of I/O and start-up, not parallel speed-up.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, CPUS, MiB, main, NODE, parseArgs, reps, requireBuilt, size } from "./lib/common.mjs";
import { dataRoot } from "./lib/data.mjs";
import { rusage } from "./lib/measure.mjs";
import { Report, ratio, seconds, throughput } from "./lib/output.mjs";

const PROCESSES = [1, 2, 4];

/** A v3 array of `chunks` uncompressed chunks of `kib` KiB each, written as plain files. */
function writeSource(dir, chunks, kib) {
  const side = Math.sqrt((kib * 1024) / 4);
  if (!Number.isInteger(side)) throw new Error("--chunk must give a square float32 chunk (1, 4, 16, 64, 256... KiB)");
  const rows = Math.ceil(Math.sqrt(chunks));
  const cols = Math.ceil(chunks / rows);
  const meta = {
    zarr_format: 3, node_type: "array", shape: [rows * side, cols * side], data_type: "float32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [side, side] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0, codecs: [{ name: "bytes", configuration: { endian: "little" } }], attributes: {},
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "zarr.json"), JSON.stringify(meta));
  const bytes = new Uint8Array(kib * 1024);
  for (let r = 0; r < rows; r++) {
    mkdirSync(join(dir, "c", String(r)), { recursive: true });
    for (let c = 0; c < cols; c++) {
      bytes.fill((r * cols + c) & 255);
      writeFileSync(join(dir, "c", String(r), String(c)), bytes);
    }
  }
  return rows * cols * kib * 1024;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n: CHUNKS, c: KIB } = size(args, { n: 1024, c: 256 }, { n: 256, c: 64 });
  const REPS = reps(args, 3);
  const root = join(dataRoot(), `parts-${process.pid}`);
  const src = join(root, "src.zarr");
  const bytes = writeSource(src, CHUNKS, KIB);
  const report = new Report({ script: import.meta.filename, title: "Partitioned zarr cp: 1, 2 and 4 processes", args });
  report.line(`${CHUNKS} chunks of ${KIB} KiB (${(bytes / MiB).toFixed(0)} MiB), directory to directory, ${REPS} repetition(s), median; ${CPUS} CPUs`);
  const rows = [];
  let base;
  try {
    for (const p of PROCESSES) {
      const walls = [];
      const cpus = [];
      for (let rep = 0; rep < REPS; rep++) {
        const dst = join(root, `dst-${p}`);
        rmSync(dst, { recursive: true, force: true });
        const parts = Array.from({ length: p }, (_, i) => `"${NODE}" "${CLI}" cp "${src}" "${dst}" --part ${i}/${p} >/dev/null &`).join(" ");
        const script = `${parts} wait && "${NODE}" "${CLI}" cp "${src}" "${dst}" --parts ${p} --finalize >/dev/null`;
        const r = rusage("sh", ["-c", script]);
        if (r.status !== 0) throw new Error(`${p} processes failed: ${r.stderr}`);
        walls.push(r.seconds);
        cpus.push(r.userSeconds + r.systemSeconds);
      }
      const wall = median(walls);
      base ??= wall;
      rows.push([String(p), seconds(wall), throughput(bytes, wall), seconds(median(cpus)), ratio(base / wall)]);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  report.table("Throughput", ["processes", "wall s", "MiB/s", "CPU s (all processes)", "throughput vs 1 process"], rows, ["r", "r", "r", "r", "r"]);
  report.note("Each run is the parts started together, then `--finalize` (checks the markers, writes zarr.json, removes .zarr-jobs/): the times include Node start-up of every process.");
  report.finish();
});
