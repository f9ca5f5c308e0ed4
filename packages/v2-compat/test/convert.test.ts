/** Converting Zarr v2 to v3: metadata only in place, chunk bytes copied otherwise; read back here and by zarrita.js. */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get, MemoryStore, open, openArray, openGroup, set, toCanonicalJson, walk } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { convert, createArrayV2, createGroupV2, type ConvertProgress, v3MetadataOf } from "../src/index.js";
import { fixture, fullRegistry } from "./helpers.js";
import { zarritaCanRead, zarritaRead } from "./zarrita.js";

const tmp = mkdtempSync(join(tmpdir(), "zarr-convert-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const expectedDir = fixture("expected", "v2");
const names = readdirSync(expectedDir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5));
const expected = (name: string) => JSON.parse(readFileSync(join(expectedDir, `${name}.json`), "utf8"));

function copyFixture(name: string): string {
  const dir = join(tmp, name);
  cpSync(fixture("v2", "data.zarr"), dir, { recursive: true });
  return dir;
}

describe("convert (Zarr v2 fixtures)", () => {
  it("into another store: chunk bytes copied unchanged, every array reads the same here and in zarrita.js", async () => {
    const registry = fullRegistry();
    const source = new FileSystemStore(fixture("v2", "data.zarr"), { readOnly: true });
    const targetDir = join(tmp, "copy.zarr");
    const target = new FileSystemStore(targetDir);
    const progress: ConvertProgress[] = [];
    const root = await openGroup(source, "", { registry });
    const result = await convert(root, { target, registry, onProgress: (p) => progress.push(p) });
    expect(result.node.zarrFormat).toBe(3);
    expect(result.node.format).toBeUndefined();
    expect(result.groups).toContain("my group with spaces");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ done: progress.length, total: progress.length });
    let zarritaChecked = 0;
    for (const name of names) {
      const path = name.replace(/__/g, "/");
      const arr = await openArray(target, path, { registry });
      expect(arr.zarrFormat).toBe(3);
      const json = toCanonicalJson(await get(arr));
      expect({ shape: json.shape, values: json.values }, path).toEqual(expected(name));
      // metadata-only: the v2 keys and bytes are the same
      for (const f of readdirSync(fixture("v2", "data.zarr", path))) {
        if (f.startsWith(".")) continue;
        expect(readFileSync(join(targetDir, path, f)).equals(readFileSync(fixture("v2", "data.zarr", path, f))), `${path}/${f}`).toBe(true);
      }
      if (zarritaCanRead(arr.metadata)) {
        const ints = arr.dataType.kind === "int" || arr.dataType.kind === "uint";
        expect(await zarritaRead(target, path, ints), `zarrita ${path}`).toEqual(expected(name));
        zarritaChecked++;
      }
    }
    // everything but fixedscaleoffset (no zarrita codec), S (no v3 type in zarrita) and U (see variableLengthStrings)
    expect(zarritaChecked).toBe(names.length - 6);
    // the json2 object array held only strings: v3 "string"
    const json2 = await openArray(target, "1d.contiguous.json2.O", { registry });
    expect(json2.metadata.data_type.name).toBe("string");
    expect(result.arrays.find((a) => a.path === "1d.contiguous.json2.O")?.note).toContain("only strings");
    // .zmetadata in the source: consolidated v3 metadata in the target
    const converted = await openGroup(target, "", { registry });
    expect(converted.consolidated?.size).toBeGreaterThan(30);
  });

  it("with variableLengthStrings, fixed-length Unicode is rewritten as string + vlen-utf8 (zarrita.js reads it)", async () => {
    const registry = fullRegistry();
    const source = new FileSystemStore(fixture("v2", "data.zarr"), { readOnly: true });
    const target = new FileSystemStore(join(tmp, "strings.zarr"));
    for (const name of ["1d.contiguous.U13.be", "2d.chunked.U7", "1d.contiguous.U7"]) {
      const src = await openArray(source, name, { registry });
      const { arrays } = await convert(src, { target, path: name, registry, variableLengthStrings: true });
      expect(arrays[0].chunks).toBe("rewritten");
      const arr = await openArray(target, name, { registry });
      expect(arr.metadata.data_type.name).toBe("string");
      expect(toCanonicalJson(await get(arr)).values).toEqual(expected(name).values);
      expect(await zarritaRead(target, name, false)).toEqual(expected(name));
    }
  });

  it("in place: v3 documents replace the v2 ones, chunks stay untouched", async () => {
    const registry = fullRegistry();
    const dir = copyFixture("inplace.zarr");
    const store = new FileSystemStore(dir);
    const before = readFileSync(join(dir, "2d.chunked.i2", "1.0"));
    const root = await openGroup(store, "", { registry });
    const { node, arrays } = await convert(root, { inPlace: true, registry });
    expect(node.zarrFormat).toBe(3);
    expect(arrays.every((a) => a.chunks === "kept")).toBe(true);
    expect(existsSync(join(dir, ".zgroup"))).toBe(false);
    expect(existsSync(join(dir, ".zmetadata"))).toBe(false);
    expect(existsSync(join(dir, "2d.chunked.i2", ".zarray"))).toBe(false);
    expect(existsSync(join(dir, "2d.chunked.i2", "zarr.json"))).toBe(true);
    expect(readFileSync(join(dir, "2d.chunked.i2", "1.0")).equals(before)).toBe(true);
    const reopened = await openGroup(store, "", { registry });
    expect(reopened.zarrFormat).toBe(3);
    expect(reopened.attributes).toEqual({ answer: 42 });
    let count = 0;
    for await (const n of walk(reopened)) {
      if (n.kind !== "array") continue;
      count++;
      const json = toCanonicalJson(await get(n));
      expect({ shape: json.shape, values: json.values }).toEqual(expected(n.path.replace(/\//g, "__")));
    }
    expect(count).toBe(names.length);
  });

  it("stops with ABORTED when its signal is aborted, and refuses nodes that are already v3", async () => {
    const registry = fullRegistry();
    const source = new FileSystemStore(fixture("v2", "data.zarr"), { readOnly: true });
    const root = await openGroup(source, "", { registry });
    const controller = new AbortController();
    const run = convert(root, {
      target: new MemoryStore(),
      registry,
      concurrency: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 3) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    const v3 = new MemoryStore();
    await convert(await openArray(source, "1d.contiguous.i4", { registry }), { target: v3, registry });
    await expect(convert(await open(v3, "", { registry }), { target: new MemoryStore() })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(convert(root, {})).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});

describe("convert (written by this library)", () => {
  it("keeps attributes, maps _ARRAY_DIMENSIONS to dimension names, and keeps object arrays of other values as `object`", async () => {
    const registry = fullRegistry();
    const store = new MemoryStore();
    await createGroupV2(store, "g", { attributes: { title: "t" }, registry });
    const a = await createArrayV2(store, "g/a", {
      shape: [4, 3], chunks: [2, 2], dtype: ">u2", order: "F", dimensionNames: ["y", "x"], attributes: { _CRS: { url: "x" } },
      compressor: { id: "zstd", level: 1 }, registry,
    });
    await set(a, null, new Uint16Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    const o = await createArrayV2(store, "g/o", { shape: [3], chunks: [2], dataType: "object", registry });
    await set(o, null, [{ a: 1 }, [1, 2], null]);
    const target = new MemoryStore();
    const { arrays } = await convert(await openGroup(store, "g", { registry }), { target, path: "out", registry });
    expect(arrays.find((x) => x.path === "out/o")?.note).toContain("object");
    const conv = await openArray(target, "out/a", { registry });
    expect(conv.dimensionNames).toEqual(["y", "x"]);
    // fill_value 0 (the default) is what xarray masks in v2, so it becomes xarray's v3 _FillValue attribute
    expect(conv.attributes).toEqual({ _CRS: { url: "x" }, _ARRAY_DIMENSIONS: ["y", "x"], _FillValue: 0 });
    expect(conv.metadata.codecs.map((c) => c.name)).toEqual(["transpose", "bytes", "zstd"]);
    expect(Array.from((await get(conv)).data as Uint16Array)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect((await openGroup(target, "out", { registry })).attributes).toEqual({ title: "t" });
    expect((await get(await openArray(target, "out/o", { registry }))).data).toEqual([{ a: 1 }, [1, 2], null]);
    const meta = await v3MetadataOf(a);
    expect(meta).toMatchObject({ node_type: "array", data_type: { name: "uint16" }, chunk_key_encoding: { name: "v2" } });
  });
});
