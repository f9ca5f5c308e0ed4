/**
 * `zarr geozarr from-geotiff`: in-process through `main` for GDAL-made GeoTIFFs, and the
 * built CLI (dist/) as a subprocess for a GeoTIFF made by geotiff's own writer (no GDAL).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { get, openArray, openGroup } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { writeArrayBuffer } from "geotiff";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer } from "../../../scripts/test-env.mjs";
import { cliRegistry } from "../src/registry.js";
import { gdalTiff, removeTempDirs, runInProcess as run, tempDir, zarr } from "./helpers.js";

afterAll(removeTempDirs);

describe("zarr geozarr from-geotiff", () => {
  it("a tiled deflate 2-band GeoTIFF: values, georeferencing as gdalinfo reports, valid", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const W = 150;
    const H = 110;
    const bands = [0, 1].map((b) => Uint16Array.from({ length: W * H }, (_, i) => (i * 31 + b * 977) % 50000));
    const tif = gdalTiff(bands, W, H, ["-a_srs", "EPSG:32631", "-a_ullr", "400000", "5600000", "401500", "5598900", "-a_nodata", "0", "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE"]);
    const info = JSON.parse(execFileSync("gdalinfo", ["-json", tif], { encoding: "utf8" }));
    const dst = path.join(tempDir("zarr-geotiff-"), "out.zarr");
    const r = await run("geozarr", "from-geotiff", tif, dst, "scene", "--chunks", "64,48");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`imported 2 band(s) of ${tif} to ${dst}/scene (Zarr v3):`);
    expect(r.out).toContain("data type:  uint16, nodata 0");
    expect(r.out).toContain("shape:      110×150, chunks 64×48 (TIFF tiles 256×256)");
    const store = new FileSystemStore(dst);
    const group = await openGroup(store, "scene");
    const gt = info.geoTransform as number[];
    expect(group.attributes["spatial:transform"]).toEqual([gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]]);
    expect(group.attributes["spatial:shape"]).toEqual([info.size[1], info.size[0]]);
    expect(group.attributes["proj:code"]).toBe("EPSG:32631");
    for (let b = 0; b < 2; b++) {
      const arr = await openArray(store, `scene/band_${b + 1}`, { registry: cliRegistry() });
      expect(arr.chunkShape).toEqual([64, 48]);
      const got = await get(arr, null);
      expect(Buffer.from((got.data as Uint16Array).buffer).equals(Buffer.from(bands[b].buffer))).toBe(true);
    }
    const v = await run("geozarr", "validate", dst);
    expect(v.code).toBe(0);
    expect(v.out).toContain("valid: 0 error(s)");
    // Importing again needs --overwrite.
    const again = await run("geozarr", "from-geotiff", tif, dst, "scene");
    expect(again.code).toBe(1);
    expect(again.err).toContain('A node already exists at "scene"');
    expect((await run("geozarr", "from-geotiff", tif, dst, "scene", "--overwrite", "--json")).code).toBe(0);
  });

  it("--pyramid --zarr-format 2: the levels exist, level 0 equals the TIFF, GDAL reads level 1", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const W = 120;
    const H = 90;
    const band = Uint16Array.from({ length: W * H }, (_, i) => (i * 7) % 4000);
    const tif = gdalTiff([band], W, H, ["-a_srs", "EPSG:32633", "-a_ullr", "300000", "4500000", "303600", "4497300", "-co", "BLOCKYSIZE=5"]);
    const dst = path.join(tempDir("zarr-geotiff-"), "pyr.zarr");
    const r = await run("geozarr", "from-geotiff", tif, dst, "--pyramid", "--min-size", "20", "--factors", "2", "--resampling", "average", "--zarr-format", "2", "--chunks", "32");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("(Zarr v2, Multiscale Dataset)");
    expect(r.out).toContain("levels:     0 90×120, 1 45×60, 2 23×30");
    const registry = cliRegistry();
    const store = new FileSystemStore(dst);
    expect(await store.get(".zgroup")).toBeDefined();
    expect(await store.get("zarr.json")).toBeUndefined();
    const level0 = await get(await openArray(store, "0/band_1", { registry }), null);
    expect(Array.from(level0.data as Uint16Array)).toEqual(Array.from(band));
    const level2 = await openArray(store, "2/band_1", { registry });
    expect(level2.shape).toEqual([23, 30]);
    const info = await run("geozarr", "info", dst);
    expect(info.code).toBe(0);
    expect(info.out).toMatch(/levels: +3/);
    expect(info.out).toContain("valid (0 error(s)");
    // GDAL reads a level of the v2 pyramid: its size and a value.
    const gdal = JSON.parse(execFileSync("gdalinfo", ["-json", `ZARR:"${dst}":/1/band_1`], { encoding: "utf8" }));
    expect(gdal.size).toEqual([60, 45]);
    const px = Number(execFileSync("gdallocationinfo", ["-valonly", `ZARR:"${dst}":/1/band_1`, "3", "2"], { encoding: "utf8" }).trim());
    const avg = (band[4 * W + 6] + band[4 * W + 7] + band[5 * W + 6] + band[5 * W + 7]) / 4;
    expect(Math.abs(px - avg)).toBeLessThanOrEqual(0.5);
  });
});

describe("zarr geozarr from-geotiff (built CLI, no GDAL)", () => {
  it("imports a GeoTIFF written by geotiff.js; usage and input errors", async () => {
    const W = 20;
    const H = 16;
    const data = Float32Array.from({ length: W * H }, (_, i) => i * 0.5 - 3);
    const tiff = writeArrayBuffer(data, {
      width: W, height: H, ModelPixelScale: [0.1, 0.1, 0], ModelTiepoint: [0, 0, 0, 5, 45, 0],
      GeographicTypeGeoKey: 4326, GTModelTypeGeoKey: 2, GTRasterTypeGeoKey: 2,
    } as never);
    const dir = tempDir("zarr-geotiff-");
    const tif = path.join(dir, "small.tif");
    writeFileSync(tif, new Uint8Array(tiff));
    const dst = path.join(dir, "small.zarr");
    const r = await zarr(["geozarr", "from-geotiff", tif, dst]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = r.stdout.toString("utf8");
    expect(out).toContain("bands:      band_1");
    expect(out).toContain("crs:        EPSG:4326");
    expect(out).toContain("transform:  [0.1, 0, 5, 0, -0.1, 45] (node registration)");
    const store = new FileSystemStore(dst);
    const got = await get(await openArray(store, "band_1", { registry: cliRegistry() }), null);
    expect(Array.from(got.data as Float32Array)).toEqual(Array.from(data));
    const root = JSON.parse(readFileSync(path.join(dst, "zarr.json"), "utf8"));
    expect(root.attributes["spatial:registration"]).toBe("node");
    // --conventions v0.1: the same Dataset declared with the conventions' v0.1 tags.
    const old = await zarr(["geozarr", "from-geotiff", tif, `${dst}-v01`, "--conventions", "v0.1"]);
    expect(old.code, old.stderr).toBe(0);
    const oldRoot = JSON.parse(readFileSync(path.join(`${dst}-v01`, "zarr.json"), "utf8"));
    expect(oldRoot.attributes.zarr_conventions.map((e: { schema_url: string }) => e.schema_url).every((u: string) => u.includes("/v0.1/"))).toBe(true);
    expect(root.attributes.zarr_conventions.map((e: { schema_url: string }) => e.schema_url).some((u: string) => u.includes("/v0.1/"))).toBe(false);
    // Usage errors: exit 2.
    expect((await zarr(["geozarr", "from-geotiff", tif])).code).toBe(2);
    const needsPyramid = await zarr(["geozarr", "from-geotiff", tif, `${dst}2`, "--factors", "2"]);
    expect(needsPyramid.code).toBe(2);
    expect(needsPyramid.stderr).toContain("--factors needs --pyramid");
    expect((await zarr(["geozarr", "from-geotiff", tif, `${dst}2`, "--zarr-format", "4"])).code).toBe(2);
    // Input errors: exit 1 with a message naming the file.
    const missing = await zarr(["geozarr", "from-geotiff", path.join(dir, "nope.tif"), `${dst}3`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.tif");
    const junk = path.join(dir, "junk.tif");
    writeFileSync(junk, "not a tiff at all");
    const bad = await zarr(["geozarr", "from-geotiff", junk, `${dst}4`]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("junk.tif: not a readable TIFF");
  });
});
