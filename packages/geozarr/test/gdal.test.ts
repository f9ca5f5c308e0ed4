/**
 * GDAL 3.6 reads each level we write: Zarr v2 output (through @zarr/v2-compat) with
 * GDAL's `_CRS`, read back with gdal_translate and gdalinfo, value for value.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzip, zlib } from "@zarr/codec-gzip";
import { createRegistry } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import * as v2 from "@zarr/v2-compat";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer } from "../../../scripts/test-env.mjs";
import { buildPyramid, describeMultiscales, effectiveGeoreference, loadHierarchy, migrate, readBbox, v2Writer, validate } from "../src/index.js";
import { dataset, values } from "./helpers.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Reads a raster with gdal_translate as an ASCII grid. */
function gdalValues(source: string): { width: number; height: number; values: number[] } {
  const out = join(mkdtempSync(join(tmpdir(), "gdal-asc-")), "out.asc");
  dirs.push(join(out, ".."));
  execFileSync("gdal_translate", ["-q", "-of", "AAIGrid", "-co", "DECIMAL_PRECISION=10", source, out], { stdio: "pipe" });
  const lines = readFileSync(out, "utf8").trim().split(/\r?\n/);
  const header: Record<string, number> = {};
  let i = 0;
  for (; i < lines.length && /^[a-zA-Z]/.test(lines[i]); i++) {
    const [k, v] = lines[i].trim().split(/\s+/);
    header[k.toLowerCase()] = Number(v);
  }
  const vals = lines.slice(i).join(" ").trim().split(/\s+/).map(Number);
  return { width: header.ncols, height: header.nrows, values: vals };
}

describe("GDAL reads the pyramid levels", () => {
  it("Zarr v2 with _CRS: every level's values, geotransform and CRS", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const H = 45;
    const W = 70;
    const u = Uint16Array.from({ length: H * W }, (_, i) => (i * 37) % 5000);
    const f = Float32Array.from({ length: H * W }, (_, i) => Math.sin(i / 10) * 100);
    const src = await dataset({ u: { data: u, dataType: "uint16" }, f: { data: f, dataType: "float32" } }, { shape: [H, W], transform: [30, 0, 300000, 0, -30, 4500000] });
    const dir = mkdtempSync(join(tmpdir(), "geozarr-gdal-"));
    dirs.push(dir);
    const registry = createRegistry([gzip, zlib, v2.v2Format]);
    const dst = new FileSystemStore(dir);
    const result = await buildPyramid(src, dst, { writer: v2Writer({ registry }), gdalCrs: true, minSize: 10, chunkShape: [16, 16], registry });
    expect(result.format).toBe(2);
    expect(result.levels.map((l) => l.shape)).toEqual([[45, 70], [23, 35], [12, 18]]);
    // Our own reader sees a valid v2 Multiscale Dataset.
    const report = await validate(dst, { registry });
    expect(report.findings.filter((x) => x.severity === "error")).toEqual([]);
    const h = await loadHierarchy(dst, { registry });
    expect(h.node("1/u")?.zarrFormat).toBe(2);
    expect(h.node("1/u")?.dimensionNames).toEqual(["y", "x"]);
    expect(describeMultiscales(h).levels.map((l) => l.resolution?.[0])).toEqual([30, 60, 120]);
    expect(effectiveGeoreference(h, "2/u").crs?.code).toBe("EPSG:32633");
    for (const level of result.levels) {
      // Every level of the integer band, and the float band at the base (each gdal_translate is a process).
      for (const name of level.index === 0 ? ["u", "f"] : ["u"]) {
        const ours = await values(dst, `${level.asset}/${name}`, registry);
        const theirs = gdalValues(`ZARR:"${dir}":/${level.asset}/${name}`);
        expect([theirs.height, theirs.width]).toEqual(level.shape);
        const tol = name === "f" ? 1e-5 : 0;
        const bad = theirs.values.findIndex((v, i) => Math.abs(v - ours.data[i]) > tol * Math.max(1, Math.abs(v)));
        expect(bad, `${level.asset}/${name} at ${bad}`).toBe(-1);
      }
      const info = JSON.parse(execFileSync("gdalinfo", ["-json", `ZARR:"${dir}":/${level.asset}/u`], { encoding: "utf8" }));
      const t = level.transform as readonly number[];
      expect(info.geoTransform).toEqual([t[2], t[0], t[1], t[5], t[3], t[4]]);
      expect(info.coordinateSystem.wkt).toContain('ID["EPSG",32633]');
    }
  });
});

describe("nearest levels pick what GDAL's nearest resampling picks", () => {
  it("each level equals gdal_translate -r nearest -outsize of level 0 (the pixel below-right of an even block's centre)", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const H = 64;
    const W = 96;
    const u = Uint16Array.from({ length: H * W }, (_, i) => (i * 7919) % 65521);
    const src = await dataset({ u: { data: u, dataType: "uint16" } }, { shape: [H, W] });
    const dir = mkdtempSync(join(tmpdir(), "geozarr-gdal-nearest-"));
    dirs.push(dir);
    const registry = createRegistry([gzip, zlib, v2.v2Format]);
    const dst = new FileSystemStore(dir);
    const result = await buildPyramid(src, dst, { writer: v2Writer({ registry }), resampling: "nearest", minSize: 8, chunkShape: [16, 16], registry });
    expect(result.levels.map((l) => l.cumulative)).toEqual([1, 2, 4, 8]);
    for (const level of result.levels.slice(1)) {
      const out = join(dir, `gdal-${level.asset}.asc`);
      const [h, w] = level.shape;
      execFileSync("gdal_translate", ["-q", "-of", "AAIGrid", "-r", "nearest", "-outsize", String(w), String(h), `ZARR:"${dir}":/0/u`, out], { stdio: "pipe" });
      const theirs = readFileSync(out, "utf8").trim().split(/\r?\n/).filter((l) => !/^[a-zA-Z]/.test(l)).join(" ").trim().split(/\s+/).map(Number);
      expect((await values(dst, `${level.asset}/u`, registry)).data, `level ${level.asset}`).toEqual(theirs);
    }
  });
});

describe("GDAL-written Zarr v2", () => {
  it("reads _CRS and _ARRAY_DIMENSIONS, migrates to the conventions, and reads a box", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const dir = mkdtempSync(join(tmpdir(), "gdal-written-"));
    dirs.push(dir);
    const rows = 12;
    const cols = 9;
    const grid = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => r * 100 + c));
    const asc = `ncols ${cols}\nnrows ${rows}\nxllcorner 400000\nyllcorner 6000000\ncellsize 25\n${grid.map((r) => r.join(" ")).join("\n")}\n`;
    writeFileSync(join(dir, "band.asc"), asc);
    execFileSync("gdal_translate", ["-q", "-of", "ZARR", "-ot", "Int16", "-a_srs", "EPSG:32631", "-co", "COMPRESS=ZLIB", join(dir, "band.asc"), join(dir, "out.zarr")], { stdio: "pipe" });
    const registry = createRegistry([gzip, zlib, v2.v2Format]);
    const store = new FileSystemStore(join(dir, "out.zarr"));
    let h = await loadHierarchy(store, { registry });
    const array = h.all().find((n) => n.kind === "array" && (n.shape?.length ?? 0) === 2);
    expect(array?.zarrFormat).toBe(2);
    expect(array?.dimensionNames).toEqual(["Y", "X"]);
    const before = effectiveGeoreference(h, array?.path as string);
    expect(before.crs).toMatchObject({ source: "gdal:_CRS" });
    expect(before.crs?.wkt2 ?? before.crs?.code).toBeDefined();
    const plan = await migrate(store, { registry });
    expect(plan.changes.map((c) => c.source)).toEqual(["gdal"]);
    h = await loadHierarchy(store, { registry });
    const after = effectiveGeoreference(h, array?.path as string);
    expect(after.crs?.source).toBe("proj");
    expect(after.transform).toEqual([25, 0, 400000, 0, -25, 6000300]);
    const r = await readBbox(h, { path: "", variable: array?.name, bbox: [400050, 6000200, 400100, 6000250], registry });
    expect(r.shape).toEqual([2, 2]);
    expect(Array.from(r.data as Int16Array)).toEqual([grid[2][2], grid[2][3], grid[3][2], grid[3][3]]);
  });
});
