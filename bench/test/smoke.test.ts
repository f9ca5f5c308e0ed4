/**
 * The benchmark scripts in bench/ still run (each with --quick: small data, one
 * repetition) and print their markdown tables with ratios. Only that is checked; their
 * timings are not tested (see bench/README.md for the real runs).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { haveChromium, haveGdal, havePythonZarr, requirePeer, requirePythonZarr } from "../../scripts/test-env.mjs";

const BENCH = join(import.meta.dirname, "..");
// The scripts' data goes to a directory of this run (not the shared cache), removed at the end.
const DATA = mkdtempSync(join(tmpdir(), "zarr-bench-smoke-"));
afterAll(() => rmSync(DATA, { recursive: true, force: true }));
/** Runs a bench script with --quick, prints its output (the markdown tables) and returns it. */
const run = async (script: string, ...args: string[]) => {
  const { stdout } = await promisify(execFile)(process.execPath, [join(BENCH, script), "--quick", ...args], {
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, ZARR_BENCH_DATA: DATA },
  });
  console.log(stdout);
  return stdout;
};

/** A markdown table row holding at least one ratio such as "1.23×" (or "–" when a peer is missing). */
const RATIO = /^\|.*\d+\.\d\d×.*\|$/m;
/** The targets table: every target row ends in pass, fail or not measured. */
const TARGETS = /### Targets\n\n\| target +\| +measured +\|[^\n]*\n[^\n]*\n(\| [^\n]*\| (pass|\*\*fail\*\*|not measured) +\|\n)+/;

describe("bench scripts (--quick)", { timeout: 300_000 }, () => {
  it("bench/http.mjs runs @zarr and zarrita.js over HTTP", async () => {
    const out = await run("http.mjs");
    expect(out).toMatch(/uncompressed .* @zarr /);
    expect(out).toMatch(/blosc-lz4-shuffle .* zarrita\.js /);
  });

  it("bench/icechunk-diff.mjs diffs through transaction logs and by comparing chunk references", async () => {
    const out = await run("icechunk-diff.mjs");
    expect(out).toMatch(/\| diff from transaction logs \| [\d.]+ ms \| [\d,]+ \| 1\.00× \|/);
    expect(out).toMatch(/\| compare every chunk reference of both snapshots \| [\d.]+ ms \| [\d,]+ \| \d+\.\d\d× \|/);
  });

  it("bench/icechunk.mjs reads through Icechunk and plain Zarr, and counts the requests of one chunk of 1,000 arrays", async () => {
    const out = await run("icechunk.mjs");
    expect(out).toMatch(/ {2}fs: plain \d+ ms .* icechunk \d+ ms .*: wall \d+\.\d\d×, CPU \d+\.\d\d×/);
    expect(out).toMatch(/ {2}http \(20 ms latency, 64 reads in flight\): plain .* wall \d+\.\d\d×/);
    expect(out).toContain("1,000 arrays: open + one chunk of one array = 4 requests (repo, snapshots, manifests, chunks)");
  });

  it("bench/http.mjs --transports runs HttpStore.readInto over nodeFetch, undici and the global fetch", async () => {
    const out = await run("http.mjs", "--transports");
    for (const transport of ["nodeFetch", "undici request", "global fetch"]) expect(out).toMatch(new RegExp(`\\| 0 ms \\| ${transport} \\| [\\d.]+ \\| \\d+ \\| \\d+\\.\\d\\d \\|`));
    expect(out).toContain("| 20 ms | undici request |");
  });

  it("bench/coalesce.mjs counts the requests of concurrent tile reads with and without coalescing", async () => {
    const out = await run("coalesce.mjs");
    expect(out).toMatch(/\| coalesce \(default\) +\| +\d+ \| +\d+\.\d{3} \|/);
    expect(out).toMatch(/\| coalesce: false +\| +\d+ \|/);
    expect(out).toMatch(TARGETS);
  });

  it("bench/maplibre-tiles.mjs renders pyramid tiles over HTTP, decoding in the pool and here, with CPU per thread", async () => {
    const out = await run("maplibre-tiles.mjs");
    // Every zoom of both datasets, both ways: requests, round trips, then the CPU columns.
    for (const dataset of ["EPSG:4326", "EPSG:32633"]) {
      for (const mode of ["in pool", "here \\(before\\)"]) {
        expect(out).toMatch(new RegExp(`\\| ${dataset} +\\| +10 \\| +\\d \\| ${mode} +\\| +\\d+ \\| +\\d+ \\|( +\\d+\\.\\d \\|){5}`));
      }
    }
    expect(out).toMatch(/\| round trips after the metadata[^|]*\| +\d+ \| +≤ 2 \|/);
    expect(out).toMatch(TARGETS);
  });

  it("bench/geotiff-refs.mjs reads a GeoTIFF through its reference set and with GDAL, per compression", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const out = await run("geotiff-refs.mjs");
    for (const c of ["NONE", "DEFLATE", "ZSTD", "LZW"]) expect(out).toMatch(new RegExp(`\\| ${c} +\\| +\\d+\\.\\d{3} \\|.*\\d+\\.\\d\\d× \\|$`, "m"));
  });

  it("bench/read.mjs runs the three readers, fresh result and out reused", async () => {
    requirePythonZarr(); // the zarr-python column
    const out = await run("read.mjs", "--only", "uncompressed,zstd", "--workers", "1");
    for (const reader of ["@zarr (fresh result)", "@zarr, out reused", "zarrita.js (fresh result)", "zarr-python"]) expect(out).toContain(reader);
    expect(out).toMatch(/\| zstd +\| full +\| @zarr \(fresh result\)/);
    expect(out).toMatch(RATIO);
    expect(out).toMatch(TARGETS);
    expect(out).toContain("in-process zstd, fresh result, 1 workers: zarrita.js / @zarr");
  });

  it("bench/cli-read.mjs times zarr get against zarrita.js (and zarr-python) processes", async () => {
    const out = await run("cli-read.mjs", "--only", "uncompressed,zstd");
    expect(out).toMatch(/\| zstd +\| +\d+\.\d{3} \|/);
    expect(out).toMatch(RATIO);
    expect(out).toMatch(TARGETS);
    expect(out).toContain("CLI read zstd: zarrita.js / @zarr");
  });

  it("bench/read-floor.mjs compares the raw read with the floor, in-process and whole-process", async () => {
    const out = await run("read-floor.mjs");
    expect(out).toMatch(/\| in-process \(fresh result\) +\| +\d+\.\d{3} \|/);
    expect(out).toMatch(/\| whole-process \(CLI\) +\| +\d+\.\d{3} \|/);
    expect(out).toMatch(RATIO);
    expect(out).toMatch(TARGETS);
  });

  it("bench/tree.mjs lists a zarr-python hierarchy with zarr tree and walk, beside zarr-python", async () => {
    requirePythonZarr(); // the zarr-python columns
    const out = await run("tree.mjs");
    expect(out).toMatch(/\| 5 × 10 \(56 nodes\), plain +\| +\d+\.\d{3} \|/);
    expect(out).toMatch(/\| 5 × 10 \(56 nodes\), consolidated +\| +55 \|/);
    expect(out).toMatch(RATIO);
    expect(out).toMatch(TARGETS);
    expect(out).not.toContain("printed"); // zarr tree printed every node
  });

  it("bench/sharded.mjs reads the sharded and unsharded zstd arrays with a worker pool", async () => {
    const out = await run("sharded.mjs");
    expect(out).toMatch(/\| @zarr \(worker pool\) +\| +\d+\.\d{3} \| +\d+\.\d{3} \|.*×/);
    expect(out).toMatch(/\| zarr get, sharded +\| +\d+\.\d{3} \| +\d+\.\d{3} \|.*×/); // whole processes
    expect(out).toMatch(TARGETS);
  });

  it("bench/kernels-zstd-encode.mjs compares the zstd encoder kernel with TypeScript, numcodecs and whole writes", async () => {
    const out = await run("kernels-zstd-encode.mjs", "--chunks", "1", "--levels", "1", "--write-size", "256");
    expect(out).toMatch(/\| +1 \| +1\.\d{3} \| +\d+\.\d\d \| +\d+\.\d\d \| +\d+\.\d\d× \|/); // level 1: ratio, TS, WASM, TS / WASM
    if (havePythonZarr()) {
      expect(out).toMatch(/\| zarr-python +\| +-?\d+\.\d{3} \|/);
      expect(out).toMatch(TARGETS);
    }
  });

  it("bench/floors.mjs measures page faults, inflate, idle workers and the encoders", async () => {
    const out = await run("floors.mjs");
    expect(out).toMatch(/\| +2 \| +\d+\.\d \| +[\d,]+ \|/); // faults from two threads
    expect(out).toMatch(/\| +2 \| +\d+\.\d MiB \| +[\d,]+ \|/); // two idle workers
    expect(out).toMatch(/\| @zarr zstd level 1 +\| +\d+\.\d\d \| +0\.\d{3} \|/);
    if (havePythonZarr()) expect(out).toMatch(/\| numcodecs Blosc lz4 \(C\), 2 threads +\| +\d+\.\d\d \|/);
    // Huge pages, unless this machine cannot have them (the note says why).
    if (!out.includes("huge pages not measured: ")) {
      const inProcess = ["same process, at once", "same process, after 0.2 s idle"];
      for (const state of ["new process, back to back", "new process, after 0.2 s idle", ...inProcess]) {
        for (const tunable of ["without", "hugetlb=1"]) {
          expect(out).toMatch(new RegExp(`\\| ${state} +\\| ${tunable} +\\|( +\\d+\\.\\d \\|){6} +[\\d,]+ \\| +\\d+\\.\\d MiB \\|`)); // page touching
          if (!inProcess.includes(state)) expect(out).toMatch(new RegExp(`\\| ${state} +\\| ${tunable} +\\|( +\\d+ \\|){7} +[\\d,]+ \\|`)); // zarr get
        }
        const what = inProcess.includes(state) ? "page touching" : "zarr get";
        expect(out).toContain(`huge pages, ${what}, ${state}: with / without the tunable, wall time `);
      }
    }
  });

  it("bench/floors.mjs --only runs the sections named", async () => {
    const out = await run("floors.mjs", "--only", "workers");
    expect(out).toMatch(/\| +2 \| +\d+\.\d MiB \| +[\d,]+ \|/);
    expect(out).not.toContain("Touching every page");
    expect(out).not.toContain("Huge pages");
  });

  it("bench/memory.mjs measures peak RSS and page faults of zarr get", async () => {
    const out = await run("memory.mjs");
    expect(out).toMatch(/\| @zarr CLI `zarr get` +\| uncompressed +\| +\d+\.\d MiB \| +[\d,]+ \|/);
    expect(out).toMatch(/\| @zarr CLI `zarr get` +\| zstd /);
    expect(out).toMatch(TARGETS);
    expect(out).toContain("memory zstd: @zarr CLI minor page faults");
  });

  it("bench/small-chunks.mjs reads zarr-python's small-chunk v2 arrays in three processes", async () => {
    const out = await run("small-chunks.mjs");
    expect(out).toMatch(/\| raw +\| +\d+\.\d{3} \|/);
    expect(out).toMatch(/\| gzip +\| +\d+\.\d{3} \|/);
    if (havePythonZarr()) expect(out).toMatch(RATIO);
    expect(out).toMatch(TARGETS);
  });

  it("bench/missing-chunks.mjs reads all-missing arrays in and out of process, and samples a 10^15-chunk read", async () => {
    const out = await run("missing-chunks.mjs", "--seconds", "2");
    expect(out).toMatch(/\| 20,000 \| in process +\| @zarr v3 +\| +\d+\.\d{3} \|/);
    expect(out).toMatch(/\| 20,000 \| whole process \| @zarr v2 +\| +\d+\.\d{3} \|/);
    if (havePythonZarr()) expect(out).toMatch(/\| 20,000 \| in process +\| zarr-python v2 \|/);
    expect(out).toMatch(/\| +\d+ \| +[\d.]+ MiB \| +[\d.]+ MiB \| +[\d.]+ MiB \|/);
    expect(out).toMatch(TARGETS);
  });

  it("bench/write.mjs --isolated runs each writer in its own process", async () => {
    const out = await run("write.mjs", "--isolated", "--only", "uncompressed,zstd");
    expect(out).toContain("Write (isolated");
    expect(out).toMatch(/\| zstd +\| @zarr +\| +\d+\.\d{3} \|/);
    expect(out).toMatch(RATIO);
    expect(out).toMatch(TARGETS);
  });

  it("bench/huge-metadata.mjs times zarr info, tree and get on huge documents against JSON.parse + print and zarr-python", async () => {
    requirePythonZarr(); // the zarr-python rows
    const out = await run("huge-metadata.mjs");
    for (const command of ["JSON.parse + print (node)", "zarr info --json", "zarr tree", "zarr get", "zarr-python attrs (v2)"]) expect(out).toContain(`| ${command} `);
    expect(out).toMatch(/\| one 2 MB string attribute +\| zarr info +\| +\d+\.\d{3} \|/);
    expect(out).toMatch(RATIO);
    expect(out).toMatch(TARGETS);
  });

  it("bench/kernels-blosc.mjs compares the blosc and LZ4 kernels with TypeScript, alone and in whole chunks", async () => {
    const out = await run("kernels-blosc.mjs", "--chunks", "2");
    for (const row of ["bit unshuffle (4-byte)", "LZ4 decode", "blosc-lz4-shuffle decode", "blosc-zstd-bitshuffle encode"]) {
      expect(out).toMatch(new RegExp(`\\| ${row.replace(/[()]/g, "\\$&")} +\\| +[\\d.]+ MiB \\| +\\d+ \\| +\\d+ \\| +\\d+\\.\\d\\d× \\|`));
    }
    expect(out).toMatch(TARGETS);
  });

  it("bench/kernels-inflate.mjs compares the inflate kernel with node:zlib, fflate and (in chromium) DecompressionStream", async () => {
    const browser = haveChromium();
    const out = await run("kernels-inflate.mjs", "--chunks", "1", ...(browser ? [] : ["--no-browser"]));
    expect(out).toMatch(/\| bench chunks [^|]+\| node:zlib, into a kept buffer +\| +\d+\.\d\d \| +\d+\.\d\d× \|/);
    if (browser) expect(out).toMatch(/\| bench chunks [^|]+\| DecompressionStream +\| +\d+\.\d\d \| +\d+\.\d\d× \|/);
    expect(out).toMatch(TARGETS);
  });

  it("bench/browser.mjs reads in chromium with @zarr (main thread, pool of 2) and zarrita.js, and times the first value", async () => {
    requirePeer(haveChromium(), "Debian's chromium (/usr/bin/chromium)");
    const out = await run("browser.mjs", "--reps", "1", "--only", "gzip,zstd");
    for (const source of ["a. In-page store", "b. Over HTTP"]) {
      const table = out.slice(out.indexOf(`### ${source}`));
      for (const reader of ["@zarr, pool of 2", "@zarr, main thread"]) expect(table).toMatch(new RegExp(`\\| zstd +\\| ${reader} +\\| +\\d+\\.\\d{3} \\| +\\d+ \\| +\\d+\\.\\d\\d× \\|`));
      expect(table).toMatch(/\| gzip +\| zarrita\.js +\| +\d+\.\d{3} \|/);
    }
    // Time to first value: milliseconds to the entry module and to the value, the ratio, then JS requests and bytes.
    expect(out).toMatch(/\| @zarr +\| +\d+\.\d \| +\d+\.\d \| +\d+\.\d\d× \| +[1-9]\d* \| +[\d,]+ \| +[\d,]+ \| +[1-9]\d* \|/);
    expect(out).toMatch(/\| zarrita\.js +\| +\d+\.\d \| +\d+\.\d \| +\| +[1-9]\d* \|/);
    expect(out).toMatch(TARGETS);
    expect(out).toContain("| in-page store zstd, @zarr, pool of 2: zarrita.js / @zarr ");
    expect(out).toContain("| over HTTP gzip, @zarr, main thread: zarrita.js / @zarr ");
    // The readers agreed, the pool was used, and the pages reported no errors.
    expect(out).not.toMatch(/results differ|not on a SharedArrayBuffer|not cross-origin isolated|page error|console error|failed|first values differ/);
  });

  it("bench/report.mjs collects the scripts' targets into one report", async () => {
    const out = await run("report.mjs", "--only", "sharded,small-chunks");
    expect(out).toContain("# Benchmark report (quick sizes");
    expect(out).toMatch(/\| sharded +\| sharded zstd: sharded \/ unsharded .*\| `node bench\/sharded\.mjs --quick` +\|/);
    expect(out).toMatch(/\| small-chunks +\| small chunks gzip: /);
    expect(out).toContain("### Many small chunks");
  });
});
