/**
 * The viewer in a real browser: Debian's chromium (software WebGL through SwiftShader)
 * driven by playwright-core (never a browser download). A local server serves the built
 * page and a pyramid that @zarr/geozarr wrote; the MapLibre map's pixels at known points
 * must have the colours of the data there, the panels show metadata and validation, and
 * the time picker switches what the tiles show.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzip } from "@zarr/codec-gzip";
import { createArray, createRegistry, MemoryStore, set } from "@zarr/core";
import { buildPyramid, createDataset } from "@zarr/geozarr";
import { colormapTable, colourIndex } from "@zarr/maplibre";
import { type Browser, chromium, type Page } from "playwright-core";
import proj4 from "proj4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, haveChromium, skipWithout } from "../../../scripts/test-env.mjs";
// @ts-expect-error plain JS modules of this example
import { buildViewer } from "../build.mjs";
// @ts-expect-error plain JS modules of this example
import { startServer } from "../serve.mjs";

const missing = skipWithout(haveChromium(), "Debian's chromium (/usr/bin/chromium)");

const N = 512;
const BLOCK = 64;
const registry = createRegistry([gzip]);
/** Value of a 64×64 block at a time: constant blocks, so every level and any screen scale agree at block centres. */
const blockValue = (t: number, r: number, c: number) => (r === 2 && c === 5 ? Number.NaN : r * 8 + c + t * 0.5 * (r + c));
const ORIGIN = [450000, 5400000];
const BACKGROUND = [221, 230, 238];

/** Longitude/latitude of a block's centre (UTM 33N → WGS 84 with proj4). */
function blockCentre(r: number, c: number): [number, number] {
  const [lon, lat] = proj4("EPSG:32633", "EPSG:4326").forward([ORIGIN[0] + (c * BLOCK + BLOCK / 2) * 100, ORIGIN[1] - (r * BLOCK + BLOCK / 2) * 100]);
  return [lon, lat];
}

function expectedColour(v: number): number[] {
  if (Number.isNaN(v)) return BACKGROUND;
  const i = colourIndex(v, 0, 64);
  return [...colormapTable("viridis").subarray(i * 4, i * 4 + 3)];
}

describe.skipIf(missing)("the GeoZarr viewer in chromium", () => {
  let server: { url: string; close(): Promise<void> };
  let outDir: string;
  let store: MemoryStore;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // A Dataset of one float32 variable over (time, y, x), 2 × 512 × 512 at 100 m in UTM 33N, and its pyramid (512, 256, 128).
    const src = new MemoryStore();
    await createDataset(src, "", {
      crs: { code: "EPSG:32633" },
      spatial: { dimensions: ["y", "x"], transform: [100, 0, ORIGIN[0], 0, -100, ORIGIN[1]], shape: [N, N] },
    });
    const band = await createArray(src, "t2m", {
      shape: [2, N, N],
      chunkShape: [1, 128, 128],
      dataType: "float32",
      dimensionNames: ["time", "y", "x"],
      fillValue: Number.NaN,
      attributes: { valid_min: 0, valid_max: 64, units: "K" },
    });
    const time = await createArray(src, "time", { shape: [2], dataType: "int32", dimensionNames: ["time"], attributes: { units: "days since 2000-01-01" } });
    await set(time, null, Int32Array.from([0, 1]));
    const values = new Float32Array(2 * N * N);
    for (let t = 0; t < 2; t++) for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) values[t * N * N + i * N + j] = blockValue(t, i >> 6, j >> 6);
    await set(band, null, values);
    store = new MemoryStore();
    await buildPyramid(src, store, {
      minSize: 128,
      chunkShape: [128, 128],
      codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 1 } }],
      registry,
    });
    outDir = mkdtempSync(join(tmpdir(), "geozarr-viewer-"));
    await buildViewer({ outDir });
    server = await startServer({ pageDir: outDir, getKey: (key: string) => store.map.get(key) });
    // Software WebGL: SwiftShader, which headless chromium no longer picks on its own.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--no-first-run", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outDir !== undefined) rmSync(outDir, { recursive: true, force: true });
  });

  async function waitForLayer(page: Page, layer: string): Promise<void> {
    await page.waitForFunction((l: string) => document.body.dataset.state === "ready" && document.body.dataset.layer === l, layer, { timeout: 60_000 });
  }

  const ALL_BLOCKS = Array.from({ length: 64 }, (_, k) => [k >> 3, k & 7]);

  async function coloursAtBlocks(page: Page, time: number, blocks = ALL_BLOCKS): Promise<string[]> {
    const bad: string[] = [];
    for (const [r, c] of blocks) {
        const [lon, lat] = blockCentre(r, c);
        const got: number[] = await page.evaluate(([x, y]: number[]) => window.__viewer.pixelAt?.(x, y) ?? [], [lon, lat]);
        const want = expectedColour(blockValue(time, r, c));
        if (got.length !== 4 || want.some((w, k) => Math.abs(w - got[k]) > 3) || got[3] !== 255) bad.push(`block (${r}, ${c}): got ${got.join(",")}, want ${want.join(",")}`);
      }
    return bad;
  }

  it("draws the pyramid on a MapLibre map with the data's colours, legend, panels and a time picker", async () => {
    const page = await (browser as Browser).newPage({ viewport: { width: 1200, height: 800 } });
    const errors: string[] = [];
    page.on("pageerror", (e: Error) => errors.push(e.message));
    await page.goto(`${server.url}?url=${encodeURIComponent(`${server.url}data/`)}`);
    await waitForLayer(page, "layer-1");
    expect(errors).toEqual([]);
    // Metadata and validation panels.
    expect(await page.textContent("#crs")).toContain("EPSG:32633");
    expect(await page.textContent("#verdict"), (await page.textContent("#findings")) ?? "").toBe("valid");
    const rows: string[][] = await page.$$eval("tr[data-level]", (trs: Element[]) => trs.map((r) => Array.from(r.children, (td) => td.textContent ?? "")));
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ["0", "512×512", "100"],
      ["1", "256×256", "200"],
      ["2", "128×128", "400"],
    ]);
    // The legend: the range from valid_min/valid_max, and the units.
    expect(await page.textContent(".zarr-legend-min")).toBe("0 K");
    expect(await page.textContent(".zarr-legend-max")).toBe("64 K");
    expect(await page.textContent(".zarr-legend-title")).toBe("t2m");
    // Tiles were painted in the workers, and every block centre has its value's colour (the NaN block shows the basemap).
    expect(Number(await page.evaluate(() => document.body.dataset.painted))).toBeGreaterThan(0);
    expect(await coloursAtBlocks(page, 0)).toEqual([]);
    // Just north of the data (1.3 km, inside the view's 40 px padding): the basemap.
    const [lon, lat] = blockCentre(-0.7, 4);
    expect(await page.evaluate(([x, y]: number[]) => window.__viewer.pixelAt?.(x, y), [lon, lat])).toEqual([...BACKGROUND, 255]);

    // Zoom in twice: finer tiles, the same colours at the block centres.
    await page.evaluate(() => window.__viewer.map?.setZoom((window.__viewer.map?.getZoom() ?? 0) + 2));
    await page.waitForFunction(() => window.__viewer.map?.loaded() && window.__viewer.map?.areTilesLoaded(), undefined, { timeout: 60_000 });
    expect(await coloursAtBlocks(page, 0, [[3, 3], [3, 4], [4, 3], [4, 4]])).toEqual([]);

    // The time picker: index 1 of "time" gets a new layer with the second time's colours.
    await page.evaluate(() => window.__viewer.map?.setZoom((window.__viewer.map?.getZoom() ?? 2) - 2));
    await page.$eval("#index-time", (el: Element) => {
      (el as HTMLInputElement).value = "1";
      el.dispatchEvent(new Event("change"));
    });
    await waitForLayer(page, "layer-2");
    expect(await coloursAtBlocks(page, 1)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
