import { createArray, createGroup, MemoryStore, set } from "@zarr/core";
import { createDataset } from "@zarr/geozarr";
import { proj4Reprojector } from "@zarr/geozarr/proj4";
import proj4 from "proj4";
import { describe, expect, it } from "vitest";
import {
  COLORMAPS,
  colormapTable,
  colourIndex,
  lonLatToMercator,
  mercatorLat,
  mercatorLon,
  openTileSource,
  renderTile,
  type TileCoord,
  tileBounds,
  tileValues,
} from "../src/index.js";
import { lonLatDataset } from "./helpers.js";

/** The tile pixel (column, row) whose centre is nearest to a longitude/latitude at zoom z. */
function pixelOf(lon: number, lat: number, z: number): { tile: TileCoord; i: number; j: number } {
  const [mx, my] = lonLatToMercator(lon, lat);
  const size = (2 * Math.PI * 6378137) / 2 ** z;
  const fx = (mx + Math.PI * 6378137) / size;
  const fy = (Math.PI * 6378137 - my) / size;
  const x = Math.floor(fx);
  const y = Math.floor(fy);
  return { tile: { z, x, y }, i: Math.floor((fx - x) * 256), j: Math.floor((fy - y) * 256) };
}

describe("Web Mercator", () => {
  it("tile bounds and the inverse projection agree with the known values", () => {
    expect(tileBounds({ z: 0, x: 0, y: 0 })).toEqual([-20037508.342789244, -20037508.342789244, 20037508.342789244, 20037508.342789244]);
    expect(tileBounds({ z: 1, x: 1, y: 0 })).toEqual([0, 0, 20037508.342789244, 20037508.342789244]);
    expect(mercatorLat(20037508.342789244)).toBeCloseTo(85.0511287798, 9);
    expect(mercatorLon(-20037508.342789244)).toBeCloseTo(-180, 12);
    const [x, y] = lonLatToMercator(12.5, 41.9);
    expect(mercatorLon(x)).toBeCloseTo(12.5, 12);
    expect(mercatorLat(y)).toBeCloseTo(41.9, 12);
  });
});

describe("colour maps", () => {
  it("are 256 RGBA entries from matplotlib's tables", () => {
    expect([...colormapTable("viridis").subarray(0, 4)]).toEqual([68, 1, 84, 255]);
    expect([...colormapTable("viridis").subarray(1020)]).toEqual([253, 231, 37, 255]);
    expect([...colormapTable("magma").subarray(0, 3)]).toEqual([0, 0, 4]);
    expect([...colormapTable("greys").subarray(0, 3)]).toEqual([0, 0, 0]);
    expect([...colormapTable("greys").subarray(1020, 1023)]).toEqual([255, 255, 255]);
    expect([...colormapTable("rdbu").subarray(0, 3)]).toEqual([103, 0, 31]);
    expect([...colormapTable("rdbu", { reverse: true }).subarray(0, 3)]).toEqual([5, 48, 97]);
    expect(COLORMAPS.every((c) => colormapTable(c).length === 1024)).toBe(true);
    expect(() => colormapTable("jet" as never)).toThrow(/Unknown colour map "jet"/);
    expect(colourIndex(0, 0, 10)).toBe(0);
    expect(colourIndex(10, 0, 10)).toBe(255);
    expect(colourIndex(5, 0, 10)).toBe(128);
    expect(colourIndex(-3, 0, 10)).toBe(0);
  });
});

describe("the tile function", () => {
  it("reads the value under each pixel centre, colours it, and leaves outside pixels transparent", async () => {
    const source = await openTileSource(await lonLatDataset({ attributes: { valid_min: 0, valid_max: 400, units: "K" } }));
    expect(source.range).toEqual([0, 400]);
    expect(source.units).toBe("K");
    // lon 10.05 is column 100 (value 100), inside the data.
    const { tile, i, j } = pixelOf(10.05, 5.05, 6);
    const values = await tileValues(source, tile);
    expect(values.valid[j * 256 + i]).toBe(1);
    expect(values.values[j * 256 + i]).toBe(100);
    const rgba = await renderTile(source, tile, { colormap: "greys" });
    expect([...rgba.subarray((j * 256 + i) * 4, (j * 256 + i) * 4 + 4)]).toEqual([...colormapTable("greys").subarray(64 * 4, 64 * 4 + 4)]);
    // West of lon 0 is outside: transparent.
    const west = pixelOf(-0.5, 5.05, 6);
    const wv = await tileValues(source, west.tile);
    expect(wv.valid[west.j * 256 + west.i]).toBe(0);
    // A tile far away: all transparent, no error, nothing read.
    const away = await renderTile(source, { z: 4, x: 2, y: 2 });
    expect(away.every((b) => b === 0)).toBe(true);
    expect((await tileValues(source, { z: 4, x: 2, y: 2 })).level).toBeUndefined();
  });

  it("chooses the time index by dimension name and the variable by name", async () => {
    const store = await lonLatDataset({ times: 3 });
    const other = await createArray(store, "w", { shape: [400, 400], chunkShape: [200, 200], dataType: "int16", dimensionNames: ["lat", "lon"], fillValue: -1, attributes: { _FillValue: -1 } });
    await set(other, null, Int16Array.from({ length: 160000 }, (_, k) => (Math.floor(k / 400) < 200 ? 7 : -1)));
    const { tile, i, j } = pixelOf(10.05, 5.05, 6);
    const t2 = await openTileSource(store, { variable: "v", select: { time: 2 }, range: [0, 3000] });
    expect((await tileValues(t2, tile)).values[j * 256 + i]).toBe(2100);
    const w = await openTileSource(store, { variable: "w" });
    expect(w.nodata).toBe(-1);
    const wv = await tileValues(w, tile);
    expect([wv.valid[j * 256 + i], wv.values[j * 256 + i]]).toEqual([1, 7]);
    const south = pixelOf(10.05, -5.05, 6);
    expect((await tileValues(w, south.tile)).valid[south.j * 256 + south.i]).toBe(0); // nodata → transparent
    await expect(openTileSource(store)).rejects.toThrow(/several variables \(v, w\)/);
    await expect(openTileSource(store, { variable: "v", select: { band: 1 } })).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining('no non-spatial dimension "band"') });
  });

  it("bilinear interpolates between pixel centres", async () => {
    const source = await openTileSource(await lonLatDataset(), { range: [0, 400] });
    const { tile } = pixelOf(10.05, 5.05, 9);
    const near = await tileValues(source, tile);
    const bil = await tileValues(source, tile, { resampling: "bilinear" });
    const [x0, , x1] = tileBounds(tile);
    let checked = 0;
    for (let i = 0; i < 256; i += 17) {
      const lon = mercatorLon(x0 + ((i + 0.5) * (x1 - x0)) / 256);
      // v = column + 0 on a ramp: bilinear gives lon / 0.1 − 0.5 exactly (float32 values are integers).
      expect(bil.values[128 * 256 + i]).toBeCloseTo(lon / 0.1 - 0.5, 6);
      expect(near.values[128 * 256 + i]).toBe(Math.floor(lon / 0.1));
      checked++;
    }
    expect(checked).toBe(16);
  });

  it("refuses a dataset without georeferencing, naming what is missing", async () => {
    const store = new MemoryStore();
    await createGroup(store, "");
    await createArray(store, "v", { shape: [4, 4], dataType: "uint8", dimensionNames: ["y", "x"] });
    await expect(openTileSource(store)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: '"v" is not georeferenced: it lacks a CRS (proj:code, proj:wkt2 or proj:projjson), an affine transform (spatial:transform)',
    });
    const noCrs = new MemoryStore();
    await createDataset(noCrs, "", { crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: [10, 0, 500000, 0, -10, 5000000], shape: [4, 4] } });
    await createArray(noCrs, "v", { shape: [4, 4], dataType: "uint8", dimensionNames: ["y", "x"] });
    await expect(openTileSource(noCrs)).rejects.toMatchObject({ code: "UNSUPPORTED", message: expect.stringContaining("EPSG:32633 need a reprojector") });
    const utm = await openTileSource(noCrs, { reprojector: proj4Reprojector(proj4), range: [0, 1] });
    expect(utm.route).toEqual({ kind: "reproject", crs: expect.objectContaining({ code: "EPSG:32633" }) });
    // A tile address that does not exist is a coded error too.
    await expect(tileValues(utm, { z: 3, x: 9, y: 1 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("No Web Mercator tile") });
  });

  it("wraps longitudes for data on 0–360°", async () => {
    const source = await openTileSource(await lonLatDataset({ transform: [0.1, 0, 340, 0, -0.1, 20] }), { range: [0, 400] });
    // lon −10 is 350 on this grid: column 100.
    const { tile, i, j } = pixelOf(-9.95, 5.05, 6);
    const v = await tileValues(source, tile);
    expect([v.valid[j * 256 + i], v.values[j * 256 + i]]).toEqual([1, 100]);
    // lon 10 is 370 → column 300 (the grid reaches 380).
    const e = pixelOf(10.05, 5.05, 6);
    const ev = await tileValues(source, e.tile);
    expect([ev.valid[e.j * 256 + e.i], ev.values[e.j * 256 + e.i]]).toEqual([1, 300]);
  });
});
