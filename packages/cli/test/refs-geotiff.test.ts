/**
 * `zarr refs from-geotiff`: GDAL writes the GeoTIFFs (tiled, every referenceable compression,
 * pixel- and band-interleaved, edge tiles past the image, big-endian, sparse, strips) and is
 * the reference: the values the reference set reads (through @zarr/all and through fsspec's
 * ReferenceFileSystem with zarr-python) equal what `gdal_translate -of ENVI` reads from the
 * TIFF, and the group's georeferencing equals `gdalinfo -json`'s.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { get, openArray, openGroup, openStore } from "@zarr/all";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, havePythonModules, requirePeer } from "../../../scripts/test-env.mjs";
import { removeTempDirs, runInProcess as run, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

type Band = Int16Array | Uint8Array | Float32Array;
/** ENVI data type codes (GDAL's ENVI driver) of the sample types used here. */
const ENVI_TYPE: Record<string, number> = { Uint8Array: 1, Int16Array: 2, Float32Array: 4 };

const W = 70;
const H = 45;

/** A GeoTIFF written by gdal_translate from raw bands (band-sequential), in UTM 33N with 10 m pixels. */
function gdalTiff(bands: Band[], width: number, height: number, creation: string[]): string {
  const dir = tempDir("zarr-refs-tif-");
  const raw = path.join(dir, "in.raw");
  writeFileSync(raw, Buffer.concat(bands.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))));
  const type = ENVI_TYPE[bands[0].constructor.name];
  writeFileSync(
    path.join(dir, "in.hdr"),
    `ENVI\nsamples = ${width}\nlines = ${height}\nbands = ${bands.length}\nheader offset = 0\nfile type = ENVI Standard\ndata type = ${type}\ninterleave = bsq\nbyte order = 0\n`,
  );
  const out = path.join(dir, "in.tif");
  const georef = ["-a_srs", "EPSG:32633", "-a_ullr", "500000", "4600000", String(500000 + width * 10), String(4600000 - height * 10)];
  execFileSync("gdal_translate", ["-q", "-of", "GTiff", ...georef, ...creation, raw, out], { stdio: "pipe" });
  return out;
}

/** What GDAL reads from the TIFF: its bands band-sequential, little-endian (gdal_translate -of ENVI). */
function gdalValues(tif: string): Buffer {
  const out = path.join(tempDir("zarr-refs-envi-"), "out.raw");
  execFileSync("gdal_translate", ["-q", "-of", "ENVI", "-co", "INTERLEAVE=BSQ", tif, out], { stdio: "pipe" });
  const hdr = readFileSync(out.replace(/\.raw$/, ".hdr"), "utf8");
  expect(hdr).toMatch(/byte order = 0/);
  return readFileSync(out);
}

/** The reference set's data array, read through @zarr/all, as band-sequential little-endian bytes. */
async function ourValues(refs: string, dimensions: string[]): Promise<Buffer> {
  const store = await openStore(`reference+file://${refs}`);
  const arr = await openArray(store, "data");
  const got = await get(arr, null);
  const data = got.data as Band;
  const bytes = (d: Band) => Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  if (dimensions[2] !== "band") return bytes(data);
  // [y, x, band] → band-sequential.
  const [h, w, n] = got.shape;
  const Ctor = data.constructor as new (n: number) => Band;
  const bsq = new Ctor(h * w * n);
  for (let b = 0; b < n; b++) for (let i = 0; i < h * w; i++) bsq[b * h * w + i] = data[i * n + b];
  return bytes(bsq);
}

/**
 * The same through fsspec's ReferenceFileSystem and zarr-python, band-sequential little-endian
 * bytes. `keyByKey`: zarr reads the mapper one key at a time (fsspec 2022.11's batched `cat`
 * raises KeyError for a key the set leaves out instead of omitting it; fixed in later fsspec).
 */
function pythonValues(refs: string, keyByKey = false): Buffer {
  const script = `
import sys, collections.abc, fsspec, zarr, numpy as np
m = fsspec.filesystem("reference", fo=sys.argv[1]).get_mapper("")
class KeyByKey(collections.abc.Mapping):
    def __getitem__(self, k): return m[k]
    def __iter__(self): return iter(m)
    def __len__(self): return len(m)
g = zarr.open_group(zarr.storage.KVStore(KeyByKey()) if sys.argv[2] == "1" else m, mode="r")
a = g["data"][...]
if g["data"].attrs["_ARRAY_DIMENSIONS"][-1] == "band":
    a = np.moveaxis(a, -1, 0)
sys.stdout.buffer.write(np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes())
`;
  return execFileSync("/usr/bin/python3", ["-c", script, refs, keyByKey ? "1" : "0"], { maxBuffer: 1 << 26 });
}

function gdalInfo(tif: string) {
  return JSON.parse(execFileSync("gdalinfo", ["-json", tif], { encoding: "utf8" }));
}

async function references(tif: string, ...extra: string[]) {
  const out = path.join(tempDir("zarr-refs-out-"), "refs.json");
  const r = await run("refs", "from-geotiff", tif, out, "--json", ...extra);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return { out, summary: JSON.parse(r.out), doc: JSON.parse(readFileSync(out, "utf8")) };
}

const rand = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 2 ** 32;
};

const next = rand(7);
const int16Band = () => Int16Array.from({ length: W * H }, () => Math.floor(next() * 60000) - 30000);
const uint8Band = () => Uint8Array.from({ length: W * H }, () => Math.floor(next() * 256));
const float32Band = () => Float32Array.from({ length: W * H }, () => (next() - 0.5) * 1e4);
const tiles = ["-co", "TILED=YES", "-co", "BLOCKXSIZE=32", "-co", "BLOCKYSIZE=16"];
const python = () => havePythonModules(["fsspec", "zarr", "numpy"]);

describe("zarr refs from-geotiff", () => {
  const cases: Array<{ name: string; bands: () => Band[]; creation: string[]; dtype: string; dims: string[]; compressor: string | null; pythonReads: boolean }> = [
    { name: "int16, uncompressed", bands: () => [int16Band()], creation: ["-co", "COMPRESS=NONE"], dtype: "<i2", dims: ["y", "x"], compressor: null, pythonReads: true },
    { name: "int16, DEFLATE", bands: () => [int16Band()], creation: ["-co", "COMPRESS=DEFLATE"], dtype: "<i2", dims: ["y", "x"], compressor: "zlib", pythonReads: true },
    // libtiff's zstd frames leave out the content size, which numcodecs 0.11 (Debian's) cannot decode.
    { name: "int16, ZSTD", bands: () => [int16Band()], creation: ["-co", "COMPRESS=ZSTD"], dtype: "<i2", dims: ["y", "x"], compressor: "zstd", pythonReads: false },
    { name: "int16, big-endian", bands: () => [int16Band()], creation: ["-co", "ENDIANNESS=BIG", "-co", "COMPRESS=DEFLATE"], dtype: ">i2", dims: ["y", "x"], compressor: "zlib", pythonReads: true },
    { name: "uint8 ×3, band-separate, DEFLATE", bands: () => [uint8Band(), uint8Band(), uint8Band()], creation: ["-co", "INTERLEAVE=BAND", "-co", "COMPRESS=DEFLATE"], dtype: "|u1", dims: ["band", "y", "x"], compressor: "zlib", pythonReads: true },
    { name: "uint8 ×3, pixel-interleaved, uncompressed", bands: () => [uint8Band(), uint8Band(), uint8Band()], creation: ["-co", "INTERLEAVE=PIXEL"], dtype: "|u1", dims: ["y", "x", "band"], compressor: null, pythonReads: true },
    { name: "float32 ×2, pixel-interleaved, ZSTD", bands: () => [float32Band(), float32Band()], creation: ["-co", "INTERLEAVE=PIXEL", "-co", "COMPRESS=ZSTD"], dtype: "<f4", dims: ["y", "x", "band"], compressor: "zstd", pythonReads: false },
    { name: "float32 ×2, band-separate, DEFLATE", bands: () => [float32Band(), float32Band()], creation: ["-co", "INTERLEAVE=BAND", "-co", "COMPRESS=DEFLATE"], dtype: "<f4", dims: ["band", "y", "x"], compressor: "zlib", pythonReads: true },
  ];
  for (const c of cases) {
    it(`${c.name}: reads what GDAL reads (edge tiles past the image), georeferenced as gdalinfo says`, async () => {
      requirePeer(haveGdal(), "GDAL (gdal-bin)");
      const tif = gdalTiff(c.bands(), W, H, [...tiles, ...c.creation]);
      const { out, summary, doc } = await references(tif);
      expect(summary.dtype).toBe(c.dtype);
      expect(summary.dimensions).toEqual(c.dims);
      expect(summary.compressor?.id ?? null).toBe(c.compressor);
      // 3 tile rows × 3 tile columns: the last row and column reach past the 45×70 image.
      expect(summary.referenced).toBe(c.dims[0] === "band" ? 9 * summary.shape[0] : 9);
      expect(doc.templates.u).toBe(`file://${tif}`);
      // No nodata, no sparse tiles: no fill value, so xarray masks nothing.
      expect(JSON.parse(doc.refs["data/.zarray"]).fill_value).toBeNull();
      const reference = gdalValues(tif);
      expect((await ourValues(out, c.dims)).equals(reference)).toBe(true);
      if (c.pythonReads && python()) expect(pythonValues(out).equals(reference)).toBe(true);

      const info = gdalInfo(tif);
      const gt = info.geoTransform as number[];
      const group = await openGroup(await openStore(`reference+file://${out}`), "");
      expect(group.attributes["spatial:transform"]).toEqual([gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]]);
      expect(group.attributes["spatial:shape"]).toEqual([info.size[1], info.size[0]]);
      expect(info.coordinateSystem.wkt).toMatch(/ID\["EPSG",32633\]\]$/);
      expect(group.attributes["proj:code"]).toBe("EPSG:32633");
      const v = await run("geozarr", "validate", `reference+file://${out}`);
      expect(v.out).toContain("valid: 0 error(s)");
      expect(v.code).toBe(0);
    });
  }

  it("LZW (imagecodecs_lzw): 256×256 tiles whose codes grow to 12 bits and clear the table read what GDAL reads", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const w = 300;
    const h = 260;
    // Smooth values with noise: long enough LZW streams to pass 9–12-bit codes and table resets.
    const band = Int16Array.from({ length: w * h }, (_, i) => Math.round(1000 * Math.sin(i / 500) + next() * 40));
    const rgb = [0, 1, 2].map(() => Uint8Array.from({ length: w * h }, (_, i) => ((i % w) + Math.floor(next() * 8)) & 0xff));
    for (const [bands, interleave, dims] of [
      [[band], "PIXEL", ["y", "x"]],
      [rgb, "PIXEL", ["y", "x", "band"]],
      [rgb, "BAND", ["band", "y", "x"]],
    ] as Array<[Band[], string, string[]]>) {
      const tif = gdalTiff(bands, w, h, ["-co", "TILED=YES", "-co", "COMPRESS=LZW", "-co", `INTERLEAVE=${interleave}`]);
      const { out, summary } = await references(tif);
      expect(summary.compressor).toEqual({ id: "imagecodecs_lzw" });
      expect(summary.dimensions).toEqual(dims);
      expect((await ourValues(out, dims)).equals(gdalValues(tif))).toBe(true);
    }
  });

  it("sparse tiles are left out and read as the nodata value, as GDAL reads them", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const band = int16Band();
    // The first tile (rows 0–15, columns 0–31) is all nodata: SPARSE_OK leaves it unwritten.
    for (let r = 0; r < 16; r++) band.fill(-9999, r * W, r * W + 32);
    const tif = gdalTiff([band], W, H, [...tiles, "-a_nodata", "-9999", "-co", "SPARSE_OK=TRUE", "-co", "COMPRESS=DEFLATE"]);
    const { out, summary, doc } = await references(tif);
    expect(summary.sparse).toBe(1);
    expect(summary.nodata).toBe(-9999);
    expect(doc.refs["data/0.0"]).toBeUndefined();
    expect(JSON.parse(doc.refs["data/.zarray"]).fill_value).toBe(-9999);
    expect(JSON.parse(doc.refs["data/.zattrs"])._FillValue).toBe(-9999);
    const reference = gdalValues(tif);
    expect((await ourValues(out, ["y", "x"])).equals(reference)).toBe(true);
    if (python()) expect(pythonValues(out, true).equals(reference)).toBe(true);
  });

  it("strips that divide the height are chunks of [rows per strip, width]; others are refused", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const band = int16Band();
    const even = gdalTiff([band], W, H, ["-co", "BLOCKYSIZE=15", "-co", "COMPRESS=DEFLATE"]);
    const { out, summary } = await references(even);
    expect(summary.layout.tiled).toBe(false);
    expect(summary.chunks).toEqual([15, W]);
    expect(summary.referenced).toBe(3);
    expect((await ourValues(out, ["y", "x"])).equals(gdalValues(even))).toBe(true);
    const uneven = gdalTiff([band], W, H, ["-co", "BLOCKYSIZE=10"]);
    const r = await run("refs", "from-geotiff", uneven, path.join(tempDir("zarr-refs-out-"), "refs.json"));
    expect(r.code).toBe(1);
    expect(r.err).toContain("[UNSUPPORTED]");
    expect(r.err).toContain("strips of 10 rows that do not divide its 45 rows");
  });

  const refused: Array<[string, () => Band[], string[], string]> = [
    ["JPEG", () => [uint8Band()], ["-co", "COMPRESS=JPEG"], "JPEG-compressed, which no Zarr codec decodes"],
    ["LZW with predictor 2", () => [int16Band()], ["-co", "COMPRESS=LZW", "-co", "PREDICTOR=2"], "uses predictor 2 (horizontal differencing)"],
    ["predictor 2", () => [int16Band()], ["-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"], "uses predictor 2 (horizontal differencing)"],
    ["predictor 3", () => [float32Band()], ["-co", "COMPRESS=ZSTD", "-co", "PREDICTOR=3"], "uses predictor 3 (floating-point)"],
    ["PackBits", () => [int16Band()], ["-co", "COMPRESS=PACKBITS"], "PackBits-compressed"],
  ];
  for (const [what, bands, creation, message] of refused) {
    it(`refuses ${what} with a coded error and writes nothing`, async () => {
      requirePeer(haveGdal(), "GDAL (gdal-bin)");
      const tif = gdalTiff(bands(), W, H, [...tiles, ...creation]);
      const out = path.join(tempDir("zarr-refs-out-"), "refs.json");
      const r = await run("refs", "from-geotiff", tif, out);
      expect(r.code).toBe(1);
      expect(r.err).toContain("[UNSUPPORTED]");
      expect(r.err).toContain(message);
      expect(() => readFileSync(out)).toThrow();
    });
  }

  it("--target-url, --name, --overwrite, and usage errors", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const tif = gdalTiff([int16Band()], W, H, [...tiles, "-co", "COMPRESS=DEFLATE"]);
    const out = path.join(tempDir("zarr-refs-out-"), "refs.json");
    const first = await run("refs", "from-geotiff", tif, out, "--target-url", "https://example.com/scene.tif", "--name", "elevation");
    expect(first.code).toBe(0);
    expect(first.out).toContain("wrote references to 9 chunk(s)");
    expect(first.out).toContain(`read it as reference+file://${out}`);
    const doc = JSON.parse(readFileSync(out, "utf8"));
    expect(doc.templates.u).toBe("https://example.com/scene.tif");
    expect(doc.refs["elevation/0.0"][0]).toBe("{{u}}");
    const again = await run("refs", "from-geotiff", tif, out);
    expect(again.code).toBe(1);
    expect(again.err).toContain("[NODE_EXISTS]");
    expect((await run("refs", "from-geotiff", tif, out, "--overwrite")).code).toBe(0);
    expect((await run("refs")).code).toBe(2);
    expect((await run("refs", "to-geotiff")).err).toContain('unknown subcommand "to-geotiff"');
    expect((await run("refs", "from-geotiff", tif, out, "--overwrite", "--target-url", "scene.tif")).code).toBe(2);
    expect((await run("refs", "from-geotiff", tif, out, "--overwrite", "--name", "x")).err).toContain("[INVALID_ARGUMENT]");
    expect((await run("refs", "--help")).out).toContain("Usage: zarr refs from-geotiff");
    const unwritable = await run("refs", "from-geotiff", tif, path.join(out, "no-such-dir", "refs.json"));
    expect(unwritable.err).toMatch(/\[STORE_FAILED\] cannot write .*refs\.json \(ENOTDIR\)/);
    expect((await run("refs", "from-geotiff", path.join(path.dirname(out), "missing.tif"), `${out}.2`)).err).toContain("cannot open (ENOENT)");
  });
});
