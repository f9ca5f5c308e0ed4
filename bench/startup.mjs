#!/usr/bin/env node
// Start-up benchmark of the `zarr` command: wall-clock time of whole processes, as a user
// sees it. Runs `node -e ""` (the floor), `zarr --version`, `zarr info` and `zarr get` on a
// small local array it creates, `zarr get` again with `--workers 0`, round-robin (so load
// from other processes hits every command alike), and prints the median of each and its
// ratio to `node -e ""`.
//
//   node bench/startup.mjs              20 runs of each
//   node bench/startup.mjs --runs 40    more runs (steadier medians on a busy machine)
//   node bench/startup.mjs --json       one JSON document instead of the table
//   node bench/startup.mjs --zarr F     time another build's bin/zarr.js (before/after comparisons)
//
// Run `pnpm --filter @zarr/cli... build` first: it times packages/cli/bin/zarr.js.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createArray, set } from "@zarr/all";
import { FileSystemStore } from "@zarr/store-fs";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const RUNS = runsAt < 0 ? 20 : Number(args[runsAt + 1]);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("--runs needs a positive integer");
const asJson = args.includes("--json");
const zarrAt = args.indexOf("--zarr");
const ZARR = zarrAt < 0 ? join(import.meta.dirname, "..", "packages", "cli", "bin", "zarr.js") : resolve(args[zarrAt + 1]);

/** A 64×64 float32 array in 32×32 chunks, bytes + zstd (what `zarr put` writes by default). */
async function makeStore(dir) {
  const store = new FileSystemStore(join(dir, "data.zarr"));
  const array = await createArray(store, "t2m", { shape: [64, 64], chunkShape: [32, 32], dataType: "float32" });
  const data = new Float32Array(64 * 64).map((_, i) => Math.sin(i / 10));
  await set(array, null, { data, shape: [64, 64] });
  return join(dir, "data.zarr");
}

/** Wall-clock milliseconds of one run; throws when the command fails. */
function timeOnce(argv) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`node ${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const dir = mkdtempSync(join(tmpdir(), "zarr-startup-"));
try {
  const store = await makeStore(dir);
  const commands = [
    { name: 'node -e ""', argv: ["-e", ""] },
    { name: "zarr --version", argv: [ZARR, "--version"] },
    { name: "zarr info STORE t2m", argv: [ZARR, "info", store, "t2m"] },
    { name: "zarr get STORE t2m", argv: [ZARR, "get", store, "t2m"] },
    { name: "zarr get STORE t2m --workers 0", argv: [ZARR, "get", store, "t2m", "--workers", "0"] },
  ];
  for (const c of commands) timeOnce(c.argv); // warm the file cache (and a compile cache, where Node has one)
  const times = commands.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [j, c] of commands.entries()) times[j].push(timeOnce(c.argv));
  }
  const floor = median(times[0]);
  const rows = commands.map((c, j) => ({ command: c.name, median_ms: median(times[j]), ratio: median(times[j]) / floor }));
  if (asJson) console.log(JSON.stringify({ zarr: ZARR, node: process.version, runs: RUNS, rows }, null, 2));
  else {
    console.log(`${ZARR}\nnode ${process.version}, median of ${RUNS} runs each (wall clock, whole process)`);
    for (const r of rows) console.log(`${r.command.padEnd(34)}${r.median_ms.toFixed(1).padStart(8)} ms  ${r.ratio.toFixed(2)}×`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
