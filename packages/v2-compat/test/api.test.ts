/** The v2 API in detail: dtypes, fill values, codec chains, paths, writes through @zarr/core's functions. */

import { filterCodecs } from "@zarr/codec-filters";
import {
  children,
  consolidateMetadata,
  createRegistry,
  get,
  MemoryStore,
  open,
  openArray,
  openGroup,
  resize,
  set,
  setAttributes,
  slice,
  toCanonicalJson,
  updateAttributes,
} from "@zarr/core";
import { type CodecEntry, type JsonValue, parseJson, ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  createArrayV2,
  createGroupV2,
  dataTypeToDtype,
  dtypeToDataType,
  normalizeV2Path,
  parseArrayMetadataV2,
  parseDtype,
  parseTypestr,
  v2CodecsToV3,
} from "../src/index.js";
import { fullRegistry } from "./helpers.js";

const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : parseJson(new TextDecoder().decode(b)));

describe("dtypes", () => {
  it("parses type strings and maps them to v3 data types and back", () => {
    const cases: [string, JsonValue, "little" | "big"][] = [
      ["|b1", "bool", "little"],
      ["<i2", "int16", "little"],
      [">u8", "uint64", "big"],
      ["<f2", "float16", "little"],
      [">c16", "complex128", "big"],
      ["<M8[ns]", { name: "numpy.datetime64", configuration: { unit: "ns", scale_factor: 1 } }, "little"],
      [">m8[10s]", { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 10 } }, "big"],
      ["|S7", { name: "null_terminated_bytes", configuration: { length_bytes: 7 } }, "little"],
      [">U5", { name: "fixed_length_utf32", configuration: { length_bytes: 20 } }, "big"],
      ["|V3", "r24", "little"],
    ];
    for (const [typestr, v3, endian] of cases) {
      const d = parseDtype(typestr, ["dtype"]);
      expect(dtypeToDataType(d), typestr).toEqual(v3);
      expect(dataTypeToDtype(v3, endian), typestr).toBe(typestr);
    }
    expect(parseTypestr("int32")).toEqual({ kind: "i", order: "<", itemSize: 4 });
    expect(parseTypestr("<i3")).toBeUndefined();
    expect(parseTypestr("<M8[fortnights]")).toBeUndefined();
    expect(parseTypestr("|O")).toEqual({ kind: "O", order: "|", itemSize: 0 });
  });

  it("maps structured types (sub-arrays, nesting) both ways", () => {
    const descr = [["x", "<f4"], ["z", "<i2", [2, 2]], ["rec", [["a", "|u1"], ["b", "<U2"]]]];
    const v3 = dtypeToDataType(parseDtype(descr, ["dtype"]));
    expect(v3).toEqual({
      name: "struct",
      configuration: {
        fields: [
          { name: "x", data_type: "float32" },
          { name: "z", data_type: "int16", shape: [2, 2] },
          { name: "rec", data_type: { name: "struct", configuration: { fields: [{ name: "a", data_type: "uint8" }, { name: "b", data_type: { name: "fixed_length_utf32", configuration: { length_bytes: 8 } } }] } } },
        ],
      },
    });
    expect(dataTypeToDtype(v3)).toEqual(descr);
    expect(() => parseDtype([["a", "<i4"], ["a", "<f4"]], ["dtype"])).toThrow(/appears twice/);
    expect(() => parseDtype([["a", "|O"]], ["dtype"])).toThrow(/object fields/);
  });

  it("names the document and JSON path of a bad .zarray", () => {
    const doc = { zarr_format: 2, shape: [4], chunks: [2], dtype: "<q9", compressor: null, fill_value: 0, order: "C", filters: null };
    expect(() => parseArrayMetadataV2(doc, { key: "a/.zarray" })).toThrow(/in "a\/.zarray" at \$\.dtype/);
    expect(() => parseArrayMetadataV2({ ...doc, dtype: "<i4", chunks: [0] }, { key: "k" })).toThrow(/\$\.chunks\[0\]/);
    expect(() => parseArrayMetadataV2({ ...doc, dtype: "<i4", order: "X" }, { key: "k" })).toThrow(/\$\.order/);
    expect(() => parseArrayMetadataV2({ ...doc, dtype: "<i4", compressor: { level: 1 } }, { key: "k" })).toThrow(/\$\.compressor\.id/);
  });
});

describe("codec chains", () => {
  it("puts array filters first, the object codec or bytes next, then bytes filters and the compressor", async () => {
    const registry = fullRegistry();
    const chain = await v2CodecsToV3(
      {
        order: "F",
        ndim: 3,
        filters: [{ id: "fixedscaleoffset", offset: 1, scale: 2, dtype: ">f8", astype: ">i2" }, { id: "shuffle", elementsize: 2 }],
        compressor: { id: "blosc", cname: "zstd", clevel: 3, shuffle: -1, blocksize: 0 },
      },
      parseDtype(">f8", ["dtype"]),
      registry,
      "test",
    );
    expect(chain.codecs).toEqual([
      { name: "transpose", configuration: { order: [2, 1, 0] } },
      { name: "numcodecs.fixedscaleoffset", configuration: { offset: 1, scale: 2, dtype: ">f8", astype: ">i2" } },
      { name: "bytes", configuration: { endian: "big" } },
      { name: "numcodecs.shuffle", configuration: { elementsize: 2 } },
      { name: "blosc", configuration: { cname: "zstd", clevel: 3, shuffle: "shuffle", typesize: 2, blocksize: 0 } },
    ]);
    const obj = await v2CodecsToV3({ order: "C", ndim: 1, filters: [{ id: "json2" }], compressor: { id: "zlib", level: 1 } }, parseDtype("|O", []), registry, "t");
    expect(obj.objectType).toBe("object");
    expect(obj.codecs.map((c) => c.name)).toEqual(["numcodecs.json2", "numcodecs.zlib"]);
    await expect(
      v2CodecsToV3({ order: "C", ndim: 1, filters: [{ id: "shuffle" }, { id: "delta", dtype: "<i4" }], compressor: null }, parseDtype("<i4", []), registry, "t"),
    ).rejects.toMatchObject({ code: "UNSUPPORTED" });
  });

  it("makes a compressor the registry knows as array→bytes (zfpy) the serializer", async () => {
    const arrayCompressor: CodecEntry = {
      type: "codec",
      name: "numcodecs.zfpy",
      aliases: ["zfpy"],
      codecKind: "array_to_bytes",
      fromConfig: () => {
        throw new Error("not built here");
      },
    };
    const registry = createRegistry([arrayCompressor, ...filterCodecs]);
    const chain = await v2CodecsToV3(
      { order: "C", ndim: 2, filters: [{ id: "delta", dtype: "<f4" }], compressor: { id: "zfpy", mode: 4, tolerance: 0.01 } },
      parseDtype("<f4", []),
      registry,
      "t",
    );
    expect(chain.codecs).toEqual([
      { name: "numcodecs.delta", configuration: { dtype: "<f4" } },
      { name: "numcodecs.zfpy", configuration: { mode: 4, tolerance: 0.01 } },
    ]);
    // Unregistered, it stays a bytes→bytes compressor (the registry then names the package to install).
    const unknown = await v2CodecsToV3({ order: "C", ndim: 1, filters: null, compressor: { id: "zfpy" } }, parseDtype("<f4", []), createRegistry([]), "t");
    expect(unknown.codecs.map((c) => c.name)).toEqual(["bytes", "numcodecs.zfpy"]);
  });
});

describe("paths", () => {
  it("normalises as the v2 spec says", () => {
    expect(normalizeV2Path("\\foo//bar/")).toBe("foo/bar");
    expect(normalizeV2Path("/a/b")).toBe("a/b");
    expect(normalizeV2Path("")).toBe("");
    expect(() => normalizeV2Path("a/../b")).toThrow(ZarrError);
    expect(() => normalizeV2Path("./a")).toThrow(/segment/);
  });
});

describe("writing v2", () => {
  it("creates every missing ancestor group, refuses arrays as parents and existing nodes", async () => {
    const registry = fullRegistry();
    const store = new MemoryStore();
    const arr = await createArrayV2(store, "a\\b//c", { shape: [3], dtype: "<i4", registry });
    expect(arr.path).toBe("a/b/c");
    for (const k of [".zgroup", "a/.zgroup", "a/b/.zgroup"]) expect(text(store.map.get(k))).toEqual({ zarr_format: 2 });
    expect(text(store.map.get("a/b/c/.zarray"))).toMatchObject({ dtype: "<i4", fill_value: 0, compressor: { id: "blosc", cname: "lz4" } });
    await expect(createGroupV2(store, "a/b/c/d", { registry })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(createArrayV2(store, "a/b/c", { shape: [1], dtype: "<i4", registry })).rejects.toMatchObject({ code: "NODE_EXISTS" });
    const again = await createArrayV2(store, "a/b/c", { shape: [2], dtype: ">f8", registry, overwrite: true });
    expect(again.shape).toEqual([2]);
    await expect(createArrayV2(store, "x", { shape: [2], dtype: "<i4", compressor: { id: "zlib", level: 99 }, registry })).rejects.toBeInstanceOf(
      ZarrError,
    );
    expect(store.map.has("x/.zarray")).toBe(false);
  });

  it("writes attributes, resizes and consolidates through @zarr/core's own functions", async () => {
    const registry = fullRegistry();
    const store = new MemoryStore();
    await createGroupV2(store, "", { attributes: { title: "root" }, registry });
    const arr = await createArrayV2(store, "g/t", { shape: [4, 4], chunks: [2, 2], dtype: "<f4", fillValue: Number.NaN, dimensionNames: ["y", "x"], registry });
    expect(text(store.map.get("g/t/.zarray"))).toMatchObject({ fill_value: "NaN" });
    await set(arr, null, 1.5);
    const updated = await updateAttributes(arr, { units: "K" });
    expect(updated.zarrFormat).toBe(2);
    expect(text(store.map.get("g/t/.zattrs"))).toEqual({ _ARRAY_DIMENSIONS: ["y", "x"], units: "K" });
    expect(store.map.has("g/t/zarr.json")).toBe(false);
    const g = await openGroup(store, "g", { registry });
    await setAttributes(g, { n: 1 });
    expect(text(store.map.get("g/.zattrs"))).toEqual({ n: 1 });
    const bigger = await resize(updated, [4, 6]);
    expect(text(store.map.get("g/t/.zarray"))).toMatchObject({ shape: [4, 6], fill_value: "NaN" });
    expect(bigger.zarrFormat).toBe(2);
    expect((toCanonicalJson(await get(bigger)).values as unknown[]).slice(0, 6)).toEqual([1.5, 1.5, 1.5, 1.5, "NaN", "NaN"]);
    const root = await consolidateMetadata(store, "", { registry });
    expect(root.zarrFormat).toBe(2);
    const zmeta = text(store.map.get(".zmetadata")) as { metadata: Record<string, unknown>; zarr_consolidated_format: number };
    expect(zmeta.zarr_consolidated_format).toBe(1);
    expect(Object.keys(zmeta.metadata).sort()).toEqual([".zattrs", ".zgroup", "g/.zattrs", "g/.zgroup", "g/t/.zarray", "g/t/.zattrs"]);
    // Opening the root now needs only .zmetadata: the children come from it.
    const reads: string[] = [];
    const counting = {
      get: (k: string) => {
        reads.push(k);
        return store.get(k);
      },
    };
    const opened = await openGroup(counting, "", { registry });
    const kids = await children(opened);
    expect(kids.map((k) => k.path)).toEqual(["g"]);
    const t = await openArray(kids[0] as Awaited<ReturnType<typeof openGroup>>, "t", { registry });
    expect(t.shape).toEqual([4, 6]);
    // zarr.json (v3 first), then .zarray, .zgroup, .zattrs and .zmetadata at once: nothing below the root
    expect(reads.sort()).toEqual([".zarray", ".zattrs", ".zgroup", ".zmetadata", "zarr.json"]);
  });

  it("round-trips structured arrays with sub-array and nested fields", async () => {
    const registry = fullRegistry();
    const store = new MemoryStore();
    const dtype = [["id", ">i8"], ["pos", ">f4", [3]], ["tag", [["code", "|S2"], ["ok", "|b1"]]]];
    const arr = await createArrayV2(store, "s", {
      shape: [3], chunks: [2], dtype, registry, fillValue: { id: -1n, pos: [0, 0, 0], tag: { code: new Uint8Array([0x41]), ok: false } },
    });
    expect(typeof (text(store.map.get("s/.zarray")) as { fill_value: unknown }).fill_value).toBe("string"); // base64
    await set(arr, [slice(0, 1)], [{ id: 5n, pos: [1, 2.5, -3], tag: { code: new TextEncoder().encode("xy"), ok: true } }]);
    const again = await openArray(store, "s", { registry });
    expect(toCanonicalJson(await get(again)).values).toEqual([
      { id: "5", pos: [1, 2.5, -3], tag: { code: "7879", ok: true } },
      { id: "-1", pos: [0, 0, 0], tag: { code: "41", ok: false } },
      { id: "-1", pos: [0, 0, 0], tag: { code: "41", ok: false } },
    ]);
  });

  it("round-trips random int/float data in every byte order and memory order (property)", async () => {
    const registry = fullRegistry();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("<i2", ">i2", "<u4", ">u4", "<f8", ">f8", "<i8"),
        fc.constantFrom("C", "F") as fc.Arbitrary<"C" | "F">,
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        async (dtype, order, rows, cols) => {
          const store = new MemoryStore();
          const arr = await createArrayV2(store, "a", { shape: [rows, cols], chunks: [2, 3], dtype, order, registry, compressor: { id: "zlib", level: 1 } });
          const n = rows * cols;
          const data = dtype.endsWith("i8") ? BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 1000003 - 7)) : Array.from({ length: n }, (_, i) => (i * 37) % 251);
          await set(arr, null, data as never);
          const back = await get(await openArray(store, "a", { registry }));
          expect(Array.from(back.data as ArrayLike<unknown>)).toEqual(Array.from(data as ArrayLike<unknown>));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("opening", () => {
  it("still opens Zarr v3 first, and reports a missing node", async () => {
    const registry = fullRegistry();
    const store = new MemoryStore();
    await createArrayV2(store, "a", { shape: [1], dtype: "<i4", registry });
    await store.set("a/zarr.json", new TextEncoder().encode(JSON.stringify({
      zarr_format: 3, node_type: "array", shape: [1], data_type: "int8", chunk_grid: { name: "regular", configuration: { chunk_shape: [1] } },
      chunk_key_encoding: { name: "default" }, fill_value: 0, codecs: ["bytes"],
    })));
    expect((await open(store, "a", { registry })).zarrFormat).toBe(3);
    await expect(open(store, "nothing", { registry })).rejects.toMatchObject({ code: "NODE_NOT_FOUND" });
  });

  it("lists a group's members without asking the store to check child prefixes (each member's documents are read anyway)", async () => {
    const registry = fullRegistry();
    const store = new MemoryStore();
    await createGroupV2(store, "", { registry });
    await createArrayV2(store, "a", { shape: [1], dtype: "<i4", registry });
    await store.set("stray/0", new Uint8Array(1)); // keys, but neither .zarray nor .zgroup: no member
    const listings = vi.spyOn(store, "listDir");
    expect((await children(await openGroup(store, "", { registry }))).map((n) => n.path)).toEqual(["a"]);
    expect(listings.mock.calls).toEqual([["", expect.objectContaining({ uncheckedPrefixes: true })]]);
  });
});
