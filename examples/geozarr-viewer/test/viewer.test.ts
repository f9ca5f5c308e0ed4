/**
 * The viewer in a real browser: Debian's chromium driven by playwright-core (never a
 * browser download). A local server serves the built page and a pyramid that
 * @zarr/geozarr wrote; the canvas pixels are checked against the data.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzip } from "@zarr/codec-gzip";
import { createArray, createRegistry, get, MemoryStore, openArray, set } from "@zarr/core";
import { buildPyramid, createDataset } from "@zarr/geozarr";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveChromium, launchChromium, skipWithout } from "../../../scripts/test-env.mjs";
// @ts-expect-error plain JS modules of this example
import { buildViewer } from "../build.mjs";
// @ts-expect-error plain JS modules of this example
import { startServer } from "../serve.mjs";
import { grey, valueRange } from "../src/render.js";

const missing = skipWithout(haveChromium(), "Debian's chromium (/usr/bin/chromium)");

const N = 512;
const registry = createRegistry([gzip]);
const CANVAS = 256;
/** A smooth but distinct pattern: every 2×2 and 4×4 block mean differs from its neighbours. */
function pattern(i: number, j: number): number {
  return Math.sin(i / 37) * 100 + Math.cos(j / 23) * 80 + ((i * 7 + j * 13) % 17);
}

/** Block means of the source, computed here independently of the pyramid code. */
function blockMeans(src: Float64Array, n: number, f: number): Float64Array {
  const m = Math.ceil(n / f);
  const out = new Float64Array(m * m);
  for (let oy = 0; oy < m; oy++)
    for (let ox = 0; ox < m; ox++) {
      let s = 0;
      let c = 0;
      for (let y = oy * f; y < Math.min(n, oy * f + f); y++)
        for (let x = ox * f; x < Math.min(n, ox * f + f); x++) {
          s += src[y * n + x];
          c++;
        }
      out[oy * m + ox] = Math.fround(s / c);
    }
  return out;
}

describe.skipIf(missing)("the GeoZarr viewer in chromium", () => {
  let server: { url: string; close(): Promise<void> };
  let outDir: string;
  let store: MemoryStore;
  let source: Float64Array;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // A Dataset of one float32 band, 512×512 at 10 m in UTM 33N, and its pyramid (512, 256, 128).
    const src = new MemoryStore();
    await createDataset(src, "", {
      crs: { code: "EPSG:32633" },
      spatial: { dimensions: ["y", "x"], transform: [10, 0, 500000, 0, -10, 5000000], shape: [N, N] },
    });
    const band = await createArray(src, "b04", { shape: [N, N], chunkShape: [128, 128], dataType: "float32", dimensionNames: ["y", "x"], fillValue: Number.NaN });
    source = new Float64Array(N * N);
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) source[i * N + j] = Math.fround(pattern(i, j));
    await set(band, null, Float32Array.from(source));
    store = new MemoryStore();
    await buildPyramid(src, store, {
      minSize: 128,
      chunkShape: [64, 64],
      codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 1 } }],
      registry,
    });
    outDir = mkdtempSync(join(tmpdir(), "geozarr-viewer-"));
    await buildViewer({ outDir });
    server = await startServer({ pageDir: outDir, getKey: (key: string) => store.map.get(key) });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outDir !== undefined) rmSync(outDir, { recursive: true, force: true });
  });

  async function canvasPixels(page: Page): Promise<Uint8ClampedArray> {
    // Base64 of the RGBA bytes: a JSON array of 262144 numbers takes seconds to pass over.
    const b64: string = await page.evaluate(() => {
      const c = document.getElementById("map") as HTMLCanvasElement;
      const bytes = (c.getContext("2d") as CanvasRenderingContext2D).getImageData(0, 0, c.width, c.height).data;
      let text = "";
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    });
    return new Uint8ClampedArray(Buffer.from(b64, "base64"));
  }

  async function waitForRender(page: Page, renders: number): Promise<void> {
    await page.waitForFunction((n: number) => document.body.dataset.state === "ready" && Number(document.body.dataset.renders) >= n, renders, { timeout: 30_000 });
  }

  it("opens the pyramid over HTTP, shows metadata and findings, renders levels and switches on zoom", async () => {
    const page = await (browser as Browser).newPage();
    const errors: string[] = [];
    page.on("pageerror", (e: Error) => errors.push(e.message));
    await page.goto(`${server.url}?url=${encodeURIComponent(`${server.url}data/`)}`);
    await waitForRender(page, 1);
    expect(errors).toEqual([]);
    // Metadata and validation panels.
    expect(await page.textContent("#crs")).toContain("EPSG:32633");
    expect(await page.textContent("#verdict")).toBe("valid");
    const rows: string[][] = await page.$$eval("tr[data-level]", (trs: Element[]) => trs.map((r) => Array.from(r.children, (td) => td.textContent ?? "")));
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ["0", "512×512", "10"],
      ["1", "256×256", "20"],
      ["2", "128×128", "40"],
    ]);
    expect(rows[1][3]).toBe("0");
    expect(rows[1][4]).toBe("average");

    // The grey stretch is the coarsest level's value range (here computed from block means of 4×4).
    const level2 = blockMeans(source, N, 4);
    const stretch = valueRange(level2);

    // Fitted view: 512 px × 10 m on a 256 px canvas → 20 m per pixel → level 1, drawn 1:1.
    expect(await page.evaluate(() => document.body.dataset.level)).toBe("1");
    const level1 = blockMeans(source, N, 2);
    const stored1 = (await get(await openArray(store, "1/b04", { registry }), null)).data as Float32Array;
    let off = 0;
    for (let i = 0; i < stored1.length; i++) if (!(Math.abs(stored1[i] - level1[i]) <= 1e-4)) off++;
    expect(off).toBe(0);
    let px = await canvasPixels(page);
    let bad = 0;
    for (let r = 0; r < CANVAS; r++)
      for (let c = 0; c < CANVAS; c++) {
        const o = (r * CANVAS + c) * 4;
        if (px[o + 3] !== 255 || Math.abs(px[o] - grey(level1[r * 256 + c], stretch)) > 1) bad++;
      }
    expect(bad).toBe(0);

    // Zoom in once: 10 m per pixel → level 0, the central 256×256 pixels of the full resolution.
    await page.click("#zoom-in");
    await waitForRender(page, 2);
    expect(await page.evaluate(() => document.body.dataset.level)).toBe("0");
    px = await canvasPixels(page);
    bad = 0;
    for (let r = 0; r < CANVAS; r++)
      for (let c = 0; c < CANVAS; c++) {
        const o = (r * CANVAS + c) * 4;
        if (px[o + 3] !== 255 || Math.abs(px[o] - grey(source[(r + 128) * N + (c + 128)], stretch)) > 1) bad++;
      }
    expect(bad).toBe(0);

    // Zoom out twice: 40 m per pixel → level 2 fills the central 128×128 pixels, the rest stays empty.
    await page.click("#zoom-out");
    await waitForRender(page, 3);
    await page.click("#zoom-out");
    await waitForRender(page, 4);
    expect(await page.evaluate(() => document.body.dataset.level)).toBe("2");
    px = await canvasPixels(page);
    bad = 0;
    for (let r = 0; r < CANVAS; r++)
      for (let c = 0; c < CANVAS; c++) {
        const o = (r * CANVAS + c) * 4;
        const inside = r >= 64 && r < 192 && c >= 64 && c < 192;
        if (!inside) {
          if (px[o + 3] !== 0) bad++;
        } else if (px[o + 3] !== 255 || Math.abs(px[o] - grey(level2[(r - 64) * 128 + (c - 64)], stretch)) > 1) bad++;
      }
    expect(bad).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
