/**
 * GDAL-ready output: `zarr geozarr pyramid --zarr-format 2` and `from-geotiff --zarr-format 2`
 * write Zarr v2 with `_ARRAY_DIMENSIONS` and GDAL's `_CRS`, and Debian's GDAL 3.6 opens every
 * level with the source's CRS and geotransform (pixel size times the level's factor), and
 * level 0's values byte for byte (read back through GDAL as raw ENVI).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createArray, set } from "@zarr/core";
import { createDataset } from "@zarr/geozarr";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer } from "../../../scripts/test-env.mjs";
import { gdalTiff, removeTempDirs, runInProcess as run, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

const H = 300;
const W = 200;
const TRANSFORM: [number, number, number, number, number, number] = [10, 0, 500000, 0, -10, 5000000];

interface GdalInfo {
  size: [number, number];
  geoTransform: number[];
  coordinateSystem?: { wkt: string };
  bands: { type: string }[];
  metadata?: { SUBDATASETS?: Record<string, string> };
}

function gdalinfo(source: string): GdalInfo {
  return JSON.parse(execFileSync("gdalinfo", ["-json", source], { encoding: "utf8" })) as GdalInfo;
}

/** The CRS GDAL sees, by the authority code of its WKT's last (outermost) ID. */
function crsId(info: GdalInfo): string | undefined {
  const m = /ID\["([A-Z]+)",(\d+)\]\]\s*$/.exec(info.coordinateSystem?.wkt ?? "");
  return m === null ? undefined : `${m[1]}:${m[2]}`;
}

/** The raster's bytes as GDAL reads them (gdal_translate to raw ENVI). */
function gdalBytes(source: string): Buffer {
  const out = path.join(tempDir("zarr-gdal-raw-"), "out.raw");
  execFileSync("gdal_translate", ["-q", "-of", "ENVI", source, out], { stdio: "pipe" });
  return readFileSync(out);
}

/** GDAL's geotransform `[c, a, b, f, d, e]` of a `spatial:transform` `[a, b, c, d, e, f]` scaled by `factor`. */
function gdalTransform(t: readonly number[], factor: number): number[] {
  return [t[2], t[0] * factor, t[1] * factor, t[5], t[3] * factor, t[4] * factor];
}

function bytesOf(a: Uint16Array | Float32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

async function source(): Promise<{ dir: string; b04: Uint16Array; t: Float32Array }> {
  const dir = path.join(tempDir("zarr-gdal-"), "scene.zarr");
  const store = new FileSystemStore(dir);
  await createDataset(store, "", { crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: TRANSFORM, shape: [H, W] } });
  const b04 = Uint16Array.from({ length: H * W }, (_, i) => (i * 37) % 5000);
  const band = await createArray(store, "b04", { shape: [H, W], chunkShape: [100, 100], dataType: "uint16", dimensionNames: ["y", "x"], fillValue: 0 });
  await set(band, null, b04);
  const t = Float32Array.from({ length: H * W }, (_, i) => (i % 17 === 0 ? Number.NaN : Math.sin(i / 50) * 30));
  const temp = await createArray(store, "t", { shape: [H, W], chunkShape: [100, 100], dataType: "float32", dimensionNames: ["y", "x"], fillValue: Number.NaN });
  await set(temp, null, t);
  return { dir, b04, t };
}

describe("zarr geozarr pyramid --zarr-format 2", () => {
  it("GDAL opens every level with the source's CRS and geotransform; level 0 is the source", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const src = await source();
    const dst = path.join(path.dirname(src.dir), "pyramid-v2.zarr");
    const r = await run("geozarr", "pyramid", src.dir, dst, "--zarr-format", "2", "--min-size", "30", "--chunks", "64");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("wrote 3 level(s) of 2 variable(s)");
    expect(r.out).toContain("(Zarr v2)");
    const zattrs = JSON.parse(readFileSync(path.join(dst, "1", "b04", ".zattrs"), "utf8"));
    expect(zattrs._ARRAY_DIMENSIONS).toEqual(["y", "x"]);
    expect(zattrs._CRS).toMatchObject({ url: "http://www.opengis.net/def/crs/EPSG/0/32633" });
    // One GDAL subdataset per level and variable.
    const subdatasets = Object.entries(gdalinfo(`ZARR:"${dst}"`).metadata?.SUBDATASETS ?? {})
      .filter(([k]) => k.endsWith("_NAME"))
      .map(([, v]) => v.slice(v.lastIndexOf(":") + 1));
    for (const level of ["0", "1", "2"]) for (const v of ["b04", "t"]) expect(subdatasets).toContain(`/${level}/${v}`);
    expect(subdatasets.filter((s) => s.endsWith("/b04"))).toHaveLength(3);
    const shapes = [
      [300, 200],
      [150, 100],
      [75, 50],
    ];
    for (const [level, [h, w]] of shapes.entries()) {
      for (const v of ["b04", "t"]) {
        const info = gdalinfo(`ZARR:"${dst}":/${level}/${v}`);
        expect(info.size, `${level}/${v}`).toEqual([w, h]);
        expect(info.geoTransform, `${level}/${v}`).toEqual(gdalTransform(TRANSFORM, 2 ** level));
        expect(crsId(info), `${level}/${v}`).toBe("EPSG:32633");
      }
    }
    expect(gdalBytes(`ZARR:"${dst}":/0/b04`).equals(bytesOf(src.b04))).toBe(true);
    expect(gdalBytes(`ZARR:"${dst}":/0/t`).equals(bytesOf(src.t))).toBe(true);
    // A level-2 pixel as GDAL reads it: the mean of its 4×4 block of the source.
    const px = Number(execFileSync("gdallocationinfo", ["-valonly", `ZARR:"${dst}":/2/b04`, "5", "7"], { encoding: "utf8" }).trim());
    let sum = 0;
    for (let y = 28; y < 32; y++) for (let x = 20; x < 24; x++) sum += src.b04[y * W + x];
    expect(px).toBe(Math.round(sum / 16));
  });

  it("--no-gdal-crs leaves _CRS out; --gdal-crs adds it to Zarr v3; --shards needs v3", async () => {
    const src = await source();
    const plain = path.join(path.dirname(src.dir), "plain.zarr");
    expect((await run("geozarr", "pyramid", src.dir, plain, "--zarr-format", "2", "--min-size", "100", "--no-gdal-crs")).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(plain, "1", "b04", ".zattrs"), "utf8"))._CRS).toBeUndefined();
    const v3 = path.join(path.dirname(src.dir), "v3.zarr");
    const r3 = await run("geozarr", "pyramid", src.dir, v3, "--min-size", "100", "--gdal-crs");
    expect(r3.out).toContain("(Zarr v3)");
    expect(JSON.parse(readFileSync(path.join(v3, "1", "b04", "zarr.json"), "utf8")).attributes._CRS).toMatchObject({ url: "http://www.opengis.net/def/crs/EPSG/0/32633" });
    const v3plain = path.join(path.dirname(src.dir), "v3plain.zarr");
    expect((await run("geozarr", "pyramid", src.dir, v3plain, "--min-size", "100")).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(v3plain, "1", "b04", "zarr.json"), "utf8")).attributes._CRS).toBeUndefined();
    const shards = await run("geozarr", "pyramid", src.dir, path.join(path.dirname(src.dir), "s.zarr"), "--zarr-format", "2", "--shards", "128");
    expect(shards.code).toBe(2);
    expect(shards.err).toContain("--shards needs Zarr v3");
    const both = await run("geozarr", "pyramid", src.dir, path.join(path.dirname(src.dir), "b.zarr"), "--gdal-crs", "--no-gdal-crs");
    expect(both.code).toBe(2);
    const bad = await run("geozarr", "pyramid", src.dir, path.join(path.dirname(src.dir), "f.zarr"), "--zarr-format", "4");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--zarr-format is 2 or 3");
  });
});

describe("zarr geozarr from-geotiff --zarr-format 2", () => {
  const TW = 130;
  const TH = 90;
  const bands = [0, 1].map((b) => Uint16Array.from({ length: TW * TH }, (_, i) => (i * 13 + b * 991) % 40000));

  it("a Dataset: GDAL sees the TIFF's CRS, geotransform and values in each band", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const tif = gdalTiff(bands, TW, TH, ["-a_srs", "EPSG:32631", "-a_ullr", "400000", "5600000", "403900", "5597300", "-co", "TILED=YES", "-co", "BLOCKXSIZE=32", "-co", "BLOCKYSIZE=32"]);
    const tiffInfo = gdalinfo(tif);
    const dst = path.join(tempDir("zarr-gdal-tif-"), "scene.zarr");
    const r = await run("geozarr", "from-geotiff", tif, dst, "--zarr-format", "2");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("(Zarr v2)");
    for (const [b, band] of bands.entries()) {
      const zattrs = JSON.parse(readFileSync(path.join(dst, `band_${b + 1}`, ".zattrs"), "utf8"));
      expect(zattrs._CRS).toMatchObject({ url: "http://www.opengis.net/def/crs/EPSG/0/32631" });
      const info = gdalinfo(`ZARR:"${dst}":/band_${b + 1}`);
      expect(info.size).toEqual(tiffInfo.size);
      expect(info.geoTransform).toEqual(tiffInfo.geoTransform);
      expect(crsId(info)).toBe("EPSG:32631");
      expect(crsId(info)).toBe(crsId(tiffInfo));
      expect(gdalBytes(`ZARR:"${dst}":/band_${b + 1}`).equals(bytesOf(band))).toBe(true);
    }
  });

  it("--pyramid: every level has the TIFF's CRS and the geotransform at its factor; --no-gdal-crs writes none", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const tif = gdalTiff(bands, TW, TH, ["-a_srs", "EPSG:32631", "-a_ullr", "400000", "5600000", "403900", "5597300"]);
    const tiffInfo = gdalinfo(tif);
    const dst = path.join(tempDir("zarr-gdal-tif-"), "pyr.zarr");
    const r = await run("geozarr", "from-geotiff", tif, dst, "--zarr-format", "2", "--pyramid", "--min-size", "20", "--chunks", "32");
    expect(r.code).toBe(0);
    expect(r.out).toContain("levels:     0 90×130, 1 45×65, 2 23×33");
    const t = tiffInfo.geoTransform;
    for (const level of [0, 1, 2]) {
      const info = gdalinfo(`ZARR:"${dst}":/${level}/band_2`);
      const f = 2 ** level;
      expect(info.geoTransform).toEqual([t[0], t[1] * f, t[2] * f, t[3], t[4] * f, t[5] * f]);
      expect(crsId(info)).toBe(crsId(tiffInfo));
    }
    expect(gdalBytes(`ZARR:"${dst}":/0/band_2`).equals(bytesOf(bands[1]))).toBe(true);
    const plain = path.join(tempDir("zarr-gdal-tif-"), "plain.zarr");
    expect((await run("geozarr", "from-geotiff", tif, plain, "--zarr-format", "2", "--no-gdal-crs")).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(plain, "band_1", ".zattrs"), "utf8"))._CRS).toBeUndefined();
  });
});
