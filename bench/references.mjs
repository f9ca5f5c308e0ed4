#!/usr/bin/env node
// Opening a large reference set: a kerchunk JSON document (version 0) of 100,000 chunk
// references to one target file, opened with `openReferences` and one chunk read, in a fresh
// process: wall and CPU time of the open and the process's peak RSS (issue 24: under 1 s and
// under 100 MB). The target is taken on the strict reading: the peak RSS of the whole process,
// Node itself included. Beside it: an idle `node -e ""` (what Node costs before any of our
// code), the peak minus that, and a yardstick process that only reads the document as text
// and JSON.parse-s it (what any JSON.parse-based open pays before building anything).
//
//   node bench/references.mjs                 100,000 references, 5 repetitions
//   node bench/references.mjs --refs 1000000  another size
//   node bench/references.mjs --quick         10,000 references, one repetition (alias: --smoke)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LIB, MiB, main, NODE, parseArgs, reps as repsOf, requireBuilt } from "./lib/common.mjs";
import { dataRoot } from "./lib/data.mjs";
import { median, runProcess } from "./lib/measure.mjs";
import { mib, Report, seconds } from "./lib/output.mjs";

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const n = args.number("--refs", args.quick ? 10_000 : 100_000);
  const reps = repsOf(args, 5);
  const dir = join(dataRoot(), "references");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // One chunk of 4 float32 per reference, all in one target file of n × 16 bytes.
  writeFileSync(join(dir, "target.bin"), new Uint8Array(n * 16));
  const refs = {
    ".zgroup": '{"zarr_format": 2}',
    "v/.zarray": JSON.stringify({ zarr_format: 2, shape: [n * 4], chunks: [4], dtype: "<f4", compressor: null, filters: null, fill_value: 0, order: "C" }),
  };
  for (let i = 0; i < n; i++) refs[`v/${i}`] = ["target.bin", i * 16, 16];
  writeFileSync(join(dir, "refs.json"), JSON.stringify(refs));
  const runs = [];
  const idle = [];
  const yardstick = [];
  for (let r = 0; r < reps; r++) {
    const { stdout } = runProcess(NODE, [join(LIB, "references-open.mjs"), dir]);
    runs.push(JSON.parse(stdout.trim().split("\n").at(-1)));
    idle.push(Number(runProcess(NODE, ["-e", "console.log(process.resourceUsage().maxRSS * 1024)"]).stdout.trim()));
    yardstick.push(JSON.parse(runProcess(NODE, [join(LIB, "json-parse-doc.mjs"), join(dir, "refs.json")]).stdout.trim()));
  }
  const report = new Report({ script: import.meta.filename, title: "Opening a large reference set (`references.mjs`)", args });
  report.line(`${n.toLocaleString("en-US")} chunk references in a ${(JSON.stringify(refs).length / MiB).toFixed(1)} MiB JSON document; a fresh process per repetition; median of ${reps}`);
  const open = median(runs.map((x) => x.openSeconds));
  const rss = median(runs.map((x) => x.peakRss));
  const idleRss = median(idle);
  report.table(
    "Open",
    ["measure", "value"],
    [
      ["openReferences + first chunk read, seconds", seconds(open)],
      ["... CPU seconds", seconds(median(runs.map((x) => x.cpuSeconds)))],
      ["peak RSS of the process (the target)", mib(rss)],
      ['idle `node -e ""`, peak RSS', mib(idleRss)],
      ["peak RSS − idle node", mib(rss - idleRss)],
      ["RSS with the modules loaded, before the document is read", mib(median(runs.map((x) => x.loadedRss)))],
      ["yardstick: read + TextDecoder + JSON.parse of the document alone, seconds", seconds(median(yardstick.map((x) => x.seconds)))],
      ["yardstick: its peak RSS", mib(median(yardstick.map((x) => x.peakRss)))],
    ],
    ["l", "r"],
  );
  report.target({ name: "open time, seconds", value: open, op: "≤", limit: 1, unit: "s" });
  report.target({ name: "peak RSS of the process", value: rss, op: "≤", limit: 100 * MiB, unit: "MiB" });
  report.finish();
});
