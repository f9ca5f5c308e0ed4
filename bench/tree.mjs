#!/usr/bin/env node
import { join } from "node:path";
// Wide hierarchies: a Zarr v2 hierarchy written by zarr-python 2.13 (G groups of A arrays of
// 10 float32 each), plain and with consolidated metadata (`.zmetadata`), listed
//   - whole process: `zarr tree STORE` (default options) against a zarr-python process
//     printing `zarr.open_group(p, mode="r").tree()` (consolidated: `zarr.open_consolidated(p)`),
//     wall and CPU (user + system) seconds of each process (bench/lib/rusage.py);
//   - in process: @zarr's `walk` (every node, arrays resolved) against zarr-python's
//     `group.visititems` (every node, as Array and Group objects), after a warm-up.
//
//   node bench/tree.mjs              50 × 100 (5,051 nodes) and 100 × 500 (50,101 nodes), median of 5
//   node bench/tree.mjs --quick      5 × 10 (56 nodes), one run
//   options: --reps N  --sizes 50x100,100x500  --json FILE
//
// Target: @zarr / zarr-python ≤ 1.0 for `zarr tree`, plain and consolidated (issue 26, point 7).
import { CLI, LIB, main, NODE, PYTHON, parseArgs, pythonZarr, reps, requireBuilt, skipping } from "./lib/common.mjs";
import { hierarchyData } from "./lib/data.mjs";
import { median, runProcess, rusage, tail, timeIt } from "./lib/measure.mjs";
import { count, Report, ratio, seconds } from "./lib/output.mjs";

/** `GxA` → `{ groups, arrays }`. */
function parseSize(text) {
  const m = /^(\d+)x(\d+)$/.exec(text);
  if (m === null) throw new Error(`--sizes wants GROUPSxARRAYS, got ${JSON.stringify(text)}`);
  return { groups: Number(m[1]), arrays: Number(m[2]) };
}

/** Wall and CPU seconds of one process; throws when it fails. */
function timed(command, args) {
  const r = rusage(command, args);
  if (r.status !== 0) throw new Error(`${[command, ...args].join(" ")} failed (exit ${r.status}): ${tail(r.stderr)}`);
  return r;
}

/** Whole-process `tree` of one store, ours and zarr-python's taking turns: medians of wall and CPU seconds. */
function raceTree(store, consolidated, python, REPS) {
  const contenders = { ours: [NODE, [CLI, "tree", store]] };
  if (python) contenders.python = [PYTHON, [join(LIB, "zarr_python.py"), "tree", store, ...(consolidated ? ["consolidated"] : [])]];
  // Both print every node (and the root): a failed or partial listing would time nothing useful.
  const lines = Object.fromEntries(
    Object.entries(contenders).map(([who, [cmd, args]]) => {
      const r = runProcess(cmd, args);
      if (r.status !== 0) throw new Error(`${who}: ${tail(r.stderr)}`);
      return [who, r.stdout.trimEnd().split("\n").length];
    }),
  );
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, { wall: [], cpu: [] }]));
  for (let r = 0; r < REPS; r++) {
    for (const [who, [cmd, args]] of Object.entries(contenders)) {
      const t = timed(cmd, args);
      samples[who].wall.push(t.seconds);
      samples[who].cpu.push(t.userSeconds + t.systemSeconds);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([who, s]) => [who, { wall: median(s.wall), cpu: median(s.cpu), lines: lines[who] }]),
  );
}

/** In-process walk: @zarr `walk` (median of REPS after a warm-up) and zarr-python's `visititems`. */
async function raceWalk(store, consolidated, python, REPS) {
  const { openGroup, walk, FileSystemStore } = await import("@zarr/all");
  const visit = async () => {
    let nodes = 0;
    const root = await openGroup(new FileSystemStore(store, { readOnly: true }));
    for await (const _ of walk(root)) nodes++;
    return nodes;
  };
  const nodes = await visit();
  const times = [];
  for (let r = 0; r < REPS; r++) times.push(await timeIt(visit));
  const out = { ours: { seconds: median(times), nodes } };
  if (python) {
    const r = runProcess(PYTHON, [join(LIB, "zarr_python.py"), "time-walk", store, String(REPS), ...(consolidated ? ["consolidated"] : [])]);
    if (r.status !== 0) throw new Error(`zarr-python time-walk: ${tail(r.stderr)}`);
    out.python = JSON.parse(r.stdout);
  }
  return out;
}

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const REPS = reps(args, 5);
  const sizes = (args.list("--sizes") ?? (args.quick ? ["5x10"] : ["50x100", "100x500"])).map(parseSize);
  const py = pythonZarr();
  if (!py.ok) skipping("zarr-python", py.why);
  const report = new Report({ script: "tree.mjs", title: "Wide hierarchies: zarr tree and walk (Zarr v2)", args });
  report.line(
    `Zarr v2 hierarchies of G groups × A arrays (10 float32 in one chunk each), written by ${py.ok ? `zarr-python ${py.version}` : "bench/lib/data.mjs"}; plain and with .zmetadata; median of ${REPS}, taking turns`,
  );
  report.line("`zarr tree STORE` (default options) vs `print(zarr.open_group(p, mode=\"r\").tree())` (consolidated: `zarr.open_consolidated(p)`), whole processes; CPU = user + system");
  report.line("in process: `for await (const n of walk(await openGroup(new FileSystemStore(p))))` vs `group.visititems(...)` (each opens the hierarchy afresh)");
  const treeRows = [];
  const walkRows = [];
  for (const { groups, arrays } of sizes) {
    const data = await hierarchyData({ groups, arrays });
    const nodes = 1 + groups * (1 + arrays);
    for (const consolidated of [false, true]) {
      const store = consolidated ? data.consolidated : data.plain;
      const label = `${groups} × ${arrays} (${count(nodes)} nodes), ${consolidated ? "consolidated" : "plain"}`;
      const t = raceTree(store, consolidated, py.ok, REPS);
      if (t.ours.lines !== nodes) report.note(`zarr tree printed ${t.ours.lines} lines for ${nodes} nodes (${label})`);
      const rWall = t.python ? t.ours.wall / t.python.wall : Number.NaN;
      treeRows.push([label, seconds(t.ours.wall), seconds(t.ours.cpu), seconds(t.python?.wall), seconds(t.python?.cpu), ratio(rWall), ratio(t.python ? t.ours.cpu / t.python.cpu : Number.NaN)]);
      report.target({ name: `zarr tree, ${label}: @zarr / zarr-python (wall)`, value: rWall, op: "≤", limit: 1 });
      const w = await raceWalk(store, consolidated, py.ok, REPS);
      if (w.python && w.python.nodes !== w.ours.nodes) report.note(`walk visited ${w.ours.nodes} nodes, visititems ${w.python.nodes} (${label})`);
      walkRows.push([label, count(w.ours.nodes), seconds(w.ours.seconds), seconds(w.python?.seconds), ratio(w.python ? w.ours.seconds / w.python.seconds : Number.NaN)]);
    }
  }
  report.table(
    "Whole process: zarr tree, seconds",
    ["hierarchy", "@zarr wall", "@zarr CPU", "zarr-python wall", "zarr-python CPU", "@zarr / zarr-python (wall)", "(CPU)"],
    treeRows,
    ["l", "r", "r", "r", "r", "r", "r"],
  );
  report.table(
    "In process: walk vs visititems, seconds",
    ["hierarchy", "nodes", "@zarr walk", "zarr-python visititems", "@zarr / zarr-python"],
    walkRows,
    ["l", "r", "r", "r", "r"],
  );
  report.finish();
});
