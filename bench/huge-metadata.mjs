#!/usr/bin/env node
// Huge metadata documents (issue 26, point 2): a Zarr v3 array whose `zarr.json` holds
// millions of attribute keys, and one whose single string attribute is ~100 MB, each also
// as Zarr v2 (`.zarray` + `.zattrs`). Whole processes, output to /dev/null: `zarr info`,
// `zarr info --json`, `zarr tree` and `zarr get` on the v3 documents, zarr-python 2.13
// printing the v2 copy's attributes (`zarr.open(...).attrs.asdict()` as JSON) and its tree
// (`zarr.open_group(...).tree()`), against the yardstick: `node lib/json-print.mjs`
// (`JSON.parse` of the same file and printing its attributes). Peak RSS of each, over the
// document's size (less an idle Node process's).
//
//   node bench/huge-metadata.mjs                 4,000,000 keys and a 100 MB string, 1 run each
//   node bench/huge-metadata.mjs --keys 1000000 --string-mb 20 --reps 3
//   node bench/huge-metadata.mjs --quick         100,000 keys, 2 MB (the smoke test)
//
// Targets: each command within 3× of the yardstick's time, peak RSS within 4× the document (above idle).
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, LIB, main, NODE, PYTHON, parseArgs, pythonZarr, reps, requireBuilt, skipping } from "./lib/common.mjs";
import { median, rusage, rusageTool } from "./lib/measure.mjs";
import { mib, Report, ratio, seconds } from "./lib/output.mjs";

const args = parseArgs();
const KEYS = args.number("--keys", args.quick ? 100_000 : 4_000_000);
const STRING_MB = args.number("--string-mb", args.quick ? 2 : 100);
const REPS = reps(args, 1);

const ARRAY = {
  shape: [4],
  chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
};

/** Writes store `name` with array `a` holding `attributes`, as Zarr v3 and as Zarr v2; returns both paths and the v3 document's path. */
function writeStores(dir, name, attributes) {
  const v3 = join(dir, `${name}.v3.zarr`);
  const v2 = join(dir, `${name}.v2.zarr`);
  mkdirSync(join(v3, "a"), { recursive: true });
  mkdirSync(join(v2, "a"), { recursive: true });
  writeFileSync(join(v3, "zarr.json"), JSON.stringify({ zarr_format: 3, node_type: "group", attributes: {} }));
  // Written in two parts: the attributes text alone approaches V8's string limit at full size.
  const attrs = JSON.stringify(attributes);
  const head = JSON.stringify({ zarr_format: 3, node_type: "array", data_type: "int32", ...ARRAY, attributes: null });
  writeFileSync(join(v3, "a", "zarr.json"), head.replace(/null}$/, `${attrs}}`));
  writeFileSync(join(v2, ".zgroup"), '{"zarr_format":2}');
  writeFileSync(join(v2, "a", ".zarray"), JSON.stringify({ zarr_format: 2, shape: [4], chunks: [4], dtype: "<i4", compressor: null, filters: null, fill_value: 0, order: "C" }));
  writeFileSync(join(v2, "a", ".zattrs"), attrs);
  return { v3, v2, document: join(v3, "a", "zarr.json") };
}

const PY_ATTRS = "import json, sys, zarr\nsys.stdout.write(json.dumps(zarr.open(sys.argv[1], mode='r').attrs.asdict()) + '\\n')";
const PY_TREE = "import sys, zarr\nprint(zarr.open_group(sys.argv[1], mode='r').tree())";

/** Median seconds and peak RSS of `command args` over REPS runs (output to /dev/null); throws when it fails. */
function measure(command, argv) {
  const runs = [];
  for (let i = 0; i < REPS; i++) {
    const r = rusage(command, argv);
    if (r.status !== 0) throw new Error(`${[command, ...argv].join(" ")} exited ${r.status}: ${r.stderr.trim().split("\n").pop()}`);
    runs.push(r);
  }
  return { seconds: median(runs.map((r) => r.seconds)), maxRss: Math.max(...runs.map((r) => r.maxRss)) };
}

await main(async () => {
  requireBuilt();
  const report = new Report({ script: import.meta.filename, title: "Huge metadata documents: whole processes against JSON.parse + print", args });
  const dir = join(process.env.ZARR_BENCH_DATA ?? tmpdir(), `zarr-huge-metadata-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const many = {};
    for (let i = 0; i < KEYS; i++) many[`attribute_${i}`] = i;
    const documents = [
      { name: `${KEYS.toLocaleString("en-US")} attribute keys`, ...writeStores(dir, "keys", many) },
      { name: `one ${STRING_MB} MB string attribute`, ...writeStores(dir, "string", { s: "x".repeat(Math.round(STRING_MB * 1e6)) }) },
    ];
    const python = pythonZarr();
    if (!python.ok) report.note(skipping("zarr-python", python.why));
    report.line(`${KEYS.toLocaleString("en-US")} keys; ${STRING_MB} MB string; ${REPS} run(s) each (median time, highest peak RSS); resource use by ${rusageTool()}`);
    report.line(`Node ${process.version}${python.ok ? `, zarr-python ${python.version}` : ""}`);
    // What an idle Node process holds, counted apart from what the document costs.
    const idle = measure(NODE, ["-e", ""]).maxRss;
    report.line(`idle \`node -e ""\`: ${mib(idle)} peak RSS; "RSS / document" is (peak RSS − idle) / document size`);
    const rows = [];
    for (const doc of documents) {
      const bytes = statSync(doc.document).size;
      const commands = [
        ["JSON.parse + print (node)", NODE, [join(LIB, "json-print.mjs"), doc.document]],
        ["zarr info", NODE, [CLI, "info", doc.v3, "a"]],
        ["zarr info --json", NODE, [CLI, "info", doc.v3, "a", "--json"]],
        ["zarr tree", NODE, [CLI, "tree", doc.v3]],
        ["zarr get", NODE, [CLI, "get", doc.v3, "a"]],
      ];
      if (python.ok) commands.push(["zarr-python attrs (v2)", PYTHON, ["-c", PY_ATTRS, doc.v2 + "/a"]], ["zarr-python tree (v2)", PYTHON, ["-c", PY_TREE, doc.v2]]);
      let yardstick;
      for (const [name, command, argv] of commands) {
        const m = measure(command, argv);
        yardstick ??= m.seconds;
        const over = m.seconds / yardstick;
        const rss = (m.maxRss - idle) / bytes;
        rows.push([doc.name, name, seconds(m.seconds), ratio(over), mib(m.maxRss), ratio(rss)]);
        if (name.startsWith("zarr ")) {
          report.target({ name: `${doc.name}: ${name} / JSON.parse + print`, value: over, op: "≤", limit: 3 });
          report.target({ name: `${doc.name}: ${name} (peak RSS − idle) / document size (${mib(bytes)})`, value: rss, op: "≤", limit: 4 });
        }
      }
    }
    report.table("Whole processes", ["document", "command", "seconds", "/ yardstick", "peak RSS", "RSS / document"], rows, ["l", "l", "r", "r", "r", "r"]);
    report.note("The yardstick and zarr-python hold the parsed document as JS / Python objects: with millions of keys that alone is several times the document's size.");
    report.finish();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
