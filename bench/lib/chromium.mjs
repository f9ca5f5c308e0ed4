// The browser side of browser.mjs: bundling its pages (bench/lib/browser/) with esbuild,
// Debian's chromium driven by playwright-core (never a browser download) as the repository's
// browser tests do (scripts/test-env.mjs), the errors pages report, and Chromium's CPU time.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { LIB, REPO } from "./common.mjs";

/** Where Debian's chromium lives. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Whether chromium is there: `{ ok }` or `{ ok: false, why }`. ZARR_BENCH_NO_CHROMIUM=1 (or
 * ZARR_TEST_NO_CHROMIUM) simulates a machine without it.
 */
export function chromiumAvailable() {
  if (process.env.ZARR_BENCH_NO_CHROMIUM || process.env.ZARR_TEST_NO_CHROMIUM) return { ok: false, why: "disabled by ZARR_BENCH_NO_CHROMIUM" };
  return existsSync(CHROMIUM) ? { ok: true } : { ok: false, why: `${CHROMIUM} is missing (apt-get install chromium)` };
}

// The packages @zarr/all depends on, every @zarr package and playwright-core (a devDependency
// of its browser tests) among them: the pages' bare imports resolve there.
const ALL_MODULES = join(REPO, "packages", "all", "node_modules");

/** Flags for a quiet headless chromium that touches no network but 127.0.0.1 (scripts/test-env.mjs's). */
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Launches chromium headless through playwright-core; resolves the playwright `Browser`. */
export async function launchChromium() {
  const { chromium } = createRequire(join(ALL_MODULES, "..", "package.json"))("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * The pages, each an app of its own (one esbuild build each, so that no page's chunks are
 * shaped by another's): `entries` are modules of bench/lib/browser/, the first one the page's
 * script. The @zarr bench page's worker script is an entry of its build, next to the page.
 */
export const PAGES = {
  zarr: { library: "@zarr", entries: ["zarr-page", "zarr-worker"] },
  zarrita: { library: "zarrita.js", entries: ["zarrita-page"] },
  "zarr-first": { library: "@zarr", entries: ["zarr-first"] },
  "zarrita-first": { library: "zarrita.js", entries: ["zarrita-first"] },
};

/**
 * Bundles the pages named by `names` into `outDir/<name>/` (minified, code splitting, ESM,
 * from the built dist/ under the "browser" condition), each with an index.html loading its
 * script; `minify: false` keeps the names a profile shows (browser.mjs --profile). Resolves
 * `{ name: { files: [{ file, bytes, gzipBytes }] } }`.
 */
export async function bundlePages(outDir, names, { minify = true } = {}) {
  const { build } = await import("esbuild");
  const pages = {};
  for (const name of names) {
    const { entries } = PAGES[name];
    const dir = join(outDir, name);
    const result = await build({
      entryPoints: Object.fromEntries(entries.map((e) => [e, join(LIB, "browser", `${e}.mjs`)])),
      outdir: dir,
      bundle: true,
      splitting: true,
      minify,
      format: "esm",
      platform: "browser",
      target: "es2022",
      nodePaths: [ALL_MODULES],
      absWorkingDir: REPO,
      metafile: true,
      logLevel: "warning",
    });
    writeFileSync(
      join(dir, "index.html"),
      `<!doctype html><meta charset="utf-8"><title>${name}</title><link rel="icon" href="data:,"><script type="module" src="./${entries[0]}.js"></script>\n`,
    );
    const files = Object.keys(result.metafile.outputs).map((file) => {
      const bytes = readFileSync(join(REPO, file));
      return { file: file.slice(file.lastIndexOf("/") + 1), bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
    });
    pages[name] = { files };
  }
  return pages;
}

/** Zarr v2 documents, which zarrita.js's `open` asks for before zarr.json: their 404s are expected. */
const V2_PROBE = /\.z(array|attrs|group)$/;

/** Errors a page reports (uncaught errors, console errors, failed responses but zarrita.js's v2 probes), added to the notes. */
export function watchErrors(page, what, note) {
  page.on("pageerror", (e) => note(`${what}: page error: ${e.message}`));
  page.on("console", (m) => {
    // Chromium logs every 404; the response handler below reports those that matter.
    if (m.type() === "error" && !m.text().includes("status of 404")) note(`${what}: console error: ${m.text()}`);
  });
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() >= 400 && !(r.status() === 404 && V2_PROBE.test(path))) note(`${what}: ${r.status()} ${path}`);
  });
}

/**
 * A meter of the CPU seconds every Chromium process (browser, renderers with their worker
 * threads, network service) has used so far, from the DevTools protocol: its difference
 * over a read is the read's CPU time, which background load on a shared machine moves far
 * less than wall time (0.01 s resolution).
 */
export async function cpuMeter(browser) {
  const cdp = await browser.newBrowserCDPSession();
  return async () => (await cdp.send("SystemInfo.getProcessInfo")).processInfo.reduce((n, p) => n + p.cpuTime, 0);
}

