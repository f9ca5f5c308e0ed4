import { MemoryStore } from "@zarr/core";
import fc from "fast-check";
import proj4 from "proj4";
import { describe, expect, it } from "vitest";
import {
  type Affine,
  applyAffine,
  bboxToWindows,
  buildPyramid,
  chooseLevel,
  crsToPixel,
  describeMultiscales,
  loadHierarchy,
  pixelAt,
  pixelToCrs,
  readBbox,
  reprojectBbox,
  reprojection,
  tileGrid,
} from "../src/index.js";
import { proj4Reprojector } from "../src/proj4.js";
import { dataset } from "./helpers.js";

const T: Affine = [10, 0, 500000, 0, -10, 5000000];
const GRID = { transform: T, shape: [1000, 1000] as [number, number] };

describe("pixels and coordinates", () => {
  it("maps pixel space to CRS and back, centres included", () => {
    expect(pixelToCrs(GRID, 0, 0)).toEqual([500000, 5000000]);
    expect(pixelToCrs(GRID, 0, 0, { center: true })).toEqual([500005, 4999995]);
    expect(pixelToCrs({ ...GRID, registration: "node" }, 0, 0, { center: true })).toEqual([500000, 5000000]);
    expect(crsToPixel(GRID, 500025, 4999975)).toEqual([2.5, 2.5]);
    expect(pixelAt(GRID, 500025, 4999975)).toEqual([2, 2]);
    expect(pixelAt({ ...GRID, registration: "node" }, 500026, 4999975)).toEqual([3, 3]);
    expect(pixelAt(GRID, 400000, 4999975)).toBeUndefined();
  });
});

describe("bounding boxes to index windows", () => {
  it("clips, and snaps to chunks", () => {
    const [w] = bboxToWindows(GRID, [500100, 4999000, 500500, 4999900]);
    expect([w.rowStart, w.rowStop, w.colStart, w.colStop]).toEqual([10, 100, 10, 50]);
    expect(w.transform).toEqual([10, 0, 500100, 0, -10, 4999900]);
    expect(w.bbox).toEqual([500100, 4999000, 500500, 4999900]);
    const [s] = bboxToWindows(GRID, [500100, 4999000, 500500, 4999900], { snap: [64, 64] });
    expect([s.rowStart, s.rowStop, s.colStart, s.colStop]).toEqual([0, 128, 0, 64]);
    const [c] = bboxToWindows(GRID, [499000, 4990000, 500015, 5001000]);
    expect([c.rowStart, c.rowStop, c.colStart, c.colStop]).toEqual([0, 1000, 0, 2]);
    expect(bboxToWindows(GRID, [0, 0, 10, 10])).toEqual([]);
    const [u] = bboxToWindows(GRID, [499990, 4999990, 500010, 5000010], { clip: false });
    expect([u.rowStart, u.rowStop, u.colStart, u.colStop]).toEqual([-1, 1, -1, 1]);
  });

  it("touches exactly the pixels the box overlaps (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9990 }), fc.integer({ min: 0, max: 9990 }), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 3000 }), (x, y, w, h) => {
        const box = [500000 + x, 5000000 - y - h, 500000 + x + w, 5000000 - y] as const;
        const [win] = bboxToWindows(GRID, box);
        const c0 = Math.floor(x / 10);
        const c1 = Math.min(1000, Math.ceil((x + w) / 10));
        const r0 = Math.floor(y / 10);
        const r1 = Math.min(1000, Math.ceil((y + h) / 10));
        return win.colStart === c0 && win.colStop === c1 && win.rowStart === r0 && win.rowStop === r1;
      }),
    );
  });

  it("splits a box that crosses the antimeridian, and wraps 0–360° grids", () => {
    const world = { transform: [1, 0, -180, 0, -1, 90] as Affine, shape: [180, 360] as [number, number] };
    const ws = bboxToWindows(world, [170, -10, -170, 10]);
    expect(ws.map((w) => [w.colStart, w.colStop, w.xShift])).toEqual([[350, 360, 0], [0, 10, -360]]);
    const east = { transform: [1, 0, 0, 0, -1, 90] as Affine, shape: [180, 360] as [number, number] };
    const e = bboxToWindows(east, [170, -10, -170, 10]);
    expect(e.map((w) => [w.colStart, w.colStop])).toEqual([[170, 190]]);
    const wrapped = bboxToWindows(east, [-20, 0, -10, 10], { period: 360 });
    expect(wrapped.map((w) => [w.colStart, w.colStop, w.xShift])).toEqual([[340, 350, 360]]);
    // Projected coordinates are never wrapped unless asked.
    expect(bboxToWindows(GRID, [500000 - 360, 4999000, 500000 - 300, 4999900])).toEqual([]);
  });

  it("encloses the box on rotated grids", () => {
    const rot: Affine = [0, 10, 1000, -10, 0, 2000]; // columns run south, rows run east
    const grid = { transform: rot, shape: [50, 40] as [number, number] };
    const [w] = bboxToWindows(grid, [1100, 1700, 1200, 1900]);
    // x = 10*row + 1000 ∈ [1100, 1200] → rows 10..20; y = 2000 − 10*col ∈ [1700, 1900] → cols 10..30.
    expect([w.rowStart, w.rowStop, w.colStart, w.colStop]).toEqual([10, 20, 10, 30]);
    expect(applyAffine(w.transform, 0, 0)).toEqual(applyAffine(rot, 10, 10));
  });
});

describe("levels, tiles and reading a box", () => {
  async function pyramid() {
    const n = 64;
    const data = Float32Array.from({ length: n * n }, (_, i) => i);
    const src = await dataset({ v: { data, dataType: "float32" } }, { shape: [n, n], chunk: [16, 16] });
    const dst = new MemoryStore();
    await buildPyramid(src, dst, { minSize: 8, chunkShape: [16, 16], resampling: "nearest" });
    return { dst, data, n };
  }

  it("chooses levels by resolution or output size and describes a tile grid", async () => {
    const { dst } = await pyramid();
    const ms = describeMultiscales(await loadHierarchy(dst));
    expect(ms.levels.map((l) => l.resolution?.[0])).toEqual([10, 20, 40, 80]);
    expect(chooseLevel(ms.levels, { resolution: 30 }).asset).toBe("2"); // |log(40/30)| < |log(20/30)|
    expect(chooseLevel(ms.levels, { resolution: 30, mode: "finer" }).asset).toBe("1");
    expect(chooseLevel(ms.levels, { resolution: 30, mode: "coarser" }).asset).toBe("2");
    expect(chooseLevel(ms.levels, { resolution: 1000, mode: "finer" }).asset).toBe("3");
    expect(chooseLevel(ms.levels, { resolution: 1, mode: "coarser" }).asset).toBe("0");
    expect(chooseLevel(ms.levels, { width: 16, height: 16 }).asset).toBe("2");
    expect(chooseLevel(ms.levels, { width: 17, height: 16 }).asset).toBe("1");
    expect(chooseLevel(ms.levels, { width: 8, height: 8, bbox: [500000, 4999680, 500320, 5000000] }).asset).toBe("2");
    const grid = tileGrid(ms);
    expect(grid).toMatchObject({ crs: "EPSG:32633", origin: [500000, 5000000], resolutions: [80, 40, 20, 10], extent: [500000, 4999360, 500640, 5000000] });
    expect(grid.matrices.map((m) => [m.id, m.tileSize, m.matrixSize])).toEqual([
      ["3", [8, 8], [1, 1]],
      ["2", [16, 16], [1, 1]],
      ["1", [16, 16], [2, 2]],
      ["0", [16, 16], [4, 4]],
    ]);
  });

  it("reads a bounding box at a chosen level in one call", async () => {
    const { dst, data, n } = await pyramid();
    const r = await readBbox(dst, { variable: "v", level: 0, bbox: [500100, 4999700, 500200, 4999800] });
    expect(r.shape).toEqual([10, 10]);
    expect(r.arrayPath).toBe("0/v");
    expect(Array.from(r.data as Float32Array).slice(0, 3)).toEqual([data[20 * n + 10], data[20 * n + 11], data[20 * n + 12]]);
    expect(r.transform).toEqual([10, 0, 500100, 0, -10, 4999800]);
    const coarse = await readBbox(dst, { variable: "v", level: { resolution: 40 }, bbox: [500000, 4999360, 500640, 5000000] });
    expect(coarse.level?.asset).toBe("2");
    expect(coarse.shape).toEqual([16, 16]);
    // Nearest resampling of level 2 (4×) picks the source pixel below-right of each block's centre: (0, 0) is source (2, 2).
    expect((coarse.data as Float32Array)[0]).toBe(data[2 * n + 2]);
    await expect(readBbox(dst, { variable: "v", bbox: [0, 0, 1, 1] })).rejects.toMatchObject({ code: "OUT_OF_BOUNDS" });
  });

  it("reads a box given in another CRS through the proj4 adapter", async () => {
    const { dst } = await pyramid();
    const reprojector = proj4Reprojector(proj4);
    const toLonLat = await reprojection("EPSG:32633", "EPSG:4326", reprojector);
    const [lon0, lat0] = toLonLat.forward(500100, 4999700);
    const [lon1, lat1] = toLonLat.forward(500200, 4999800);
    const r = await readBbox(dst, { variable: "v", bbox: [lon0, lat0, lon1, lat1], bboxCrs: "EPSG:4326", reprojector });
    // The lon/lat box, reprojected back, covers the same 10×10 pixels (give or take its curved edges).
    expect(r.windows[0].rowStart).toBeGreaterThanOrEqual(19);
    expect(r.windows[0].colStart).toBeLessThanOrEqual(10);
    expect(r.shape[0]).toBeGreaterThanOrEqual(10);
    expect(r.shape[0]).toBeLessThanOrEqual(12);
    const back = reprojectBbox([lon0, lat0, lon1, lat1], toLonLat.inverse);
    expect(back[0]).toBeCloseTo(500100, -1);
    await expect(readBbox(dst, { variable: "v", bbox: [15, 45, 15.1, 45.1], bboxCrs: "EPSG:4326" })).rejects.toMatchObject({ code: "UNSUPPORTED" });
  });

  it("joins the two halves of a box across the antimeridian", async () => {
    const data = Float32Array.from({ length: 18 * 36 }, (_, i) => i);
    const src = await dataset({ t: { data, dataType: "float32" } }, { shape: [18, 36], transform: [10, 0, -180, 0, -10, 90], code: "EPSG:4326", chunk: [9, 9] });
    const r = await readBbox(src, { variable: "t", bbox: [160, -5, -165, 5] });
    expect(r.windows.map((w) => [w.colStart, w.colStop])).toEqual([[34, 36], [0, 2]]);
    expect(r.shape).toEqual([2, 4]);
    expect(Array.from(r.data as Float32Array)).toEqual([8 * 36 + 34, 8 * 36 + 35, 8 * 36 + 0, 8 * 36 + 1, 9 * 36 + 34, 9 * 36 + 35, 9 * 36 + 0, 9 * 36 + 1]);
    expect(r.transform).toEqual([10, 0, 160, 0, -10, 10]);
  });
});
