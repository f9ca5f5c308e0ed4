/**
 * Interop with zarr-python 2.13 both ways over a broad matrix: every dtype in both byte
 * orders and memory orders, every compressor (blosc: every inner compressor × shuffle),
 * every filter, object arrays, fill values, nested keys, 0-d, 5-d, a hierarchy with
 * attributes and consolidated metadata.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get, open, openArray, openGroup, toCanonicalJson, walk } from "@zarr/core";
import { type JsonObject, parseJson } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { type ArrayMetadataV2, convert, createArrayV2, createGroupV2 } from "../src/index.js";
import { fullRegistry, pythonScript } from "./helpers.js";
import { zarritaCanRead, zarritaRead } from "./zarrita.js";

const tmp = mkdtempSync(join(tmpdir(), "zarr-v2-matrix-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Matrix {
  arrays: Record<string, { shape: number[]; values: unknown[] }>;
  attributes: Record<string, JsonObject>;
}

const pyStore = join(tmp, "python.zarr");
const jsStore = join(tmp, "js.zarr");
let matrix: Matrix | undefined;
/** Writes the matrix with zarr-python once, lazily (inside the first test that needs it). */
function pythonMatrix(): Matrix {
  matrix ??= JSON.parse(pythonScript("write_v2_matrix.py", [pyStore])) as Matrix;
  return matrix;
}

describe("zarr-python 2.13 → @zarr/v2-compat", () => {
  it("reads every array of the matrix exactly, with its attributes", async () => {
    requirePythonZarr();
    const m = pythonMatrix();
    const store = new FileSystemStore(pyStore, { readOnly: true });
    const registry = fullRegistry();
    const failures: string[] = [];
    for (const [path, expected] of Object.entries(m.arrays)) {
      try {
        const arr = await openArray(store, path, { registry });
        expect(arr.zarrFormat).toBe(2);
        const got = toCanonicalJson(await get(arr));
        expect({ shape: got.shape, values: got.values }, path).toEqual(expected);
        expect(arr.attributes, path).toEqual(m.attributes[path]);
      } catch (error) {
        failures.push(`${path}: ${(error as Error).message.slice(0, 400)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(Object.keys(m.arrays).length).toBeGreaterThan(130);
  });

  it("lists the hierarchy (from .zmetadata, and by listing) with the group attributes", async () => {
    requirePythonZarr();
    const m = pythonMatrix();
    const fs = new FileSystemStore(pyStore, { readOnly: true });
    // The same store without its .zmetadata: everything is found by listing.
    const hidden = {
      get: (key: string) => (key.endsWith(".zmetadata") ? Promise.resolve(undefined) : fs.get(key)),
      list: () => fs.list(),
      listPrefix: (prefix: string) => fs.listPrefix(prefix),
      listDir: (prefix: string) => fs.listDir(prefix),
    };
    const registry = fullRegistry();
    for (const [store, consolidated] of [
      [fs, true],
      [hidden, false],
    ] as const) {
      const root = await openGroup(store, "", { registry });
      expect(root.zarrFormat).toBe(2);
      expect(root.consolidated !== undefined).toBe(consolidated);
      expect(root.attributes).toEqual(m.attributes[""]);
      const seen = new Map<string, unknown>();
      for await (const n of walk(root)) seen.set(n.path, n.kind === "group" ? n.attributes : "array");
      for (const path of Object.keys(m.arrays)) expect(seen.get(path), path).toBe("array");
      for (const g of ["hierarchy", "hierarchy/a", "hierarchy/a/b", "hierarchy/empty"]) expect(seen.get(g), g).toEqual(m.attributes[g]);
      const arr = await openArray(root, "hierarchy/a/b/arr", { registry });
      expect(arr.dimensionNames).toEqual(["y", "x"]);
      expect(arr.attributes._ARRAY_DIMENSIONS).toEqual(["y", "x"]);
      expect(toCanonicalJson(await get(arr)).values).toEqual(m.arrays["hierarchy/a/b/arr"].values);
    }
  });
});

describe("@zarr/v2-compat → zarr-python 2.13", () => {
  it("writes the same matrix, which zarr-python reads back identically", async () => {
    requirePythonZarr();
    const m = pythonMatrix();
    const source = new FileSystemStore(pyStore, { readOnly: true });
    const target = new FileSystemStore(jsStore);
    const registry = fullRegistry();
    await createGroupV2(target, "", { attributes: m.attributes[""], registry });
    for (const path of Object.keys(m.arrays)) {
      // Same parameters as zarr-python chose, values read through this library.
      const doc = parseJson(await source.get(`${path}/.zarray`).then((b) => new TextDecoder().decode(b))) as unknown as ArrayMetadataV2;
      const src = await openArray(source, path, { registry });
      const dst = await createArrayV2(target, path, {
        shape: doc.shape,
        chunks: doc.chunks,
        dtype: doc.dtype,
        compressor: doc.compressor,
        filters: doc.filters,
        order: doc.order,
        ...(doc.dimension_separator === undefined ? {} : { dimensionSeparator: doc.dimension_separator }),
        // object arrays: the fill value as written (v2 allows any JSON there)
        fillValue: doc.fill_value === null ? null : doc.dtype === "|O" ? doc.fill_value : src.fillValue,
        attributes: m.attributes[path],
        registry,
      });
      const values = await get(src);
      const { set } = await import("@zarr/core");
      await set(dst, null, { data: values.data, shape: values.shape });
    }
    const report = JSON.parse(pythonScript("check_v2.py", [jsStore, pyStore], JSON.stringify(m))) as { mismatches: string[]; checked: number };
    expect(report.mismatches).toEqual([]);
    expect(report.checked).toBe(Object.keys(m.arrays).length);
    const root = await open(target, "", { registry });
    expect(root.zarrFormat).toBe(2);
  });
});

describe("Zarr v2 → v3", () => {
  it("converts the whole matrix; every array reads the same here, and in zarrita.js where it can", async () => {
    requirePythonZarr();
    const m = pythonMatrix();
    const registry = fullRegistry();
    const source = new FileSystemStore(pyStore, { readOnly: true });
    const target = new FileSystemStore(join(tmp, "v3.zarr"));
    const { arrays } = await convert(await openGroup(source, "", { registry }), { target, registry });
    expect(arrays.length).toBe(Object.keys(m.arrays).length);
    let zarrita = 0;
    const failures: string[] = [];
    for (const [path, expected] of Object.entries(m.arrays)) {
      const arr = await openArray(target, path, { registry });
      expect(arr.zarrFormat).toBe(3);
      const got = toCanonicalJson(await get(arr));
      expect({ shape: got.shape, values: got.values }, path).toEqual(expected);
      // Arrays written the xarray way (with _ARRAY_DIMENSIONS) gain xarray's v3 _FillValue attribute.
      const { _FillValue, ...attributes } = arr.attributes;
      expect(attributes, path).toEqual(m.attributes[path]);
      if (_FillValue !== undefined) expect(m.attributes[path]._ARRAY_DIMENSIONS, path).toBeDefined();
      if (path === "hierarchy/a/b/arr") expect(_FillValue).toBe(-1);
      if (zarritaCanRead(arr.metadata) && arr.dataType.name !== "float16") {
        const ints = arr.dataType.kind === "int" || arr.dataType.kind === "uint";
        try {
          expect(await zarritaRead(target, path, ints), path).toEqual(expected);
          zarrita++;
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(zarrita).toBeGreaterThan(60);
  });
});

