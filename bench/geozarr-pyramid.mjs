#!/usr/bin/env node
// Pyramid benchmark: a 10980×10980 uint16 band (a Sentinel-2 10 m tile, 241 MB in memory)
// is written chunk by chunk to a local store, then @zarr/geozarr builds its full pyramid
// (factor 2 down to 256 px, average). Memory is sampled during the build: the peak RSS
// and heap must stay well below the band's size, since levels stream chunk by chunk.
//
//   node --expose-gc bench/geozarr-pyramid.mjs            full size
//   node --expose-gc bench/geozarr-pyramid.mjs --smoke    2048×2048, a quick check that it runs
//   options: --size N  --chunk C (source chunk, default 1024)  --out-chunk C (default 512)
//            --concurrency N (default 4)  --keep (leave bench/data/geozarr-pyramid in place)
//
// Needs the built packages (pnpm build).
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createArray, createFullRegistry, set, slice } from "@zarr/all";
import { buildPyramid, createDataset, validate } from "@zarr/geozarr";
import { FileSystemStore } from "@zarr/store-fs";

const args = process.argv.slice(2);
const option = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : Number(args[i + 1]);
};
const smoke = args.includes("--smoke");
const N = option("--size", smoke ? 2048 : 10980);
const C = option("--chunk", 1024);
const OUT_C = option("--out-chunk", 512);
const CONCURRENCY = option("--concurrency", 4);
const MB = 1e6;
const dir = join(import.meta.dirname, "data", "geozarr-pyramid");
const gc = globalThis.gc ?? (() => {});

function memory() {
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}

rmSync(dir, { recursive: true, force: true });
const registry = createFullRegistry();
const codecs = [{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 1 } }];

// 1. The source band, written one chunk at a time (never the whole band in memory).
const src = new FileSystemStore(join(dir, "source.zarr"));
const transform = [10, 0, 600000, 0, -10, 5300040];
await createDataset(src, "", { crs: { code: "EPSG:32632" }, spatial: { dimensions: ["y", "x"], transform, shape: [N, N] }, registry });
const band = await createArray(src, "b04", { shape: [N, N], chunkShape: [C, C], dataType: "uint16", dimensionNames: ["y", "x"], fillValue: 0, codecs, registry });
let t = performance.now();
for (let r = 0; r < N; r += C) {
  for (let c = 0; c < N; c += C) {
    const h = Math.min(C, N - r);
    const w = Math.min(C, N - c);
    const data = new Uint16Array(h * w);
    for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) data[i * w + j] = ((r + i) * 7 + (c + j) * 3) % 10000 + 1;
    await set(band, [slice(r, r + h), slice(c, c + w)], { data, shape: [h, w] });
  }
}
const writeSeconds = (performance.now() - t) / 1000;
gc();
const baseline = memory();

// 2. The pyramid, with memory sampled every 20 ms.
const dst = new FileSystemStore(join(dir, "pyramid.zarr"));
const peak = { ...baseline };
const sample = () => {
  const m = memory();
  for (const k of Object.keys(peak)) peak[k] = Math.max(peak[k], m[k]);
};
const timer = setInterval(sample, 20);
let chunks = 0;
t = performance.now();
const result = await buildPyramid(src, dst, {
  factors: 2,
  minSize: 256,
  chunkShape: [OUT_C, OUT_C],
  codecs,
  concurrency: CONCURRENCY,
  registry,
  onProgress: (p) => {
    chunks = p.total;
    sample();
  },
});
const buildSeconds = (performance.now() - t) / 1000;
clearInterval(timer);
sample();

const report = await validate(dst);
const bandBytes = N * N * 2;
console.log(`band: ${N}×${N} uint16 = ${(bandBytes / MB).toFixed(1)} MB; source chunks ${C}×${C}, written in ${writeSeconds.toFixed(1)} s`);
console.log(`pyramid: ${result.levels.length} levels (${result.levels.map((l) => `${l.shape[0]}`).join(", ")}), ${chunks} chunk tasks of ${OUT_C}×${OUT_C}, ${buildSeconds.toFixed(1)} s, concurrency ${CONCURRENCY}`);
console.log(`validation of the output: ${report.valid ? "valid" : "NOT valid"}, ${report.findings.length} finding(s)`);
const row = (name, base, top) => `  ${name.padEnd(14)} baseline ${(base / MB).toFixed(1).padStart(7)} MB   peak ${(top / MB).toFixed(1).padStart(7)} MB   (+${((top - base) / MB).toFixed(1)} MB)`;
console.log("memory during the build:");
console.log(row("rss", baseline.rss, peak.rss));
console.log(row("heap used", baseline.heap, peak.heap));
console.log(row("array buffers", baseline.arrayBuffers, peak.arrayBuffers));
const growth = Math.max(peak.heap - baseline.heap, 0) + Math.max(peak.arrayBuffers - baseline.arrayBuffers, 0);
console.log(`peak RSS is ${((100 * peak.rss) / bandBytes).toFixed(0)}% of the band's size; heap + buffers grew by ${((100 * growth) / bandBytes).toFixed(0)}% of it`);
if (!args.includes("--keep")) rmSync(dir, { recursive: true, force: true });
if (peak.rss >= bandBytes && !smoke) {
  console.error("FAIL: peak RSS reached the band's size");
  process.exitCode = 1;
}
