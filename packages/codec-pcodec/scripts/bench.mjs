#!/usr/bin/env node
// Decode throughput of the pcodec decoder on large streams (run `npx tsc -p tsconfig.build.json` first):
// - pcodec's own classic-mode and conv1 compatibility files, their chunk repeated to
//   1 000 000 numbers in one standalone stream (real tANS-coded pcodec output);
// - this package's encoder output (classic mode, tANS-coded bins) for 4 Mi float32 and
//   1 Mi float64 numbers of a smooth field.
// Prints one Markdown table row per case: best of several runs, wall time.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pcoCompress, pcoDecompress } from "../dist/index.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "..", "test-data", "pcodec");

/** A stream of `header`, the file's chunk section repeated `times`, and the terminating zero. */
function repeatChunks(file, headerBytes, times) {
  const bytes = readFileSync(join(FIXTURES, file));
  const header = bytes.subarray(0, headerBytes);
  const chunk = bytes.subarray(headerBytes, bytes.length - 1);
  const out = new Uint8Array(header.length + chunk.length * times + 1);
  out.set(header);
  for (let i = 0; i < times; i++) out.set(chunk, header.length + i * chunk.length);
  return out;
}

function bench(name, stream, runs = 5) {
  let best = Number.POSITIVE_INFINITY;
  let decoded;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    decoded = pcoDecompress(stream);
    best = Math.min(best, performance.now() - t0);
  }
  const n = decoded.values.length;
  const mib = decoded.values.byteLength / 2 ** 20;
  console.log(
    `| ${name} | ${(n / 1e6).toFixed(2)} M ${decoded.numberType} | ${(stream.length / 2 ** 20).toFixed(2)} MiB | ${(n / best / 1e3).toFixed(1)} | ${(mib / (best / 1000)).toFixed(1)} |`,
  );
}

console.log("| stream | numbers | stream size | M numbers/s | decoded MiB/s |");
console.log("|---|---|---|---|---|");
bench("pcodec 0.0 classic (i32, tANS, 2000 per chunk) × 500", repeatChunks("v0_0_0_classic.pco", 5, 500));
bench("pcodec 1.0 conv1 (i32, tANS, 2000 per chunk) × 500", repeatChunks("v1_0_0_conv1.pco", 11, 500));
const f32 = Float32Array.from({ length: 4 * 2 ** 20 }, (_, i) => 280 + 10 * Math.sin(i / 1000) + ((i * 7919) % 100) / 1000);
bench("pcoCompress classic (f32 smooth field)", pcoCompress(f32, "f32"));
const f64 = Float64Array.from({ length: 2 ** 20 }, (_, i) => 280 + 10 * Math.sin(i / 1000));
bench("pcoCompress classic (f64 smooth field)", pcoCompress(f64, "f64"), 3);
