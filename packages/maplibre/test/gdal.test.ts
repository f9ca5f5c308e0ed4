/**
 * Tile values against GDAL: for datasets in EPSG:4326, a UTM zone, a rotated grid and a
 * 3-level pyramid, with NaN and integer nodata, every pixel of several tiles at several
 * zooms equals `gdalwarp -t_srs EPSG:3857 -te <tile> -ts 256 256 -r near` of the same grid,
 * validity included, except pixel centres within 1e-6 pixel of a source pixel edge (where
 * rounding decides the side). The pixel positions used for that exclusion are computed
 * here with proj4 directly, not with the library. With the default interpolated
 * reprojection (0.01 pixel, as gdalwarp's -et), the same holds outside 0.01 pixel of an edge.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArray, get, MemoryStore, openArray, set } from "@zarr/core";
import { buildPyramid, createDataset } from "@zarr/geozarr";
import { proj4Reprojector } from "@zarr/geozarr/proj4";
import proj4 from "proj4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveGdal, skipWithout } from "../../../scripts/test-env.mjs";
import { DEFAULT_REPROJECTION_ERROR, openTileSource, type TileCoord, type TileSource, type TileValues, tileBounds, tileValues } from "../src/index.js";
import { GDAL_EMPTY, gdalwarpTile, type Samples, writeVrt } from "./gdal-reference.js";

const missing = skipWithout(haveGdal(), "GDAL (gdal-bin)");
const reprojector = proj4Reprojector(proj4);

/** The tile holding a longitude/latitude at zoom z. */
function tileAt(lon: number, lat: number, z: number): TileCoord {
  const n = 2 ** z;
  const phi = (lat * Math.PI) / 180;
  return { z, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * n) };
}

interface Grid {
  data: Samples;
  width: number;
  height: number;
  transform: number[];
  srs: string;
  nodata?: number;
}

/** Writes a one-variable GeoZarr Dataset holding `grid`. */
async function datasetOf(grid: Grid, chunk = 64): Promise<MemoryStore> {
  const store = new MemoryStore();
  await createDataset(store, "", { crs: { code: grid.srs }, spatial: { dimensions: ["y", "x"], transform: grid.transform as never, shape: [grid.height, grid.width] } });
  const dataType = { Float32Array: "float32", Int16Array: "int16", Uint8Array: "uint8" }[grid.data.constructor.name] as "float32";
  const attributes = grid.nodata === undefined ? {} : { _FillValue: Number.isNaN(grid.nodata) ? "NaN" : grid.nodata };
  const arr = await createArray(store, "v", {
    shape: [grid.height, grid.width],
    chunkShape: [chunk, chunk],
    dataType,
    dimensionNames: ["y", "x"],
    fillValue: grid.nodata ?? 0,
    attributes,
  });
  await set(arr, null, grid.data as Float32Array);
  return store;
}

/** A pattern with holes: nodata in a few blocks, so both kinds of edge are exercised. */
function pattern<T extends Samples>(make: (n: number) => T, width: number, height: number, value: (i: number, j: number) => number, nodata: number): T {
  const out = make(width * height);
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) out[j * width + i] = (i >> 4) % 5 === 2 && (j >> 4) % 4 === 1 ? nodata : value(i, j);
  return out;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Comparison {
  compared: number;
  skipped: number;
  valid: number;
  mismatches: string[];
}

/**
 * Compares one tile. `grid` is the level GDAL warped (the one the tile function read);
 * pixel centres within `edge` source pixels of a pixel edge are left out, found with proj4
 * and the grid's own inverse transform.
 */
function compareTile(ours: TileValues, gdal: Float64Array, tile: TileCoord, grid: Grid, edge: number): Comparison {
  const [x0, , x1, y1] = tileBounds(tile);
  const res = (x1 - x0) / 256;
  const to = grid.srs === "EPSG:3857" ? (p: number[]) => p : (p: number[]) => proj4("EPSG:3857", grid.srs).forward(p);
  const [a, b, c, d, e, f] = grid.transform;
  const det = a * e - b * d;
  const out: Comparison = { compared: 0, skipped: 0, valid: 0, mismatches: [] };
  for (let j = 0; j < 256; j++)
    for (let i = 0; i < 256; i++) {
      const [X, Y] = to([x0 + (i + 0.5) * res, y1 - (j + 0.5) * res]);
      const u = (e * (X - c) - b * (Y - f)) / det;
      const v = (-d * (X - c) + a * (Y - f)) / det;
      if (Math.abs(u - Math.round(u)) < edge || Math.abs(v - Math.round(v)) < edge) {
        out.skipped++;
        continue;
      }
      const k = j * 256 + i;
      const gdalValid = gdal[k] !== GDAL_EMPTY;
      out.compared++;
      if (gdalValid) out.valid++;
      if (gdalValid !== (ours.valid[k] === 1) || (gdalValid && gdal[k] !== ours.values[k])) {
        if (out.mismatches.length < 5) out.mismatches.push(`pixel (${i}, ${j}) at source (${u.toFixed(4)}, ${v.toFixed(4)}): GDAL ${gdalValid ? gdal[k] : "none"}, ours ${ours.valid[k] ? ours.values[k] : "none"}`);
        else out.mismatches.push("…");
      }
    }
  return out;
}

describe.skipIf(missing)("tile values equal gdalwarp's (-r near)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "maplibre-gdal-"));
    dirs.push(dir);
  });

  /**
   * Runs every tile, exactly reprojected (as `gdalwarp -et 0`) and with the default
   * interpolated reprojection, then checks the totals so a test cannot pass on empty tiles.
   */
  async function check(source: TileSource, tiles: TileCoord[], gridOf: (level: string | undefined) => { grid: Grid; vrt: string }) {
    let valid = 0;
    let invalid = 0;
    const levels = new Set<string>();
    for (const tile of tiles) {
      const exact = await tileValues(source, tile, { reprojectionError: 0 });
      const { grid, vrt } = gridOf(exact.level);
      const gdal = gdalwarpTile(dir, vrt, tileBounds(tile), `t${tile.z}-${tile.x}-${tile.y}`);
      const r = compareTile(exact, gdal, tile, grid, 1e-6);
      expect(r.mismatches, `tile ${JSON.stringify(tile)} (level ${exact.level})`).toEqual([]);
      expect(r.skipped).toBeLessThan(r.compared / 50 + 300);
      const approximate = await tileValues(source, tile);
      expect(approximate.level).toBe(exact.level);
      const a = compareTile(approximate, gdal, tile, grid, source.route.kind === "reproject" ? DEFAULT_REPROJECTION_ERROR : 1e-6);
      expect(a.mismatches, `tile ${JSON.stringify(tile)}, default reprojection`).toEqual([]);
      valid += r.valid;
      invalid += r.compared - r.valid;
      if (exact.level !== undefined) levels.add(exact.level);
    }
    expect(valid).toBeGreaterThan(20_000);
    expect(invalid).toBeGreaterThan(1_000);
    return levels;
  }

  it("EPSG:4326, float32 with NaN nodata", async () => {
    const [W, H] = [300, 200];
    const grid: Grid = {
      data: pattern((n) => new Float32Array(n), W, H, (i, j) => Math.fround(Math.sin(i / 9) * 50 + j), Number.NaN),
      width: W,
      height: H,
      transform: [0.05, 0, 5, 0, -0.05, 50],
      srs: "EPSG:4326",
      nodata: Number.NaN,
    };
    const source = await openTileSource(await datasetOf(grid));
    const vrt = writeVrt(dir, "lonlat", grid);
    const tiles = [tileAt(12, 45, 5), tileAt(12, 45, 7), tileAt(5.01, 49.99, 8), tileAt(19.9, 40.1, 9), tileAt(11, 46, 10), tileAt(-60, 10, 6)];
    await check(source, tiles, () => ({ grid, vrt }));
  });

  it("UTM zone 33N, int16 with nodata -9999", async () => {
    const W = 250;
    const grid: Grid = {
      data: pattern((n) => new Int16Array(n), W, W, (i, j) => ((i * 7 + j * 3) % 2000) - 1000, -9999),
      width: W,
      height: W,
      transform: [200, 0, 450000, 0, -200, 5150000],
      srs: "EPSG:32633",
      nodata: -9999,
    };
    const source = await openTileSource(await datasetOf(grid), { reprojector });
    const vrt = writeVrt(dir, "utm", grid);
    const tiles = [tileAt(14.7, 46.3, 7), tileAt(14.7, 46.3, 9), tileAt(14.37, 46.47, 10), tileAt(15.0, 45.95, 11)];
    await check(source, tiles, () => ({ grid, vrt }));
  });

  it("a rotated grid in EPSG:3857, uint8 with nodata 0", async () => {
    const W = 200;
    const s = 500;
    const th = (25 * Math.PI) / 180;
    const grid: Grid = {
      data: pattern((n) => new Uint8Array(n), W, W, (i, j) => 1 + ((i * 3 + j * 5) % 250), 0),
      width: W,
      height: W,
      transform: [s * Math.cos(th), s * Math.sin(th), 1_000_000, s * Math.sin(th), -s * Math.cos(th), 6_000_000],
      srs: "EPSG:3857",
      nodata: 0,
    };
    const source = await openTileSource(await datasetOf(grid));
    const vrt = writeVrt(dir, "rotated", grid);
    const tiles = [tileAt(9.58, 47.2, 7), tileAt(9.58, 47.2, 8), tileAt(9.0, 47.3, 10), tileAt(10.0, 47.0, 9), tileAt(9.58, 47.2, 11)];
    await check(source, tiles, () => ({ grid, vrt }));
  });

  it("a 3-level pyramid in UTM: each zoom reads the level that fits, and equals gdalwarp of that level", async () => {
    const N = 512;
    const base: Grid = {
      data: pattern((n) => new Float32Array(n), N, N, (i, j) => Math.fround(Math.cos(i / 17) * 30 + Math.sin(j / 11) * 20), Number.NaN),
      width: N,
      height: N,
      transform: [100, 0, 450000, 0, -100, 5000000],
      srs: "EPSG:32633",
      nodata: Number.NaN,
    };
    const pyramid = new MemoryStore();
    const built = await buildPyramid(await datasetOf(base, 128), pyramid, { factors: 2, minSize: 128, chunkShape: [128, 128] });
    expect(built.levels.map((l) => l.shape[0])).toEqual([512, 256, 128]);
    const grids = new Map<string, { grid: Grid; vrt: string }>();
    for (const [index, l] of built.levels.entries()) {
      const size = N >> index;
      const data = (await get(await openArray(pyramid, `${l.asset}/v`), null)).data as Float32Array;
      const grid: Grid = { ...base, data, width: size, height: size, transform: [100 << index, 0, 450000, 0, -(100 << index), 5000000] };
      grids.set(l.asset, { grid, vrt: writeVrt(dir, `level${l.asset}`, grid) });
    }
    const source = await openTileSource(pyramid, { reprojector });
    expect(source.levels.map((l) => l.resolution)).toEqual([100, 200, 400]);
    const tiles = [tileAt(14.7, 44.9, 7), tileAt(14.7, 44.9, 8), tileAt(14.5, 45.0, 9), tileAt(14.4, 45.1, 10), tileAt(14.9, 44.7, 11), tileAt(16, 44.9, 9)];
    const levels = await check(source, tiles, (level) => grids.get(level ?? "0") as { grid: Grid; vrt: string });
    expect([...levels].sort()).toEqual(["0", "1", "2"]);
  });
});
