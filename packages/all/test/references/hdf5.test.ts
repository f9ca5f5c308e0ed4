/**
 * NetCDF4 and HDF5 files read through kerchunk references: the references are made from
 * h5py's chunk index (test/make_hdf5_refs.py), and our reads must equal what h5py reads
 * from the files and what fsspec's ReferenceFileSystem with zarr-python reads from the
 * same references.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileSystemStore } from "@zarr/store-fs";
import { openReferences } from "@zarr/store-references";
import { CountingStore } from "@zarr/store-utils";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { havePythonModules, skipWithout } from "../../../../scripts/test-env.mjs";
import { get, open, openArray, openStore, slice } from "../../src/index.js";

let dir: string;
let expected: Record<string, unknown> & { temp: number[][]; counts: number[]; grid: number[][]; gen_used: boolean };

// The files and the independent reader: python3-h5py, python3-netcdf4, python3-fsspec with python3-zarr.
const missing = skipWithout(havePythonModules(["numpy", "zarr", "h5py", "netCDF4", "fsspec"]), "python3-h5py, python3-netcdf4 and python3-fsspec");

beforeAll(() => {
  if (missing) return;
  dir = mkdtempSync(join(tmpdir(), "zarr-refs-"));
  execFileSync("/usr/bin/python3", [join(import.meta.dirname, "make_hdf5_refs.py"), dir], { stdio: "inherit" });
  expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8"));
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Values as nested rows (what the Python helper writes). */
const rows = (values: unknown, shape: number[]) => {
  const data = values as ArrayLike<number>;
  return Array.from({ length: shape[0] }, (_, i) => Array.from({ length: shape[1] }, (_, j) => Number(data[i * shape[1] + j])));
};
const flat = (values: unknown) => Array.from(values as ArrayLike<number>, Number);

for (const doc of ["refs.json", "refs-v1.json"]) {
  describe.skipIf(missing)(`${doc} through reference+file://`, () => {
    it("reads every array exactly as h5py reads the files, and as fsspec + zarr-python read the references", async () => {
      const store = await openStore(`reference+file://${join(dir, doc)}`);
      const temp = await get(await openArray(store, "temp"), null);
      expect(rows(temp.data, temp.shape)).toEqual(expected.temp);
      const counts = await get(await openArray(store, "counts"), null);
      expect(flat(counts.data)).toEqual(expected.counts);
      const grid = await get(await openArray(store, "grid"), null);
      // Chunk (1, 2) of the grid was never written: it has no reference and reads as the fill value.
      expect(rows(grid.data, grid.shape)).toEqual(expected.grid);
      const fsspec = expected[`fsspec:${doc}`] as Record<string, unknown>;
      expect(rows(temp.data, temp.shape)).toEqual(fsspec.temp);
      expect(flat(counts.data)).toEqual(fsspec.counts);
      expect(rows(grid.data, grid.shape).slice(0, 4)).toEqual(fsspec.grid_top);
      expect(rows(grid.data, grid.shape).slice(4).map((r) => r.slice(0, 8))).toEqual(fsspec.grid_bottom_left);
    });

    it("gives attributes, the inline base64 value and a listing", async () => {
      const store = await openStore(`reference+file://${join(dir, doc)}`);
      const root = await open(store);
      expect(root.attributes).toEqual({ title: "refs test" });
      const temp = await openArray(store, "temp");
      expect(temp.attributes).toMatchObject({ units: "K" });
      const keys: string[] = [];
      for await (const k of (store as { list(): AsyncIterable<string> }).list()) keys.push(k);
      expect(keys).toContain("temp/0.0");
      expect(keys.filter((k) => k.startsWith("grid/") && !k.includes("/."))).toHaveLength(5); // 6 chunks, one never written
    });
  });
}

describe.skipIf(missing)("reads", () => {
  it("merge the neighbouring chunks of one file that a read asks for together", async () => {
    const files = new CountingStore(new FileSystemStore(dir));
    const refs = await openReferences(new FileSystemStore(dir), "refs.json", { openTarget: () => files, base: dir });
    const arr = await openArray(refs, "temp");
    files.reset();
    const part = await get(arr, [slice(0, 16), slice(0, 30)]);
    expect(rows(part.data, part.shape)).toEqual(expected.temp.slice(0, 16));
    // 4 chunks of temp, stored one after another in data.nc: one range read.
    expect(files.counts.getRange ?? 0).toBe(1);
    const separate = await openReferences(new FileSystemStore(dir), "refs.json", { openTarget: () => files, base: dir, coalesce: false });
    files.reset();
    await get(await openArray(separate, "temp"), [slice(0, 16), slice(0, 30)]);
    expect(files.counts.getRange ?? 0).toBe(4);
  });

  it("the generated references of refs-v1.json equal the listed ones of refs.json", async () => {
    expect(expected.gen_used).toBe(true);
    const v0 = await openReferences(new FileSystemStore(dir), "refs.json", { openTarget: (f) => new FileSystemStore(f), base: dir });
    const v1 = await openReferences(new FileSystemStore(dir), "refs-v1.json", { openTarget: (f) => new FileSystemStore(f), base: dir });
    for (let i = 0; i < 4; i++) expect(await v1.get(`counts/${i}`)).toEqual(await v0.get(`counts/${i}`));
  });
});

/**
 * The same references as a Parquet reference set, in the layout kerchunk's
 * LazyReferenceMapper writes: `.zmetadata` with the metadata documents and record_size,
 * then `<array>/refs.<n>.parq` with path/offset/size/raw rows in C order of the chunk grid.
 */
function writeParquetSet(refsJson: Record<string, unknown>, out: string, recordSize: number): void {
  const metadata: Record<string, unknown> = {};
  const arrays = new Map<string, { counts: number[]; sep: string }>();
  for (const [key, value] of Object.entries(refsJson)) {
    if (!/(^|\/)\.z(array|attrs|group)$/.test(key)) continue;
    const text = typeof value === "string" && value.startsWith("base64:") ? Buffer.from(value.slice(7), "base64").toString() : (value as string);
    metadata[key] = JSON.parse(text);
    if (key.endsWith("/.zarray")) {
      const z = metadata[key] as { shape: number[]; chunks: number[] };
      arrays.set(key.slice(0, -"/.zarray".length), { counts: z.shape.map((n, d) => Math.ceil(n / z.chunks[d])), sep: "." });
    }
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, ".zmetadata"), JSON.stringify({ metadata, record_size: recordSize }));
  for (const [field, { counts }] of arrays) {
    mkdirSync(join(out, field), { recursive: true });
    const total = counts.reduce((a, b) => a * b, 1);
    for (let record = 0; record * recordSize < total; record++) {
      const path: (string | null)[] = [];
      const offset: bigint[] = [];
      const size: bigint[] = [];
      const raw: (Uint8Array | null)[] = [];
      for (let linear = record * recordSize; linear < Math.min(total, (record + 1) * recordSize); linear++) {
        const coords: number[] = [];
        for (let d = counts.length - 1, n = linear; d >= 0; d--) {
          coords[d] = n % counts[d];
          n = Math.floor(n / counts[d]);
        }
        const ref = refsJson[`${field}/${coords.join(".")}`] as [string, number, number] | undefined;
        path.push(ref === undefined ? null : join(dir, ref[0]));
        offset.push(BigInt(ref?.[1] ?? 0));
        size.push(BigInt(ref?.[2] ?? 0));
        raw.push(null);
      }
      const buffer = parquetWriteBuffer({
        columnData: [
          { name: "path", data: path, type: "STRING" },
          { name: "offset", data: offset, type: "INT64" },
          { name: "size", data: size, type: "INT64" },
          { name: "raw", data: raw, type: "BYTE_ARRAY" },
        ],
      });
      writeFileSync(join(out, field, `refs.${record}.parq`), new Uint8Array(buffer));
    }
  }
}

describe.skipIf(missing)("a Parquet reference set", () => {
  it("reads what its JSON form reads, loading its files as keys in them are asked for", async () => {
    const refsJson = JSON.parse(readFileSync(join(dir, "refs.json"), "utf8"));
    writeParquetSet(refsJson, join(dir, "refs.parq"), 3);
    const files = new CountingStore(new FileSystemStore(dir));
    const store = await openReferences(files, "refs.parq", { openTarget: (f) => new FileSystemStore(f) });
    const temp = await get(await openArray(store, "temp"), null);
    expect(rows(temp.data, temp.shape)).toEqual(expected.temp);
    const grid = await get(await openArray(store, "grid"), null);
    expect(rows(grid.data, grid.shape)).toEqual(expected.grid);
    // Only temp's and grid's files were read, not counts'.
    expect(files.requests.some((r) => r.key.startsWith("refs.parq/counts/"))).toBe(false);
    const counts = await get(await openArray(store, "counts"), null);
    expect(flat(counts.data)).toEqual(expected.counts);
    const keys: string[] = [];
    for await (const k of store.list()) keys.push(k);
    const jsonKeys = Object.keys(refsJson);
    expect(keys.sort()).toEqual(jsonKeys.sort());
    const root = await open(store);
    expect(root.attributes).toEqual({ title: "refs test" });
    // A store that can only read whole values gives each Parquet file whole, read once.
    const plain = new FileSystemStore(dir);
    const wholeOnly = await openReferences({ get: (k, o) => plain.get(k, o) }, "refs.parq", { openTarget: (f) => new FileSystemStore(f) });
    const again = await get(await openArray(wholeOnly, "temp"), null);
    expect(rows(again.data, again.shape)).toEqual(expected.temp);
  });
});
