#!/usr/bin/env node
// Reads in Chromium: the bench arrays (8192×8192 float32 in 512×512 chunks, every codec)
// served from 127.0.0.1 (Range, cross-origin isolated, no caching, `--latency MS` added to
// every response), read in Debian's chromium by pages bundled with esbuild (minified, code
// splitting, ESM; bench/lib/browser/): @zarr (on the main thread, and with a pool of 2 module
// Web Workers) against zarrita.js (its default codecs, numcodecs.js). Not run by report.mjs.
//
//   node bench/browser.mjs                     every codec, full size, median of 5
//   node bench/browser.mjs --quick             1024×1024 (256×256 chunks), the whole array, one repetition
//   node bench/browser.mjs --only gzip,zstd    some codecs
//   node bench/browser.mjs --latency 20        20 ms added to every response
//   options: --reps N  --size N --chunk C  --json FILE
//
// Per codec, a 4096×4096 window (64 MiB; the whole array with --quick) is read
//   a. from an in-page store: the window's chunk bytes fetched into memory before timing
//      (@zarr: MemoryStore; zarrita.js: a Map), then `get` timed: the decode engine;
//   b. over HTTP from 127.0.0.1 (@zarr: HttpStore; zarrita.js: FetchStore): what users see;
// each by @zarr with a pool of 2 workers, @zarr on the main thread and zarrita.js, taking
// turns after a first round that checks the three results are equal (a checksum of the
// Float32Array). Then
//   c. a fresh page per library (a new browser context: nothing cached) reads one value
//      of the gzip array as soon as it loads: the time from navigation to the entry module
//      running and to the first value, and the JS it fetched before the first value.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { timeFirstValue } from "./lib/browser-first-value.mjs";
import { openBenchPage, timeReads, verify } from "./lib/browser-reads.mjs";
import { bundlePages, chromiumAvailable, cpuMeter, launchChromium, PAGES } from "./lib/chromium.mjs";
import { CPUS, loadZarrita, MiB, main, parseArgs, reps, requireBuilt, size, skipping } from "./lib/common.mjs";
import { dataRoot, pickVariants, readData, variant } from "./lib/data.mjs";
import { startFileServer } from "./lib/http-server.mjs";
import { count, Report, ratio, seconds, throughput } from "./lib/output.mjs";

/** Response headers of every file: a cross-origin isolated page (SharedArrayBuffer for the pool), nothing cached. */
const HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
};

/** The codecs with targets on the in-page store (issue 22): the pool ≥ 3×, the main thread ≥ 1.5× zarrita.js. */
const ENGINE_TARGETS = { "blosc-lz4-shuffle": true, "blosc-zstd-bitshuffle": true, zstd: true, gzip: true };

/** The contenders of the timed reads: label, page, mode. */
const READERS = [
  { label: "@zarr, pool of 2", page: "zarr", mode: "pool" },
  { label: "@zarr, main thread", page: "zarr", mode: "main" },
  { label: "zarrita.js", page: "zarrita", mode: "main" },
];

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n: N, c: C } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const REPS = reps(args, 5);
  const latency = args.number("--latency", 0);
  const variants = pickVariants(args.list("--only"));
  // The window: the middle half of each axis (4096×4096 of 8192×8192), or everything with --quick.
  const region = args.quick ? null : [N / 4, N / 4 + N / 2];
  const side = region ? region[1] - region[0] : N;
  const report = new Report({ script: "browser.mjs", title: "Reads in Chromium (@zarr vs zarrita.js)", args });
  const note = (text) => report.note(text);

  const chromium = chromiumAvailable();
  if (!chromium.ok) throw new Error(`chromium is needed: ${chromium.why}`);
  const zarrita = await loadZarrita();
  if (!zarrita.ok) report.note(skipping("zarrita.js", zarrita.why));
  const readers = READERS.filter((r) => zarrita.ok || r.page !== "zarrita");
  const pageNames = Object.keys(PAGES).filter((p) => zarrita.ok || PAGES[p].library !== "zarrita.js");

  const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const loadBefore = loadAverage();
  const dir = mkdtempSync(join(tmpdir(), "zarr-bench-browser-"));
  let server;
  let browser;
  try {
    const bundles = await bundlePages(dir, pageNames);
    server = await startFileServer({ mounts: { "/": dir, "/data/": dataRoot() }, latency, headers: HEADERS });
    browser = await launchChromium();
    const chromiumCpu = await cpuMeter(browser);
    report.line(
      `${N}×${N} float32 (${(N * N * 4) / MiB} MiB), ${C}×${C} chunks; read: ${region ? `[${region[0]}:${region[1]}, ${region[0]}:${region[1]}]` : "the whole array"} (${(side * side * 4) / MiB} MiB); median of ${REPS} after a checked first round, the readers taking turns; ${CPUS} CPUs`,
    );
    report.line(`Chromium ${browser.version()} (headless, Debian's), playwright-core; zarrita.js ${zarrita.ok ? (zarrita.version ?? "") : "missing"}`);
    report.line(`server: 127.0.0.1 in a worker thread of this process, files from memory, ${latency} ms added per response; pages cross-origin isolated, nothing cached`);

    const pages = {};
    for (const name of ["zarr", "zarrita"].filter((p) => pageNames.includes(p))) pages[name] = await openBenchPage(browser, `${server.url}${name}/`, note);
    if (!(await pages.zarr.page.evaluate(() => globalThis.bench.isolated))) report.note("the @zarr page is not cross-origin isolated: the pool cannot be used");

    const engine = [];
    const http = [];
    for (const v of variants) {
      console.error(`browser: ${v.name} ...`);
      const { v3 } = await readData({ n: N, c: C, variant: v });
      const options = { url: `${server.url}data/${relative(dataRoot(), v3)}/`, keys: storeKeys(N, C, region), region };
      for (const p of Object.values(pages)) await p.page.evaluate((o) => globalThis.bench.open(o), options);
      for (const [source, rows] of [
        ["memory", engine],
        ["http", http],
      ]) {
        const ok = await verify(pages, readers, source, v, side * side, note);
        rows.push({ variant: v.name, ok, ...(await timeReads(pages, readers, source, chromiumCpu, REPS, (e) => note(`${v.name} (${source}): ${e}`))) });
      }
    }
    for (const p of Object.values(pages)) await p.context.close();

    console.error("browser: time to first value ...");
    const gzipArray = await readData({ n: N, c: C, variant: variant("gzip") });
    const first = await timeFirstValue(browser, server.url, `/data/${relative(dataRoot(), gzipArray.v3)}/`, bundles, REPS, note);

    const bytes = side * side * 4;
    for (const [heading, rows] of [
      ["a. In-page store (the chunk bytes in memory before timing): the decode engine", engine],
      ["b. Over HTTP from 127.0.0.1: what users see", http],
    ]) {
      report.table(
        heading,
        ["variant", "reader", "time (s)", "MiB/s", "zarrita.js / this", "Chromium CPU (s)", "zarrita.js / this (CPU)"],
        rows.flatMap((r) =>
          Object.entries(r.t).map(([reader, t]) => {
            const ours = reader.startsWith("@zarr");
            return [r.variant, reader, seconds(t), throughput(bytes, t), ours ? ratio(r.t["zarrita.js"] / t) : "", seconds(r.cpu[reader]), ours ? ratio(r.cpu["zarrita.js"] / r.cpu[reader]) : ""];
          }),
        ),
        ["l", "l", "r", "r", "r", "r", "r"],
      );
    }
    report.table(
      `c. Time to first value: a fresh page reading one value of the gzip array (${N}×${N}, ${C}×${C} chunks)`,
      ["library", "entry module runs (ms)", "first value (ms)", "zarrita.js / this", "JS requests", "JS bytes", "JS bytes (gzip)", "other requests"],
      first.map((f) => [
        f.library,
        f.entryStarted.toFixed(1),
        f.firstValue.toFixed(1),
        f.library === "@zarr" ? ratio(first.find((x) => x.library === "zarrita.js")?.firstValue / f.firstValue) : "",
        count(f.jsRequests),
        count(f.jsBytes),
        count(f.jsGzipBytes),
        count(f.otherRequests),
      ]),
      ["l", "r", "r", "r", "r", "r", "r", "r"],
    );

    for (const r of engine) {
      if (!ENGINE_TARGETS[r.variant]) continue;
      for (const [label, limit] of [
        ["@zarr, pool of 2", 3],
        ["@zarr, main thread", 1.5],
      ]) {
        report.target({ name: `in-page store ${r.variant}, ${label}: zarrita.js / @zarr`, value: r.ok ? r.t["zarrita.js"] / r.t[label] : undefined, op: "≥", limit });
      }
    }
    for (const r of http) {
      for (const label of ["@zarr, main thread", "@zarr, pool of 2"]) {
        report.target({ name: `over HTTP ${r.variant}, ${label}: zarrita.js / @zarr`, value: r.ok ? r.t["zarrita.js"] / r.t[label] : undefined, op: "≥", limit: 1 });
      }
    }
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  report.line(`load average (1, 5, 15 min) before: ${loadBefore}; after: ${loadAverage()}`);
  report.note(
    "Ratios are zarrita.js's time / this reader's time: above 1 means @zarr is faster. Times are `get` alone, measured in the page (`performance.now()`), each call a fresh result; the targets are on these wall times. Chromium CPU is the CPU time of all of Chromium's processes over the same call (the HTTP server, in this process, not counted): the work done, whatever the machine's load.",
  );
  report.note("c.: milliseconds from navigation (`performance.now()` in the page): when the entry module's body started (its static imports loaded and run) and when the value arrived; requests are the page's network events that started before the first value (the page itself not counted; zarrita.js's `open` asks for .zattrs and .zarray (404) before zarr.json), JS bytes as served (minified, uncompressed), gzip level 9 beside them.");
  report.finish();
});

/** The store keys a read of `region` (both axes; null: everything) touches: zarr.json and its chunks. */
function storeKeys(n, c, region) {
  const [lo, hi] = region ?? [0, n];
  const first = Math.floor(lo / c);
  const last = Math.ceil(hi / c);
  const keys = ["zarr.json"];
  for (let i = first; i < last; i++) for (let j = first; j < last; j++) keys.push(`c/${i}/${j}`);
  return keys;
}
