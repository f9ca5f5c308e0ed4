/**
 * The Vite app in a real browser: `vite build` makes the production bundle in dist/, a local
 * server (Range, cross-origin isolated) serves it and a zstd array that @zarr/core wrote, and
 * Debian's chromium (driven by playwright-core, never a browser download) opens the page. The
 * canvas pixels are checked against the formula and the colour ramp, and the pool's worker
 * calls against the chunk count.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zstd } from "@zarr/codec-zstd";
import { createArray, createRegistry, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveChromium, launchChromium, skipWithout } from "../../../scripts/test-env.mjs";
// @ts-expect-error plain JS modules of this example
import { startServer } from "../serve.mjs";
// @ts-expect-error plain JS modules of this example
import { bundleSizes, formatSizes } from "../sizes.mjs";
import { RAMP_STOPS, rampColour } from "../src/ramp.js";

const missing = skipWithout(haveChromium(), "Debian's chromium (/usr/bin/chromium)");

const here = join(import.meta.dirname, "..");
const dist = join(here, "dist");
/** 512×512 float32 in 128×128 chunks: 64 KiB per chunk, the smallest the pool takes (WORKER_MIN_BYTES). */
const N = 512;
const CHUNK = 128;
const CHUNKS = (N / CHUNK) ** 2;

/** The array's values: a smooth field plus a small ripple, so neighbouring pixels differ. */
function formula(i: number, j: number): number {
  return Math.fround(Math.sin(i / 40) * 50 + j * 0.2 + ((i * 3 + j * 5) % 11));
}

/** Runs `vite build` (the package's `build` script) in the example: dist/ is the production bundle. */
function viteBuild(): void {
  const vite = join(createRequire(join(here, "package.json")).resolve("vite/package.json"), "..", "bin", "vite.js");
  execFileSync(process.execPath, [vite, "build", "--logLevel", "warn"], { cwd: here, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}

describe.skipIf(missing)("the Vite app in chromium", () => {
  let dir: string;
  let server: { url: string; close(): Promise<void> };
  /** The same files without the cross-origin isolation headers: no SharedArrayBuffer there. */
  let plainServer: { url: string; close(): Promise<void> };
  let browser: Browser | undefined;
  const expected = new Float32Array(N * N);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "zarr-vite-app-"));
    const store = new FileSystemStore(dir);
    const arr = await createArray(store, "field", {
      shape: [N, N],
      chunkShape: [CHUNK, CHUNK],
      dataType: "float32",
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "zstd", configuration: { level: 1, checksum: false } },
      ],
      registry: createRegistry([zstd]),
    });
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) expected[i * N + j] = formula(i, j);
    await set(arr, null, expected);
    rmSync(dist, { recursive: true, force: true });
    viteBuild();
    server = await startServer({ pageDir: dist, storeDir: dir });
    plainServer = await startServer({ pageDir: dist, storeDir: dir, isolated: false });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await plainServer?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the page; resolves it with the console errors, page errors and failed responses it collects. */
  async function open(query: string, base = server.url): Promise<{ page: Page; errors: string[] }> {
    const page = await (browser as Browser).newPage();
    const errors: string[] = [];
    page.on("pageerror", (e: Error) => errors.push(`pageerror: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });
    page.on("response", (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${base}${query}`);
    await page.waitForFunction(() => document.body.dataset.state !== "loading", null, { timeout: 30_000 });
    return { page, errors };
  }

  async function canvasPixels(page: Page): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
    // Base64 of the RGBA bytes: a JSON array of a million numbers takes seconds to pass over.
    const { width, height, b64 } = await page.evaluate(() => {
      const c = document.getElementById("map") as HTMLCanvasElement;
      const bytes = (c.getContext("2d") as CanvasRenderingContext2D).getImageData(0, 0, c.width, c.height).data;
      let text = "";
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return { width: c.width, height: c.height, b64: btoa(text) };
    });
    return { width, height, data: new Uint8ClampedArray(Buffer.from(b64, "base64")) };
  }

  /** Checks the reported range and every canvas pixel against the formula through the ramp. */
  async function expectRampPixels(page: Page, state: Record<string, string | undefined>): Promise<void> {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const v of expected) [min, max] = [Math.min(min, v), Math.max(max, v)];
    expect([Number(state.min), Number(state.max)]).toEqual([min, max]);

    const px = await canvasPixels(page);
    expect([px.width, px.height]).toEqual([N, N]);
    let bad = 0;
    const firstBad: string[] = [];
    for (let k = 0; k < N * N; k++) {
      const rgb = rampColour(expected[k], { min, max }) as readonly number[];
      const o = k * 4;
      const ok = px.data[o + 3] === 255 && [0, 1, 2].every((c) => Math.abs(px.data[o + c] - rgb[c]) <= 1);
      if (!ok && bad++ < 5) firstBad.push(`(${Math.floor(k / N)},${k % N}): ${px.data.subarray(o, o + 4).join()} ≠ ${rgb.join()}`);
    }
    expect(firstBad).toEqual([]);
    // The ramp's ends land exactly on its first and last colour stop.
    const at = (k: number) => Array.from(px.data.subarray(k * 4, k * 4 + 3));
    expect(at(expected.indexOf(min))).toEqual([...RAMP_STOPS[0]]);
    expect(at(expected.indexOf(max))).toEqual([...RAMP_STOPS[RAMP_STOPS.length - 1]]);
  }

  it("builds a production bundle with the worker script as its own module, and reports its size", () => {
    const sizes: { file: string; raw: number; gzip: number }[] = bundleSizes(dist);
    console.log(`vite build, dist/assets/*.js:\n${formatSizes(sizes)}`);
    expect(sizes.some((s) => /^index-.*\.js$/.test(s.file))).toBe(true);
    expect(sizes.some((s) => /^zarr-worker-.*\.js$/.test(s.file))).toBe(true);
    const total = sizes.reduce((t, s) => ({ raw: t.raw + s.raw, gzip: t.gzip + s.gzip }), { raw: 0, gzip: 0 });
    expect(total.gzip).toBeGreaterThan(0);
    expect(total.gzip).toBeLessThan(total.raw);
    // The Node.js pool (worker_threads) stays out of a browser bundle.
    for (const s of sizes) expect(readFileSync(join(dist, "assets", s.file), "utf8"), s.file).not.toMatch(/worker_threads/);
    expect(existsSync(join(dist, "index.html"))).toBe(true);
  });

  it("reads the zstd array over HTTP in Web Workers and draws it with the colour ramp", async () => {
    const { page, errors } = await open("?url=/data/&array=field");
    try {
      const state = await page.evaluate(() => ({ ...document.body.dataset }));
      expect(state.state, (await page.textContent("#status")) ?? undefined).toBe("ready");
      expect(state.isolated).toBe("true");
      expect(Number(state.workers)).toBeGreaterThan(0);
      // Every chunk went through the pool (4 tiles of 2×2 chunks).
      expect(Number(state.tiles)).toBe(4);
      expect(Number(state.workerCalls)).toBe(CHUNKS);

      await expectRampPixels(page, state);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("reads the same pixels on the main thread when the page is not cross-origin isolated", async () => {
    const { page, errors } = await open("?url=/data/&array=field", plainServer.url);
    try {
      const state = await page.evaluate(() => ({ ...document.body.dataset }));
      expect(state.state, (await page.textContent("#status")) ?? undefined).toBe("ready");
      expect(state.isolated).toBe("false");
      expect(Number(state.workerCalls)).toBe(0);
      expect(await page.textContent("#status")).toContain("not cross-origin isolated");
      await expectRampPixels(page, state);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("shows the error, naming the array, when the array does not exist", async () => {
    const { page, errors } = await open("?url=/data/&array=nothing-here");
    try {
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("error");
      expect(await page.textContent("#status")).toContain("nothing-here");
      // The app logs its failure; nothing else went wrong (the missing metadata is a 404 HttpStore expects).
      expect(errors.filter((e) => !e.startsWith("404 ") && !e.startsWith("console: Failed to load resource"))).toHaveLength(1);
    } finally {
      await page.close();
    }
  });
});
