#!/usr/bin/env node
// The gzip codec's inflate WebAssembly kernel (packages/codec-gzip/wasm/inflate.c) against the
// decoders the codec uses today, on the same gzip chunks, to decide where the kernel ships:
//   - Node, one thread, CPU time: node:zlib's public gunzipSync, node:zlib into a kept buffer
//     (the codec's decodeInto on worker threads), fflate (the codec's exact path), and the
//     kernel with a fresh output per chunk and into a kept buffer;
//   - Chromium (Debian's, headless, through playwright-core), its main thread, wall time: the
//     kernel, fflate, and DecompressionStream (the codec's browser default) chunk after chunk
//     and with every chunk in flight at once (bench/lib/browser/inflate-page.mjs).
// Data: K chunks of the read benchmark's gzip array (the bench values as float32, gzip level 1
// as numcodecs writes them: almost all literals), and a text chunk (1 MiB of generated JSON
// lines: mostly matches). Every decoder verifies the CRC-32 and length of what it decodes.
//
//   node bench/kernels-inflate.mjs               16 chunks of the 8192×8192 array, 7 repetitions
//   node bench/kernels-inflate.mjs --quick       4 chunks, 1 repetition
//   options: --chunks K  --size N  --chunk C  --reps R  --no-browser  --json FILE
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { chromiumAvailable, launchChromium } from "./lib/chromium.mjs";
import { LIB, MiB, main, parseArgs, REPO, reps, size } from "./lib/common.mjs";
import { benchChunk } from "./lib/data.mjs";
import { cpuMs, median } from "./lib/measure.mjs";
import { Report, ratio } from "./lib/output.mjs";

const dist = (pkg, file) => pathToFileURL(join(REPO, "packages", pkg, "dist", file)).href;


/** 1 MiB of JSON lines, deterministic: text with many repeats, where matches dominate. */
function textChunk(bytes) {
  const out = new Uint8Array(bytes);
  const enc = new TextEncoder();
  let at = 0;
  for (let i = 0; at < bytes; i++) {
    const line = enc.encode(`{"id": ${i}, "name": "station-${(i * 7919) % 1000}", "value": ${((i * 37) % 1000) / 10}, "ok": ${i % 3 === 0}}\n`);
    out.set(line.subarray(0, bytes - at), at);
    at += line.length;
  }
  return out;
}


/** Node: CPU ms per MiB of output of each decoder over `chunks`, median of `repetitions`, taking turns. */
async function nodeTimes(chunks, size, repetitions) {
  const zlib = await import("node:zlib");
  const { inflateInto } = await import(dist("codec-gzip", "inflate-into.node.js"));
  const { gunzipVerified } = await import(dist("codec-gzip", "fflate-backend.js"));
  const { inflateIntoWithKernel, inflateKernelReady, inflateWithKernel } = await import(dist("codec-gzip", "inflate-kernel.js"));
  await inflateKernelReady();
  const out = new Uint8Array(size + 1);
  const decoders = {
    "node:zlib gunzipSync": (c) => zlib.gunzipSync(c).length,
    "node:zlib, into a kept buffer": (c) => inflateInto(c, "gzip", out).length,
    fflate: (c) => gunzipVerified(c, size).length,
    "WASM kernel": (c) => inflateWithKernel(c, "gzip", size).length,
    "WASM kernel, into a kept buffer": (c) => inflateIntoWithKernel(c, "gzip", out).length,
  };
  const times = Object.fromEntries(Object.keys(decoders).map((k) => [k, []]));
  for (let r = -1; r < repetitions; r++) {
    for (const [name, decode] of Object.entries(decoders)) {
      let total = 0;
      const ms = cpuMs(() => {
        for (const c of chunks) total += decode(c);
      });
      if (total !== chunks.length * size) throw new Error(`${name} decoded ${total} bytes, expected ${chunks.length * size}`);
      if (r >= 0) times[name].push(ms);
    }
  }
  const mib = (chunks.length * size) / MiB;
  return Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs) / mib]));
}

/** Chromium: wall ms per MiB of output of each decoder of the page, median of `repetitions`. */
async function chromiumTimes(chunks, size, repetitions) {
  const { build } = await import("esbuild");
  const bundled = await build({
    entryPoints: [join(LIB, "browser", "inflate-page.mjs")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    absWorkingDir: REPO,
    logLevel: "warning",
  });
  const script = bundled.outputFiles[0].contents;
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  const files = {
    "/": { type: "text/html", body: '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>' },
    "/page.js": { type: "text/javascript", body: Buffer.from(script) },
    "/chunks.bin": { type: "application/octet-stream", body: Buffer.from(all) },
    "/chunks.json": { type: "application/json", body: JSON.stringify({ lengths: chunks.map((c) => c.length), size }) },
  };
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.route("http://bench.invalid/**", (route) => {
      const file = files[new URL(route.request().url()).pathname];
      return file ? route.fulfill({ status: 200, contentType: file.type, body: file.body }) : route.fulfill({ status: 404 });
    });
    await page.goto("http://bench.invalid/");
    await page.waitForFunction(() => globalThis.bench !== undefined);
    const times = await page.evaluate((r) => globalThis.bench.run(r), repetitions);
    if (errors.length > 0) throw new Error(`the page failed: ${errors.join("; ")}`);
    const version = browser.version();
    const mib = (chunks.length * size) / MiB;
    return { version, perMib: Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs) / mib])) };
  } finally {
    await browser.close();
  }
}

await main(async () => {
  const args = parseArgs();
  const { n: N, c: C } = size(args, { n: 8192, c: 512 }, { n: 8192, c: 512 });
  const REPS = reps(args, 7);
  const K = args.number("--chunks", args.quick ? 4 : 16);
  const perRow = N / C;
  const total = perRow * perRow;
  const raw = Array.from({ length: K }, (_, k) => {
    const index = Math.floor((k * total) / K);
    return benchChunk(N, C, Math.floor(index / perRow), index % perRow);
  });
  const chunkBytes = C * C * 4;
  const sets = [
    { name: `bench chunks (${K} × ${C}×${C} float32), gzip level 1`, chunks: raw.map((r) => new Uint8Array(gzipSync(r, { level: 1 }))), size: chunkBytes },
    { name: "text (1 MiB of JSON lines), gzip level 6, 4 copies", chunks: Array(4).fill(new Uint8Array(gzipSync(textChunk(MiB), { level: 6 }))), size: MiB },
  ];

  const report = new Report({ script: "kernels-inflate.mjs", title: "gzip inflate: WebAssembly kernel vs node:zlib, fflate and DecompressionStream", args });
  report.line(`Node ${process.versions.node}: one thread, CPU ms per MiB of output, median of ${REPS}, the decoders taking turns`);
  report.line("every decoder checks the CRC-32 and length of what it decodes; ratios are the other decoder's time over the kernel's (above 1: the kernel is faster)");

  const nodeRows = [];
  const nodeResults = [];
  for (const set of sets) {
    const t = await nodeTimes(set.chunks, set.size, REPS);
    nodeResults.push(t);
    const kernel = t["WASM kernel, into a kept buffer"];
    for (const [name, ms] of Object.entries(t)) nodeRows.push([set.name, name, ms.toFixed(2), ratio(ms / kernel)]);
  }
  report.table("Node: CPU ms per MiB", ["data", "decoder", "ms/MiB", "this / kernel (into)"], nodeRows, ["l", "l", "r", "r"]);
  report.target({
    name: "Node, bench chunks: node:zlib (into) / WASM kernel (into)",
    value: nodeResults[0]["node:zlib, into a kept buffer"] / nodeResults[0]["WASM kernel, into a kept buffer"],
    op: "≥",
    limit: 1,
  });

  const chromium = chromiumAvailable();
  if (args.flag("--no-browser")) report.note("Chromium not measured (--no-browser).");
  else if (!chromium.ok) report.note(`Chromium not measured: ${chromium.why}`);
  else {
    const rows = [];
    const results = [];
    let version = "";
    for (const set of sets) {
      const t = await chromiumTimes(set.chunks, set.size, REPS);
      version = t.version;
      results.push(t.perMib);
      const kernel = t.perMib["WASM kernel"];
      for (const [name, ms] of Object.entries(t.perMib)) rows.push([set.name, name, ms.toFixed(2), ratio(ms / kernel)]);
    }
    report.table(`Chromium ${version}, main thread: wall ms per MiB`, ["data", "decoder", "ms/MiB", "this / kernel"], rows, ["l", "l", "r", "r"]);
    for (const [i, set] of sets.entries()) {
      report.target({
        name: `Chromium, ${set.name.split(" (")[0]}: DecompressionStream / WASM kernel`,
        value: results[i].DecompressionStream / results[i]["WASM kernel"],
        op: "≥",
        limit: 1,
      });
      report.target({ name: `Chromium, ${set.name.split(" (")[0]}: fflate / WASM kernel`, value: results[i].fflate / results[i]["WASM kernel"], op: "≥", limit: 1 });
    }
  }
  report.finish();
});
