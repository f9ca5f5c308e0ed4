#!/usr/bin/env node
// In-process read benchmark: the same 256 MiB float32 array (8192×8192, 512×512 chunks) in
// several encodings, each read by @zarr and by zarrita.js (from a Zarr v3 copy) and by
// zarr-python 2.13 (from a Zarr v2 copy whose chunk files are byte-identical), all in one
// run. Prints a markdown table of times, throughput and ratios.
//
//   node bench/read.mjs                      every variant, full size, median of 5
//   node bench/read.mjs --quick              1024×1024 (256×256 chunks), one repetition (alias: --smoke)
//   node bench/read.mjs --only gzip,zstd     some variants
//   node bench/read.mjs --workers 2          decode in 2 worker threads (@zarr only; from a
//                                            local store the workers also read the chunk files)
//   options: --reps N  --size N --chunk C  --json FILE (for bench/report.mjs)
//
// "fresh result": every call allocates its result (`get(array)`, `zarrita.get(array)`), as
// an application reading arrays does; the target is zarrita.js time / @zarr time ≥ 3 on every
// codec (whole array). "out reused": `get(array, null, { out })` into one buffer allocated
// before timing, as zarr-python's `out=` allows.
//
// The chunks are written once by zarr-python (numcodecs' C libraries) and cached (bench/lib/data.mjs).
import { join } from "node:path";
import { CPUS, LIB, MiB, PYTHON, loadZarrita, main, parseArgs, pythonZarr, reps, requireBuilt, size, skipping } from "./lib/common.mjs";
import { pickVariants, readData } from "./lib/data.mjs";
import { race, timeIt } from "./lib/measure.mjs";
import { execFileSync } from "node:child_process";
import { Report, ratio, seconds, throughput } from "./lib/output.mjs";

await main(async () => {
  requireBuilt();
  const { get, openArray, slice, FileSystemStore } = await import("@zarr/all");
  const { createWorkerPool } = await import("@zarr/all/workers");
  const args = parseArgs();
  const { n: N, c: C } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const REPS = reps(args, 5);
  const workers = args.number("--workers", 0);
  const variants = pickVariants(args.list("--only"));
  const report = new Report({ script: "read.mjs", title: "In-process read (@zarr get vs zarrita.js get vs zarr-python)", args });
  report.line(`${N}×${N} float32 (${(N * N * 4) / MiB} MiB), ${C}×${C} chunks; median of ${REPS} after a warm-up, the readers taking turns; ${CPUS} CPUs`);
  report.line(`@zarr decode workers: ${workers ? `${workers} (createWorkerPool)` : "none (default options: main thread)"}`);
  report.line("fresh result: each call allocates its result; out reused: `get(..., { out })` into one buffer allocated before timing");

  const zarrita = await loadZarrita();
  if (!zarrita.ok) report.note(skipping("zarrita.js", zarrita.why));
  const python = pythonZarr();
  if (!python.ok) report.note(skipping("zarr-python", python.why));

  const pool = workers > 0 ? createWorkerPool({ size: workers }) : undefined;
  const rows = [];
  try {
    for (const v of variants) {
      const { v2, v3 } = await readData({ n: N, c: C, variant: v });
      const ours = await openArray(new FileSystemStore(v3, { readOnly: true }), "");
      const z = zarrita.ok ? zarrita.zarrita : undefined;
      const theirs = z ? await z.open(z.root(new zarrita.storage.FileSystemStore(v3)), { kind: "array" }) : undefined;
      const lo = N / 8;
      const hi = lo + N / 4;
      const selections = [
        { label: "full", elements: N * N, ours: null, zarrita: undefined, python: ":" },
        {
          label: `[${lo}:${hi}, ${lo}:${hi}]`,
          elements: (hi - lo) * (hi - lo),
          ours: [slice(lo, hi), slice(lo, hi)],
          zarrita: z ? [z.slice(lo, hi), z.slice(lo, hi)] : undefined,
          python: `${lo}:${hi}, ${lo}:${hi}`,
        },
      ];
      for (const s of selections) {
        // One buffer allocated (and page-faulted) before timing, as with zarr-python's out=.
        const out = new Float32Array(pool ? new SharedArrayBuffer(s.elements * 4) : new ArrayBuffer(s.elements * 4)).fill(1);
        const contenders = {
          "@zarr (fresh result)": () => timeIt(() => get(ours, s.ours, { workers: pool })),
          "@zarr, out reused": () => timeIt(() => get(ours, s.ours, { workers: pool, out })),
        };
        if (theirs) contenders["zarrita.js (fresh result)"] = () => timeIt(() => z.get(theirs, s.zarrita));
        const { times, errors } = await race(contenders, { reps: REPS, warmup: 1 });
        for (const [who, e] of Object.entries(errors)) report.note(`${v.name} ${s.label}: ${who} failed: ${e}`);
        if (python.ok && v2) {
          try {
            const out = execFileSync(PYTHON, [join(LIB, "zarr_python.py"), "time-read", v2, String(REPS), s.python], { encoding: "utf8" });
            times["zarr-python"] = JSON.parse(out);
          } catch (error) {
            report.note(`${v.name} ${s.label}: zarr-python failed: ${error.message.split("\n")[0]}`);
          }
        }
        rows.push({ variant: v.name, selection: s.label, bytes: s.elements * 4, t: times });
        if (s.ours === null) {
          report.target({
            name: `in-process ${v.name}, fresh result${workers ? `, ${workers} workers` : ", main thread"}: zarrita.js / @zarr`,
            value: times["zarrita.js (fresh result)"] / times["@zarr (fresh result)"],
            op: "≥",
            limit: 3,
          });
        }
      }
    }
  } finally {
    await pool?.close();
  }

  const table = [];
  for (const r of rows) {
    for (const [reader, t] of Object.entries(r.t)) {
      const ours = reader.startsWith("@zarr");
      table.push([
        r.variant,
        r.selection,
        reader,
        seconds(t),
        throughput(r.bytes, t),
        ours ? ratio(r.t["zarrita.js (fresh result)"] / t) : "",
        ours ? ratio(r.t["zarr-python"] / t) : "",
      ]);
    }
  }
  report.table(
    "Read times",
    ["variant", "selection", "reader", "time (s)", "MiB/s", "zarrita.js / this", "zarr-python / this"],
    table,
    ["l", "l", "l", "r", "r", "r", "r"],
  );
  report.note("Ratios are the other reader's time / this reader's time: above 1 means @zarr is faster.");
  report.note(
    "A fresh 256 MiB result costs the kernel ~65k page faults, which NumPy avoids with transparent huge pages; zarr-python's time is z[sel] (a fresh result too).",
  );
  report.finish();
});
