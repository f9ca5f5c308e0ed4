#!/usr/bin/env node
// Runs every target benchmark of bench/ (full size unless --quick) and prints one markdown
// report: each target with its measured value, the target and pass/fail, and the exact
// command that measured it, then every script's own tables. Paste it into bench/README.md
// under "Results".
//
//   node bench/report.mjs                      all scripts, full size (tens of minutes; run on a quiet machine)
//   node bench/report.mjs --quick              all scripts, small sizes (a check that it all runs)
//   node bench/report.mjs --only memory,sharded
//   options: --reps N (passed to every script)  --out FILE (also write the report there)
//
// The scripts' progress and warnings go to stderr; the report to stdout.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH, CPUS, NODE, REPO, loadZarrita, parseArgs, pythonZarr, requireBuilt } from "./lib/common.mjs";
import { tail } from "./lib/measure.mjs";
import { markdownTable, verdict } from "./lib/output.mjs";

/** The target benchmarks, in report order (startup.mjs is not part of this report). */
const SCRIPTS = [
  { id: "cli-read", script: "cli-read.mjs", args: [] },
  { id: "read-floor", script: "read-floor.mjs", args: [] },
  { id: "read", script: "read.mjs", args: [] },
  // The same with a worker pool of one thread per CPU (createWorkerPool), as a library user
  // who wants the speed passes it.
  { id: "read-workers", script: "read.mjs", args: ["--workers", String(CPUS)] },
  { id: "sharded", script: "sharded.mjs", args: [] },
  { id: "memory", script: "memory.mjs", args: [] },
  { id: "small-chunks", script: "small-chunks.mjs", args: [] },
  { id: "missing-chunks", script: "missing-chunks.mjs", args: [] },
  { id: "write", script: "write.mjs", args: ["--isolated"] },
  { id: "write-workers", script: "write.mjs", args: ["--isolated", "--workers", String(CPUS)] },
];

requireBuilt();
const args = parseArgs();
const only = args.list("--only");
for (const id of only ?? []) if (!SCRIPTS.some((s) => s.id === id)) throw new Error(`unknown script ${id} (have ${SCRIPTS.map((s) => s.id).join(", ")})`);
const pass = [...(args.quick ? ["--quick"] : []), ...(args.option("--reps") ? ["--reps", args.option("--reps")] : [])];
const dir = mkdtempSync(join(tmpdir(), "zarr-bench-report-"));

/** Runs a script: its stdout kept, its stderr passed through (progress) and kept. */
function runScript(argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, argv, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => {
      process.stderr.write(d);
      stderr = (stderr + d).slice(-20_000);
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const results = [];
const started = Date.now();
try {
  for (const s of SCRIPTS) {
    if (only && !only.includes(s.id)) continue;
    const json = join(dir, `${s.id}.json`);
    const argv = [join(BENCH, s.script), ...s.args, ...pass];
    const command = ["node", `bench/${s.script}`, ...s.args, ...pass].join(" ");
    console.error(`report: ${command} ...`);
    const t0 = Date.now();
    const r = await runScript([...argv, "--json", json]);
    const minutes = (Date.now() - t0) / 60_000;
    console.error(`report: ${command}: ${r.status === 0 ? "done" : `failed (exit ${r.status})`} in ${minutes.toFixed(1)} min`);
    if (r.status === 0) results.push({ ...s, command, minutes, ...JSON.parse(readFileSync(json, "utf8")) });
    else results.push({ ...s, command, minutes, failed: `exit ${r.status}: ${tail(r.stderr, 1) || tail(r.stdout, 1)}` });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const git = (...a) => spawnSync("git", a, { cwd: REPO, encoding: "utf8" }).stdout.trim();
const zarrita = await loadZarrita();
const python = pythonZarr();
const rows = [];
for (const r of results) {
  if (r.failed) {
    rows.push([r.id, "(script failed)", "", "", "**fail**", `\`${r.command}\``]);
    continue;
  }
  for (const t of r.targets) rows.push([r.id, t.name, t.measuredText, t.targetText, verdict(t.pass), `\`${r.command}\``]);
}
const all = results.flatMap((r) => r.targets ?? []);
const out = [
  `# Benchmark report${args.quick ? " (quick sizes: a smoke run, not results)" : ""}`,
  "",
  `- ${new Date().toISOString().slice(0, 10)}, commit ${git("rev-parse", "--short", "HEAD") || "?"}${git("status", "--porcelain") ? " (with uncommitted changes)" : ""}`,
  `- Node ${process.version}; ${CPUS} CPUs (${cpus()[0]?.model?.trim() ?? "?"}); load average at the end ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
  `- zarrita.js ${zarrita.ok ? (zarrita.version ?? "") : `missing (${zarrita.why})`}; zarr-python ${python.ok ? python.version : `missing (${python.why})`}`,
  `- ${all.filter((t) => t.pass === true).length} of ${all.length} targets met, ${all.filter((t) => t.pass === null).length} not measured; ${results.filter((r) => r.failed).length} scripts failed; ${((Date.now() - started) / 60_000).toFixed(1)} min`,
  "",
  "## Targets",
  "",
  markdownTable(["script", "target", "measured", "target", "result", "command"], rows, ["l", "l", "r", "r", "l", "l"]),
  "",
  "Startup time (`bench/startup.mjs`) is measured separately and not part of this report.",
  "",
  ...results.filter((r) => r.failed).map((r) => `- \`${r.command}\` failed: ${r.failed}`),
  "",
  "## Details",
  "",
  ...results.filter((r) => !r.failed).map((r) => r.markdown),
].join("\n");
console.log(out);
if (args.option("--out")) writeFileSync(args.option("--out"), `${out}\n`);
