#!/usr/bin/env node
// A profile of the @zarr bench page's in-page-store reads in Chromium (issue 22: where the
// pool's time goes): browser.mjs's page (unminified), one codec's 64 MiB window read warm,
// then 3 reads under Chromium's trace (V8's sampler on every thread, the pool's workers too)
// per mode: each thread's sampled milliseconds per read by function, and page faults per
// thread (/proc). Not run by report.mjs.
//
//   node bench/browser-profile.mjs [codec] [modes]    default: blosc-lz4-shuffle pool,main
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { profileReads } from "./lib/browser-profile.mjs";
import { openBenchPage } from "./lib/browser-reads.mjs";
import { bundlePages, launchChromium } from "./lib/chromium.mjs";
import { dataRoot, readData, variant } from "./lib/data.mjs";
import { startFileServer } from "./lib/http-server.mjs";

const HEADERS = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp", "Cross-Origin-Resource-Policy": "same-origin", "Cache-Control": "no-store" };
const name = process.argv[2] ?? "blosc-lz4-shuffle";
const modes = (process.argv[3] ?? "pool,main").split(",");
const N = 8192, C = 512, region = [2048, 6144];
const dir = mkdtempSync(join(tmpdir(), "prof-"));
await bundlePages(dir, ["zarr"], { minify: false });
const server = await startFileServer({ mounts: { "/": dir, "/data/": dataRoot() }, headers: HEADERS });
const browser = await launchChromium();
const { page } = await openBenchPage(browser, `${server.url}zarr/`, console.error);
const { v3 } = await readData({ n: N, c: C, variant: variant(name) });
const keys = ["zarr.json"]; for (let i = 4; i < 12; i++) for (let j = 4; j < 12; j++) keys.push(`c/${i}/${j}`);
await page.evaluate((o) => globalThis.bench.open(o), { url: `${server.url}data/${relative(dataRoot(), v3)}/`, keys, region });
for (const mode of modes) {
  const times = [];
  for (let i = 0; i < 4; i++) times.push(await page.evaluate((m) => globalThis.bench.time("memory", m), mode));
  console.log(`${name} ${mode}: warm times ms`, times.map((t) => t.toFixed(0)).join(" "));
  const p = await profileReads(browser, page, () => page.evaluate((m) => globalThis.bench.time("memory", m), mode), { rounds: 3 });
  for (const [thread, { busy, self }] of Object.entries(p.threads)) {
    console.log(`  ${thread}: ${busy} ms sampled per read`);
    for (const [fn, ms] of self.slice(0, 6)) console.log(`    ${String(ms).padStart(7)}  ${fn}`);
  }
  const faults = Object.entries(p.faults).filter(([, n]) => n >= 100).map(([t, n]) => `${t} ${Math.round(n)}`);
  console.log(`  minor page faults per read: ${faults.join(", ")}; ${p.wall.toFixed(0)} ms per read under the trace`);
}
await browser.close(); await server.close(); rmSync(dir, { recursive: true, force: true });
