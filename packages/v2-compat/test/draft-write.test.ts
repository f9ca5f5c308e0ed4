/**
 * Writing the early Zarr v3 draft layout: GDAL 3.6 (`gdal_translate`, `gdalinfo`) reads
 * what `writeDraft` writes with the values of the source, and so do zarr-python 2.13's
 * experimental v3 API and this package's own draft reader.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArray, createGroup, get, MemoryStore, openArray, openGroup, set, slice } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer, requirePythonZarr } from "../../../scripts/test-env.mjs";
import { createArrayV2, createGroupV2, writeDraft } from "../src/index.js";
import { fullRegistry, pythonScript } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "zarr-draft-write-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const registry = fullRegistry();

function sh(script: string): string {
  return execFileSync("sh", ["-c", script], { cwd: tmp, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** A v3 hierarchy: float32 with gzip and dimension names, uint16 with zstd (two chunks left missing), int16 without compression. */
async function v3Source(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await createGroup(store, "", { attributes: { title: "draft export" }, registry });
  const t2m = await createArray(store, "t2m", {
    shape: [30, 40], chunkShape: [10, 16], dataType: "float32", fillValue: -9999, dimensionNames: ["y", "x"],
    codecs: [{ name: "bytes", configuration: { endian: "big" } }, { name: "gzip", configuration: { level: 1 } }], registry,
  });
  await set(t2m, null, { data: Float32Array.from({ length: 1200 }, (_, i) => Math.sin(i) * 100), shape: [30, 40] });
  const band = await createArray(store, "sub/band", { shape: [20, 25], chunkShape: [8, 8], dataType: "uint16", fillValue: 7, codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 3, checksum: false } }], registry });
  await set(band, [slice(0, 16), null], { data: Uint16Array.from({ length: 16 * 25 }, (_, i) => (i * 37) % 65521), shape: [16, 25] });
  const plain = await createArray(store, "sub/plain", { shape: [5, 6], chunkShape: [5, 6], dataType: "int16", codecs: [{ name: "bytes", configuration: { endian: "little" } }], registry });
  await set(plain, null, { data: Int16Array.from({ length: 30 }, (_, i) => i - 15), shape: [5, 6] });
  return store;
}

describe("writeDraft", () => {
  it("writes what GDAL 3.6 reads with the source's values, and what this package reads back", async () => {
    const source = await v3Source();
    const dir = join(tmp, "draft.zarr");
    const target = new FileSystemStore(dir);
    const progress: number[] = [];
    const result = await writeDraft(await openGroup(source, "", { registry }), { target, onProgress: (p) => progress.push(p.done) });
    expect(result.arrays).toEqual([
      { path: "sub/band", chunks: 8 },
      { path: "sub/plain", chunks: 1 },
      { path: "t2m", chunks: 9 },
    ]);
    expect(result.groups).toEqual(["", "sub"]);
    expect(progress.at(-1)).toBe(18);
    expect(existsSync(join(dir, "meta", "root.group.json"))).toBe(true);
    expect(existsSync(join(dir, "data", "root", "t2m", "c2", "2"))).toBe(true);
    const doc = JSON.parse(readFileSync(join(dir, "meta", "root", "t2m.array.json"), "utf8"));
    expect(doc).toMatchObject({
      data_type: "<f4",
      chunk_grid: { type: "regular", chunk_shape: [10, 16], separator: "/" },
      compressor: { codec: "https://purl.org/zarr/spec/codec/gzip/1.0", configuration: { level: 5 } },
      fill_value: -9999,
      chunk_memory_layout: "C",
      attributes: { _ARRAY_DIMENSIONS: ["y", "x"] },
    });

    requirePeer(haveGdal(), "gdal-bin");
    const cases = [
      { path: "t2m", Ctor: Float32Array, shape: [30, 40] },
      { path: "sub/band", Ctor: Uint16Array, shape: [20, 25] },
      { path: "sub/plain", Ctor: Int16Array, shape: [5, 6] },
    ] as const;
    for (const c of cases) {
      const out = `out_${c.path.replace("/", "_")}.bin`;
      sh(`gdal_translate -q -of ENVI 'ZARR:"${dir}":/${c.path}' ${out}`);
      const bytes = readFileSync(join(tmp, out));
      const got = new c.Ctor(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      const expected = (await get(await openArray(source, c.path, { registry }))).data;
      expect(Array.from(got), `GDAL ${c.path}`).toEqual(Array.from(expected as ArrayLike<number>));
      const ours = (await get(await openArray(target, c.path, { registry }))).data;
      expect(Array.from(ours as ArrayLike<number>), `read back ${c.path}`).toEqual(Array.from(expected as ArrayLike<number>));
    }
    const info = JSON.parse(sh(`gdalinfo -json 'ZARR:"${dir}":/sub/band'`));
    expect(info.size).toEqual([25, 20]);
    expect(info.bands[0]).toMatchObject({ type: "UInt16", noDataValue: 7 });
    expect(JSON.parse(sh(`gdalmdiminfo '${dir}'`)).attributes).toEqual({ title: "draft export" });

    // zarr-python 2.13's experimental v3 API reads the same layout.
    requirePythonZarr();
    const py = pythonScript("read_v3_draft.py", [dir, "t2m", "sub/band", "sub/plain"]);
    const read = JSON.parse(py) as Record<string, number[]>;
    for (const c of cases) {
      const expected = (await get(await openArray(source, c.path, { registry }))).data as ArrayLike<number>;
      expect(read[c.path].map((v) => Math.fround(v)), `zarr-python ${c.path}`).toEqual(Array.from(expected));
    }
  });

  it("writes a Zarr v2 source too, blosc or uncompressed, at a path below the draft root", async () => {
    const source = new MemoryStore();
    await createGroupV2(source, "", { registry });
    const arr = await createArrayV2(source, "v", { shape: [12, 9], chunks: [5, 4], dtype: ">i4", order: "F", compressor: { id: "zlib", level: 1 }, registry });
    await set(arr, null, { data: Int32Array.from({ length: 108 }, (_, i) => i * 1000 - 50000), shape: [12, 9] });
    const dir = join(tmp, "from-v2.zarr");
    const target = new FileSystemStore(dir);
    const blosc = { id: "blosc" as const, cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 };
    await writeDraft(await openGroup(source, "", { registry }), { target, path: "in", compressor: blosc });
    const noCompression = join(tmp, "plain.zarr");
    await writeDraft(await openArray(source, "v", { registry }), { target: new FileSystemStore(noCompression), path: "v", compressor: null });
    requirePeer(haveGdal(), "gdal-bin");
    const expected = Array.from((await get(arr)).data as Int32Array);
    for (const [store, path] of [[dir, "in/v"], [noCompression, "v"]]) {
      sh(`gdal_translate -q -of ENVI 'ZARR:"${store}":/${path}' out_v2.bin`);
      const bytes = readFileSync(join(tmp, "out_v2.bin"));
      expect(Array.from(new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))), path).toEqual(expected);
    }
  });

  it("refuses what the draft cannot hold, before writing anything", async () => {
    const source = new MemoryStore();
    await createArray(source, "s", { shape: [2], dataType: "string", registry });
    const target = new MemoryStore();
    const error = await writeDraft(await openGroup(source, "", { registry }), { target }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe("UNSUPPORTED");
    expect((error as ZarrError).message).toMatch(/"s" holds variable-size values/);
    expect(target.map.size).toBe(0);
    const v3Target = new MemoryStore();
    await createGroup(v3Target, "", { registry });
    const clash = await writeDraft(await openGroup(source, "", { registry }), { target: v3Target }).catch((e: unknown) => e);
    expect((clash as ZarrError).code).toBe("INVALID_ARGUMENT");
    const lz4 = await writeDraft(await openGroup(source, "", { registry }), { target, compressor: { id: "lz4" } as never }).catch((e: unknown) => e);
    expect((lz4 as ZarrError).message).toMatch(/gzip or blosc/);
  });
});
