/**
 * GeoTIFF import. GDAL writes real GeoTIFFs (tiled/striped, deflate, multi-band, nodata,
 * geographic, PixelIsPoint) from raw bytes made here; what we import must hold exactly those
 * bytes and the georeferencing gdalinfo reports. The pure-JS tests (geotiff's own writer)
 * run on machines without GDAL.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v2 from "@zarr/v2-compat";
import { createRegistry, get, MemoryStore, openArray, openGroup, slice } from "@zarr/core";
import { gzip, zlib } from "@zarr/codec-gzip";
import { ZarrError } from "@zarr/spec";
import { CountingStore } from "@zarr/store-utils";
import { writeArrayBuffer } from "geotiff";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer } from "../../../scripts/test-env.mjs";
import { importGeoTiff, readGeoTiffInfo } from "../src/geotiff.js";
import { describeMultiscales, effectiveGeoreference, gridExtent, loadHierarchy, v2Writer, validateHierarchy } from "../src/index.js";
import { values } from "./helpers.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "geotiff-import-"));
  dirs.push(d);
  return d;
}

type Typed = Int8Array | Uint8Array | Uint16Array | Int16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

// ENVI data type codes (the raw format GDAL reads our bytes from).
const ENVI_TYPES: Record<string, number> = { Uint8Array: 1, Int16Array: 2, Int32Array: 3, Float32Array: 4, Float64Array: 5, Uint16Array: 12, Uint32Array: 13 };

/** Writes bands (band-sequential, little-endian) as ENVI raw + header, then gdal_translate to GeoTIFF. */
function gdalTiff(bands: Typed[], width: number, height: number, translateArgs: string[]): string {
  const dir = tempDir();
  const raw = join(dir, "in.raw");
  const buf = Buffer.concat(bands.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
  writeFileSync(raw, buf);
  writeFileSync(
    join(dir, "in.hdr"),
    `ENVI\nsamples = ${width}\nlines = ${height}\nbands = ${bands.length}\nheader offset = 0\nfile type = ENVI Standard\n` +
      `data type = ${ENVI_TYPES[bands[0].constructor.name]}\ninterleave = bsq\nbyte order = 0\n`,
  );
  const out = join(dir, "out.tif");
  execFileSync("gdal_translate", ["-q", "-of", "GTiff", ...translateArgs, raw, out], { stdio: "pipe" });
  return out;
}

function gdalinfo(file: string): { size: number[]; geoTransform: number[]; coordinateSystem: { wkt: string }; bands: Array<{ noDataValue?: number | string; block: number[] }>; metadata: Record<string, Record<string, string>> } {
  return JSON.parse(execFileSync("gdalinfo", ["-json", file], { encoding: "utf8" }));
}

/** The EPSG code in a WKT2 string's outermost ID (its last ID[...]). */
function wktEpsg(wkt: string): string {
  const ids = [...wkt.matchAll(/ID\["EPSG",(\d+)\]/g)];
  return `EPSG:${ids[ids.length - 1][1]}`;
}

function pattern(n: number, f: (i: number) => number, Ctor: new (n: number) => Typed): Typed {
  const out = new Ctor(n);
  for (let i = 0; i < n; i++) out[i] = f(i);
  return out;
}

describe("GDAL-written GeoTIFFs", () => {
  it("tiled, deflate, 3 bands uint16 with nodata: values, CRS, transform, tiles as chunks, valid Dataset", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const W = 300;
    const H = 200;
    const bands = [0, 1, 2].map((b) => pattern(W * H, (i) => (i * 13 + b * 1000) % 60000, Uint16Array));
    const file = gdalTiff(bands, W, H, [
      "-a_srs", "EPSG:32632", "-a_ullr", "500000", "5000000", "503000", "4998000", "-a_nodata", "7",
      "-co", "TILED=YES", "-co", "BLOCKXSIZE=128", "-co", "BLOCKYSIZE=64", "-co", "COMPRESS=DEFLATE",
    ]);
    const info = gdalinfo(file);
    const store = new MemoryStore();
    const progress: number[] = [];
    const result = await importGeoTiff(file, store, "scene", { onProgress: (p) => progress.push(p.done) });
    expect(result.variables).toEqual(["band_1", "band_2", "band_3"]);
    expect(result.dataType).toBe("uint16");
    expect(result.layout).toEqual({ tiled: true, blockShape: [64, 128], compression: 8 });
    expect(result.chunkShape).toEqual([64, 128]);
    // Read window by window: one chunk row (all columns and bands fit the budget) at a time.
    expect(progress).toEqual([1, 2, 3, 4]);
    // Georeferencing as GDAL reports it.
    const gt = info.geoTransform;
    expect(result.transform).toEqual([gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]]);
    expect(result.crs.code).toBe(wktEpsg(info.coordinateSystem.wkt));
    expect(result.shape).toEqual([info.size[1], info.size[0]]);
    expect(result.nodata).toBe(Number(info.bands[0].noDataValue));
    const group = await openGroup(store, "scene");
    expect(group.attributes["proj:code"]).toBe("EPSG:32632");
    expect(group.attributes["spatial:transform"]).toEqual([10, 0, 500000, 0, -10, 5000000]);
    expect(group.attributes["spatial:shape"]).toEqual([200, 300]);
    expect(group.attributes["spatial:registration"]).toBeUndefined();
    // Values: exactly the bytes GDAL was given.
    for (let b = 0; b < 3; b++) {
      const arr = await openArray(store, `scene/band_${b + 1}`);
      expect(arr.chunkShape).toEqual([64, 128]);
      expect(arr.fillValue).toBe(7);
      expect(arr.metadata.dimension_names).toEqual(["y", "x"]);
      const got = await get(arr, null);
      expect(got.shape).toEqual([H, W]);
      expect(Buffer.from((got.data as Uint16Array).buffer).equals(Buffer.from(bands[b].buffer))).toBe(true);
    }
    // Pixel-centre coordinates.
    const y = await values(store, "scene/y");
    const x = await values(store, "scene/x");
    expect(y.data.slice(0, 2)).toEqual([4999995, 4999985]);
    expect(x.data.at(-1)).toBe(502995);
    const h = await loadHierarchy(store);
    const report = validateHierarchy(h);
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(report.datasets).toContain("scene");
  });

  it("striped float32 with nodata -9999, a custom chunk shape, spot-checked with gdallocationinfo", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const W = 97;
    const H = 61;
    const band = pattern(W * H, (i) => (i % 11 === 0 ? -9999 : Math.sin(i / 7) * 1000), Float32Array);
    const file = gdalTiff([band], W, H, ["-a_srs", "EPSG:3857", "-a_ullr", "1000", "2000", "1970", "1390", "-a_nodata", "-9999", "-co", "BLOCKYSIZE=7"]);
    const result = await importGeoTiff(file, new MemoryStore(), "", { chunkShape: [25, 40] });
    expect(result.layout.tiled).toBe(false);
    expect(result.layout.blockShape).toEqual([7, 97]);
    const store = new MemoryStore();
    await importGeoTiff(file, store, "", { chunkShape: [25, 40] });
    const arr = await openArray(store, "band_1");
    expect(arr.chunkShape).toEqual([25, 40]);
    expect(arr.fillValue).toBe(-9999);
    expect(arr.dataType.name).toBe("float32");
    expect((await openArray(store, "band_1")).metadata.attributes._FillValue).toBe(-9999);
    const got = await get(arr, null);
    expect(Array.from(got.data as Float32Array)).toEqual(Array.from(band));
    // GDAL's own reading of a few pixels agrees too.
    for (const [col, row] of [[0, 0], [96, 60], [41, 33]]) {
      const out = execFileSync("gdallocationinfo", ["-valonly", file, String(col), String(row)], { encoding: "utf8" }).trim();
      const ours = (await get(arr, [slice(row, row + 1), slice(col, col + 1)])).data as Float32Array;
      expect(ours[0]).toBeCloseTo(Number(out), 3);
    }
    const info = gdalinfo(file);
    const gt = info.geoTransform;
    expect(result.transform).toEqual([gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]]);
    expect(result.crs.code).toBe("EPSG:3857");
    expect(validateHierarchy(await loadHierarchy(store)).findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("geographic int32, PixelIsPoint, band descriptions as names, pixel-interleaved", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const W = 40;
    const H = 30;
    const bands = [0, 1].map((b) => pattern(W * H, (i) => (b === 0 ? -i * 1001 : i * 3 + 5), Int32Array));
    const tmp = gdalTiff(bands, W, H, ["-a_srs", "EPSG:4326", "-a_ullr", "10", "50", "14", "47", "-mo", "AREA_OR_POINT=Point", "-co", "INTERLEAVE=PIXEL"]);
    // Band descriptions (gdal_edit is a Python script): a second gdal_translate from a VRT that carries them.
    const vrt = join(tempDir(), "named.vrt");
    execFileSync("gdal_translate", ["-q", "-of", "VRT", tmp, vrt]);
    const text = readFileSync(vrt, "utf8")
      .replace(/(<VRTRasterBand[^>]*band="1"[^>]*>)/, "$1<Description>elevation</Description>")
      .replace(/(<VRTRasterBand[^>]*band="2"[^>]*>)/, "$1<Description>slope</Description>");
    writeFileSync(vrt, text);
    const file = join(tempDir(), "named.tif");
    execFileSync("gdal_translate", ["-q", "-of", "GTiff", "-co", "INTERLEAVE=PIXEL", vrt, file]);
    const info = gdalinfo(file);
    expect(info.metadata[""]?.AREA_OR_POINT).toBe("Point");
    const store = new MemoryStore();
    const result = await importGeoTiff(file, store, "g");
    expect(result.variables).toEqual(["elevation", "slope"]);
    expect(result.crs.code).toBe("EPSG:4326");
    expect(result.registration).toBe("node");
    // GDAL reports the pixel-corner geotransform; node registration puts (0, 0) on the first sample.
    const gt = info.geoTransform;
    expect(result.transform[0]).toBeCloseTo(gt[1], 12);
    expect(result.transform[4]).toBeCloseTo(gt[5], 12);
    expect(result.transform[2]).toBeCloseTo(gt[0] + gt[1] / 2, 9);
    expect(result.transform[5]).toBeCloseTo(gt[3] + gt[5] / 2, 9);
    const ext = gridExtent(result.transform, result.shape, "node");
    expect(ext.map((v) => Math.round(v * 1e9) / 1e9)).toEqual([10, 47, 14, 50]);
    const group = await openGroup(store, "g");
    expect(group.attributes["spatial:registration"]).toBe("node");
    for (const [b, name] of ["elevation", "slope"].entries()) {
      const got = await get(await openArray(store, `g/${name}`), null);
      expect(Array.from(got.data as Int32Array)).toEqual(Array.from(bands[b]));
    }
    const lon = await values(store, "g/x");
    expect(lon.data[0]).toBeCloseTo(10.05, 9);
    const geo = effectiveGeoreference(await loadHierarchy(store), "g/slope");
    expect(geo.crs?.code).toBe("EPSG:4326");
    expect(validateHierarchy(await loadHierarchy(store)).findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("uint8 with a pyramid: a valid Multiscale Dataset, level 0 equal to the TIFF, no scratch left", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const W = 256;
    const H = 160;
    const band = pattern(W * H, (i) => (i * 7) % 251, Uint8Array);
    const file = gdalTiff([band], W, H, ["-a_srs", "EPSG:32633", "-a_ullr", "300000", "4500000", "307680", "4495200", "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE"]);
    const store = new MemoryStore();
    const result = await importGeoTiff(file, store, "", { pyramid: { minSize: 40 }, chunkShape: [64, 64] });
    expect(result.pyramid?.levels.map((l) => l.shape)).toEqual([[160, 256], [80, 128], [40, 64]]);
    const h = await loadHierarchy(store);
    const report = validateHierarchy(h);
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(report.multiscales).toEqual([""]);
    const ms = describeMultiscales(h);
    expect(ms.levels.map((l) => l.resolution?.[0])).toEqual([30, 60, 120]);
    expect(h.node("_geotiff_source")).toBeUndefined();
    const level0 = await get(await openArray(store, "0/band_1"), null);
    expect(Buffer.from((level0.data as Uint8Array).buffer).equals(Buffer.from(band.buffer))).toBe(true);
    // Level 1 is the 2×2 average of the TIFF (rounded as the pyramid's integer averages are).
    const level1 = (await get(await openArray(store, "1/band_1"), [slice(3, 4), slice(5, 6)])).data as Uint8Array;
    const avg = (band[6 * W + 10] + band[6 * W + 11] + band[7 * W + 10] + band[7 * W + 11]) / 4;
    expect(Math.abs(level1[0] - avg)).toBeLessThanOrEqual(0.5);
    expect(await store.get("zarr.json")).toBeDefined();
  });
});

/** A GeoTIFF made by geotiff's own writer (one strip, pixel-interleaved). */
function jsTiff(data: Typed, width: number, height: number, extra: Record<string, unknown>): ArrayBuffer {
  return writeArrayBuffer(data, { width, height, ModelPixelScale: [20, 20, 0], ModelTiepoint: [0, 0, 0, 600000, 5200000, 0], ...extra } as never);
}

describe("pure JS (no GDAL)", () => {
  // (geotiff 3.0.5's writer garbles int16/int32 strips, so the signed case here is int8.)
  it("a projected int8 GeoTIFF: values, proj:code, transform, nodata, coordinates", async () => {
    const W = 37;
    const H = 23;
    const data = pattern(W * H, (i) => (i % 5 === 0 ? -128 : (i % 250) - 120), Int8Array);
    const tiff = jsTiff(data, W, H, { ProjectedCSTypeGeoKey: 32631, GTModelTypeGeoKey: 1, GTRasterTypeGeoKey: 1, GDAL_NODATA: "-128" });
    const info = await readGeoTiffInfo(new Uint8Array(tiff));
    expect(info).toMatchObject({ width: W, height: H, bands: 1, dataType: "int8", code: "EPSG:32631", nodata: -128, registration: "pixel" });
    const store = new MemoryStore();
    const result = await importGeoTiff(tiff, store, "a/b", { chunkShape: [10, 16] });
    expect(result.transform).toEqual([20, 0, 600000, 0, -20, 5200000]);
    const arr = await openArray(store, "a/b/band_1");
    expect(arr.fillValue).toBe(-128);
    expect(arr.chunkShape).toEqual([10, 16]);
    expect(Array.from((await get(arr, null)).data as Int8Array)).toEqual(Array.from(data));
    expect((await values(store, "a/b/x")).data.slice(0, 2)).toEqual([600010, 600030]);
    expect((await values(store, "a/b/y")).data.at(-1)).toBe(5200000 - 20 * 22.5);
    const h = await loadHierarchy(store);
    expect(validateHierarchy(h).findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(effectiveGeoreference(h, "a/b/band_1").crs?.code).toBe("EPSG:32631");
  });

  it("multi-band float64 with NaN nodata, a ModelTransformation, written as Zarr v2", async () => {
    const W = 12;
    const H = 9;
    const bands = 3;
    const data = new Float64Array(W * H * bands);
    for (let i = 0; i < data.length; i++) data[i] = i % 17 === 0 ? Number.NaN : i / 4;
    const tiff = writeArrayBuffer(data, {
      width: W,
      height: H,
      ModelTransformation: [0.5, 0, 0, 100, 0, -0.25, 0, 40, 0, 0, 0, 0, 0, 0, 0, 1],
      GeographicTypeGeoKey: 4326,
      GTModelTypeGeoKey: 2,
      GDAL_NODATA: "nan",
    } as never);
    const registry = createRegistry([gzip, zlib, v2.v2Format]);
    const store = new MemoryStore();
    const result = await importGeoTiff(tiff, store, "", { writer: v2Writer({ registry }), registry, bandNames: ["a", "b", "c"] });
    expect(result.format).toBe(2);
    expect(result.transform).toEqual([0.5, 0, 100, 0, -0.25, 40]);
    expect(Number.isNaN(result.nodata)).toBe(true);
    expect(await store.get(".zgroup")).toBeDefined();
    expect(await store.get("zarr.json")).toBeUndefined();
    for (const [b, name] of ["a", "b", "c"].entries()) {
      const got = await values(store, name, registry);
      // Pixel-interleaved in the TIFF: band b is every third value.
      const want = Array.from({ length: W * H }, (_, i) => data[i * bands + b]);
      expect(got.data).toEqual(want);
    }
    const h = await loadHierarchy(store, { registry });
    expect(h.node("a")?.zarrFormat).toBe(2);
    expect(validateHierarchy(h).findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it.each([3, 2] as const)("a Zarr v%i pyramid writes level 0 once, in place, exactly as a copy of it would be", async (format) => {
    const W = 64;
    const H = 48;
    const data = pattern(W * H, (i) => (i * 13) % 1000, Uint16Array);
    const tiff = jsTiff(data, W, H, { ProjectedCSTypeGeoKey: 32633, GTModelTypeGeoKey: 1 });
    const registry = createRegistry([gzip, zlib, v2.v2Format]);
    const writer = format === 2 ? v2Writer({ registry }) : undefined;
    const common = { registry, chunkShape: [16, 16] as [number, number], ...(writer === undefined ? {} : { writer }) };
    const inPlace = new CountingStore(new MemoryStore());
    await importGeoTiff(tiff, inPlace, "p", { ...common, pyramid: { minSize: 10, gdalCrs: true } });
    // Naming the variables makes the import stage the full resolution and copy it as level 0.
    const copied = new MemoryStore();
    await importGeoTiff(tiff, copied, "p", { ...common, pyramid: { minSize: 10, gdalCrs: true, variables: ["band_1"] } });
    const written = inPlace.requests.filter((r) => r.method === "set").map((r) => r.key);
    expect(written.filter((k) => k.includes("_geotiff_source"))).toEqual([]);
    const level0Chunks = written.filter((k) => k.startsWith("p/0/band_1/") && !/\.z|zarr\.json/.test(k));
    expect(level0Chunks.length).toBe(12); // 3×4 chunks of 16×16, each written once
    expect(new Set(level0Chunks).size).toBe(12);
    const mine = (inPlace.inner as MemoryStore).map;
    expect([...mine.keys()].sort()).toEqual([...copied.map.keys()].sort());
    for (const [key, bytes] of copied.map) {
      const other = mine.get(key) as Uint8Array;
      if (/(zarr\.json|\.zattrs|\.zarray|\.zgroup|\.zmetadata)$/.test(key)) {
        expect([key, JSON.parse(new TextDecoder().decode(other))]).toEqual([key, JSON.parse(new TextDecoder().decode(bytes))]);
      } else {
        expect([key, Buffer.compare(other, bytes)]).toEqual([key, 0]);
      }
    }
    expect((await values(copied, "p/0/band_1", registry)).data).toEqual(Array.from(data));
  });

  it("a v2 pyramid from a JS GeoTIFF", async () => {
    const W = 64;
    const H = 48;
    const data = pattern(W * H, (i) => i % 1000, Uint16Array);
    const tiff = jsTiff(data, W, H, { ProjectedCSTypeGeoKey: 32633, GTModelTypeGeoKey: 1 });
    const registry = createRegistry([gzip, zlib, v2.v2Format]);
    const store = new MemoryStore();
    const result = await importGeoTiff(tiff, store, "p", { writer: v2Writer({ registry }), registry, pyramid: { minSize: 10, factors: 2 }, chunkShape: [16, 16] });
    expect(result.pyramid?.levels.length).toBe(3);
    expect(await store.get("p/zarr.json")).toBeUndefined();
    const h = await loadHierarchy(store, { registry });
    const report = validateHierarchy(h);
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(report.multiscales).toEqual(["p"]);
    expect((await values(store, "p/0/band_1", registry)).data).toEqual(Array.from(data));
    expect(h.node("p/2/band_1")?.shape).toEqual([12, 16]);
  });

  it("errors: not a TIFF, missing file, user-defined CRS, no georeferencing, existing node, bad names, abort", async () => {
    const code = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (error) {
        expect(error).toBeInstanceOf(ZarrError);
        return `${(error as ZarrError).code} ${(error as Error).message}`;
      }
      return "no error";
    };
    const store = new MemoryStore();
    expect(await code(importGeoTiff(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), store, "x1"))).toMatch(/^INVALID_ARGUMENT GeoTIFF \(buffer\): not a readable TIFF/);
    expect(await code(importGeoTiff("/nonexistent/dir/file.tif", store, "x2"))).toMatch(/^INVALID_ARGUMENT GeoTIFF \/nonexistent\/dir\/file\.tif: cannot open/);
    const data = pattern(16, (i) => i, Uint8Array);
    const userDefined = jsTiff(data, 4, 4, { ProjectedCSTypeGeoKey: 32767, GTModelTypeGeoKey: 1 });
    expect(await code(importGeoTiff(userDefined, store, "x3"))).toMatch(/^UNSUPPORTED .*user-defined CRS/);
    const ok = await importGeoTiff(userDefined, store, "x3", { crs: { code: "EPSG:2056" } });
    expect(ok.crs.code).toBe("EPSG:2056");
    expect(await code(importGeoTiff(userDefined, store, "x3", { crs: { code: "EPSG:2056" } }))).toMatch(/^NODE_EXISTS/);
    const noGeo = writeArrayBuffer(data, { width: 4, height: 4, ModelTransformation: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], GeographicTypeGeoKey: 4326 } as never);
    expect(await code(importGeoTiff(noGeo, store, "x4"))).toMatch(/^INVALID_ARGUMENT .*degenerate geotransform/);
    const ok4 = jsTiff(data, 4, 4, { GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2 });
    expect(await code(importGeoTiff(ok4, store, "x5", { bandNames: ["x"] }))).toMatch(/^INVALID_ARGUMENT .*not a usable band array name/);
    expect(await code(importGeoTiff(ok4, store, "x5", { bandNames: ["a", "b"] }))).toMatch(/^INVALID_ARGUMENT .*give 1 band name/);
    expect(await code(importGeoTiff(ok4, store, "x5", { image: 3 }))).toMatch(/^INVALID_ARGUMENT .*there is no image 3/);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(importGeoTiff(ok4, store, "x6", { signal: controller.signal })).rejects.toThrow();
    expect(await store.get("x6/zarr.json")).toBeUndefined();
  });
});
