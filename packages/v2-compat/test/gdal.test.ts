/**
 * GDAL 3.6 both ways: what GDAL writes (Zarr v2 with _CRS, and the early v3 draft layout)
 * reads correctly here, and GDAL reads the numeric arrays this library writes.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get, openArray, openGroup, set, walk } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer } from "../../../scripts/test-env.mjs";
import { type CodecConfigV2, convert, createArrayV2, createGroupV2 } from "../src/index.js";
import { fullRegistry } from "./helpers.js";
import { zarritaRead } from "./zarrita.js";

const tmp = mkdtempSync(join(tmpdir(), "zarr-gdal-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The raster types used: ENVI data type code, GDAL name, typed array. */
const TYPES = [
  { envi: 1, gdal: "Byte", Ctor: Uint8Array, dtype: "|u1" },
  { envi: 2, gdal: "Int16", Ctor: Int16Array, dtype: "<i2" },
  { envi: 12, gdal: "UInt16", Ctor: Uint16Array, dtype: "<u2" },
  { envi: 3, gdal: "Int32", Ctor: Int32Array, dtype: "<i4" },
  { envi: 13, gdal: "UInt32", Ctor: Uint32Array, dtype: "<u4" },
  { envi: 4, gdal: "Float32", Ctor: Float32Array, dtype: "<f4" },
  { envi: 5, gdal: "Float64", Ctor: Float64Array, dtype: "<f8" },
] as const;
const COMPRESS = ["NONE", "GZIP", "ZLIB", "BLOSC", "LZ4", "ZSTD", "LZMA"];
const W = 37;
const H = 23;

function raster(Ctor: (typeof TYPES)[number]["Ctor"], seed: number) {
  const a = new Ctor(W * H);
  for (let i = 0; i < a.length; i++) a[i] = (i * 7919 + seed * 31) % 251 + (Ctor === Float32Array || Ctor === Float64Array ? 0.25 : 0);
  return a;
}

function sh(script: string): string {
  return execFileSync("sh", ["-c", script], { cwd: tmp, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

describe("GDAL-written stores", () => {
  it("reads Zarr v2 and early-draft v3 written by gdal_translate, with _CRS and dimension names", async () => {
    requirePeer(haveGdal(), "gdal-bin");
    const commands: string[] = [];
    for (const [i, t] of TYPES.entries()) {
      const name = `in_${t.gdal}`;
      writeFileSync(join(tmp, `${name}.bin`), new Uint8Array(raster(t.Ctor, i).buffer));
      writeFileSync(
        join(tmp, `${name}.hdr`),
        `ENVI\nsamples = ${W}\nlines = ${H}\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = ${t.envi}\ninterleave = bsq\nbyte order = 0\n`,
      );
      const common = `-q -a_srs EPSG:32632 -a_ullr 500000 5000000 500370 4999770 -co COMPRESS=${COMPRESS[i % 7]} -co BLOCKSIZE=16,10 -co ARRAY_NAME=band`;
      commands.push(`gdal_translate ${common} -of ZARR ${name}.bin v2_${t.gdal}.zarr`);
      commands.push(`gdal_translate ${common} -of ZARR -co FORMAT=ZARR_V3 ${name}.bin v3_${t.gdal}.zarr`);
    }
    sh(commands.join(" && "));
    const registry = fullRegistry();
    for (const [i, t] of TYPES.entries()) {
      const expected = Array.from(raster(t.Ctor, i));
      for (const version of ["v2", "v3"]) {
        const store = new FileSystemStore(join(tmp, `${version}_${t.gdal}.zarr`), { readOnly: true });
        const root = await openGroup(store, "", { registry });
        expect(root.format?.name).toBe(version === "v2" ? "zarr-v2" : "zarr-v3-draft");
        const band = await openArray(root, "band", { registry });
        expect(band.shape).toEqual([H, W]);
        expect(band.dimensionNames).toEqual(["Y", "X"]);
        const crs = band.attributes._CRS as { url?: string; wkt?: string };
        expect(crs.url).toBe("http://www.opengis.net/def/crs/EPSG/0/32632");
        expect(crs.wkt).toContain("UTM zone 32N");
        const values = Array.from((await get(band)).data as ArrayLike<number>);
        expect(values, `${version} ${t.gdal}`).toEqual(expected);
        const x = await openArray(root, "X", { registry });
        expect(Array.from((await get(x)).data as Float64Array).slice(0, 2)).toEqual([500005, 500015]);
        const names: string[] = [];
        for await (const n of walk(root)) names.push(n.path);
        expect(names.sort()).toEqual(["X", "Y", "band"]);
        // converted to v3, the band reads the same here and in zarrita.js
        const target = new FileSystemStore(join(tmp, `${version}_${t.gdal}.v3.zarr`));
        await convert(root, { target, registry });
        const converted = await openArray(target, "band", { registry });
        expect(converted.dimensionNames).toEqual(["Y", "X"]);
        expect(converted.attributes._CRS).toEqual(band.attributes._CRS);
        expect(Array.from((await get(converted)).data as ArrayLike<number>)).toEqual(expected);
        if (COMPRESS[i % 7] !== "LZMA") {
          // zarrita.js has no lzma codec
          const z = await zarritaRead(target, "band", false);
          expect(z.values.map(Number)).toEqual(expected);
        }
      }
    }
  });
});

describe("GDAL reads what this library writes", () => {
  it("numeric types in both byte orders and memory orders, with compressors", async () => {
    requirePeer(haveGdal(), "gdal-bin");
    const dir = join(tmp, "ours.zarr");
    mkdirSync(dir, { recursive: true });
    const store = new FileSystemStore(dir);
    const registry = fullRegistry();
    await createGroupV2(store, "", { registry });
    const compressors: (CodecConfigV2 | null)[] = [null, { id: "zlib", level: 1 }, { id: "gzip", level: 5 }, { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 }, { id: "zstd", level: 3 }, { id: "lz4", acceleration: 1 }];
    const cases: { name: string; t: (typeof TYPES)[number]; data: ArrayLike<number> }[] = [];
    let k = 0;
    // every type; C and F, little and big endian spread over them (and all four for Int16)
    const layouts = (i: number, t: (typeof TYPES)[number]) => {
      const all = [["C", "<"], ["F", ">"], ["F", "<"], ["C", ">"]] as const;
      const picked = t.gdal === "Int16" ? all : [all[i % 4], all[(i + 1) % 4]];
      return picked.filter(([, e]) => e === "<" || !t.dtype.startsWith("|"));
    };
    for (const [i, t] of TYPES.entries()) {
      for (const [order, endian] of layouts(i, t)) {
        const name = `${t.gdal}_${order}_${endian === "<" ? "le" : "be"}`;
        const data = raster(t.Ctor, i + k);
        const arr = await createArrayV2(store, name, {
          shape: [H, W],
          chunks: [10, 16],
          dtype: endian + t.dtype.slice(1),
          order,
          compressor: compressors[k++ % compressors.length],
          dimensionSeparator: k % 3 === 0 ? "/" : ".",
          fillValue: 0,
          dimensionNames: ["y", "x"],
          registry,
        });
        await set(arr, null, { data, shape: [H, W] });
        cases.push({ name, t, data });
      }
    }
    sh(cases.map((c) => `gdal_translate -q -of ENVI 'ZARR:"${dir}":/${c.name}' out_${c.name}.bin`).join(" && "));
    for (const c of cases) {
      const bytes = readFileSync(join(tmp, `out_${c.name}.bin`));
      const got = new c.t.Ctor(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      expect(Array.from(got), c.name).toEqual(Array.from(c.data));
    }
    const info = JSON.parse(sh(`gdalinfo -json 'ZARR:"${dir}":/Int16_F_be'`));
    expect(info.size).toEqual([W, H]);
    expect(info.bands[0].type).toBe("Int16");
  });
});
