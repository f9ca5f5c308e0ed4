/**
 * `DataTypeMap` (what `get` is typed to return for each data type name) against what the
 * data types really allocate and read. The table below is keyed by every name of the map
 * (a name missing here, or a storage class that does not build the mapped array type,
 * does not compile); the tests check each class and element kind at run time. Also: the
 * `is` guard, `openArray`'s `dataType` check, and `createArray`'s typed result.
 */
import { vlenUtf8 } from "@zarr/codec-vlen";
import { describe, expect, it } from "vitest";
import { optionalEntries } from "../src/extensions.js";
import {
  createArray,
  createRegistry,
  type DataArray,
  type DataTypeMap,
  defaultRegistry,
  type ExtensionLike,
  get,
  MemoryStore,
  openArray,
  set,
  ZarrError,
} from "../src/index.js";

/** Builds exactly the mapped storage array (checked by the compiler). */
type Storage<A> = abstract new (...args: never[]) => A;

interface Expected<A> {
  /** The data type as metadata names it (configuration where it needs one). */
  dataType: ExtensionLike;
  storage: Storage<A>;
  /** True for an element as `dataType.getItem` reads it. */
  item: (value: unknown) => boolean;
}

const number = (v: unknown) => typeof v === "number";
const bigint = (v: unknown) => typeof v === "bigint";
const string = (v: unknown) => typeof v === "string";
const bytes = (v: unknown) => v instanceof Uint8Array;
const complex = (v: unknown) => Array.isArray(v) && v.length === 2 && v.every(number);
const record = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
const seconds = { unit: "s", scale_factor: 1 };

const withOptional = defaultRegistry.extend(...optionalEntries);

const expected: { [N in keyof DataTypeMap]: Expected<DataTypeMap[N]["array"]> } = {
  bool: { dataType: "bool", storage: Uint8Array, item: (v) => typeof v === "boolean" },
  int8: { dataType: "int8", storage: Int8Array, item: number },
  int16: { dataType: "int16", storage: Int16Array, item: number },
  int32: { dataType: "int32", storage: Int32Array, item: number },
  int64: { dataType: "int64", storage: BigInt64Array, item: bigint },
  uint8: { dataType: "uint8", storage: Uint8Array, item: number },
  uint16: { dataType: "uint16", storage: Uint16Array, item: number },
  uint32: { dataType: "uint32", storage: Uint32Array, item: number },
  uint64: { dataType: "uint64", storage: BigUint64Array, item: bigint },
  float16: { dataType: "float16", storage: Float32Array, item: number },
  float32: { dataType: "float32", storage: Float32Array, item: number },
  float64: { dataType: "float64", storage: Float64Array, item: number },
  complex64: { dataType: "complex64", storage: Float32Array, item: complex },
  complex128: { dataType: "complex128", storage: Float64Array, item: complex },
  string: { dataType: "string", storage: Array<string>, item: string },
  bytes: { dataType: "bytes", storage: Array<Uint8Array>, item: bytes },
  variable_length_bytes: { dataType: "variable_length_bytes", storage: Array<Uint8Array>, item: bytes },
  fixed_length_utf32: { dataType: { name: "fixed_length_utf32", configuration: { length_bytes: 8 } }, storage: Array<string>, item: string },
  "numpy.datetime64": { dataType: { name: "numpy.datetime64", configuration: seconds }, storage: BigInt64Array, item: bigint },
  datetime64: { dataType: { name: "datetime64", configuration: seconds }, storage: BigInt64Array, item: bigint },
  "numpy.timedelta64": { dataType: { name: "numpy.timedelta64", configuration: seconds }, storage: BigInt64Array, item: bigint },
  timedelta64: { dataType: { name: "timedelta64", configuration: seconds }, storage: BigInt64Array, item: bigint },
  struct: { dataType: { name: "struct", configuration: { fields: [{ name: "x", data_type: "float32" }] } }, storage: Array, item: record },
  structured: { dataType: { name: "structured", configuration: { fields: [{ name: "x", data_type: "int8" }] } }, storage: Array, item: record },
  null_terminated_bytes: { dataType: { name: "null_terminated_bytes", configuration: { length_bytes: 4 } }, storage: Uint8Array, item: bytes },
  object: { dataType: "object", storage: Array, item: () => true },
  optional: { dataType: { name: "optional", configuration: { name: "float32" } }, storage: Array, item: (v) => v === null },
};

/**
 * Elements as `set` is typed to accept them (`DataTypeMap[N]["input"]`), one of each kind
 * the type names (a sample outside the input type does not compile); each must convert.
 * `optional`'s input is any inner type's: the samples are those of its float32 inner type.
 */
const inputs: { [N in keyof DataTypeMap]: DataTypeMap[N]["input"][] } = {
  bool: [true, false, 0, 1],
  int8: [-1, 1n],
  int16: [-1, 1n],
  int32: [-1, 1n],
  int64: [-1n, 1],
  uint8: [1, 1n],
  uint16: [1, 1n],
  uint32: [1, 1n],
  uint64: [1n, 1],
  float16: [1.5, 1n],
  float32: [1.5, 1n],
  float64: [1.5, 1n],
  complex64: [[1, -1], 2],
  complex128: [[1, -1], 2],
  string: ["a"],
  bytes: [new Uint8Array([1])],
  variable_length_bytes: [new Uint8Array([1])],
  fixed_length_utf32: ["ab"],
  "numpy.datetime64": [1n, 1, "NaT"],
  datetime64: [1n, 1, "NaT"],
  "numpy.timedelta64": [1n, 1, "NaT"],
  timedelta64: [1n, 1, "NaT"],
  struct: [{ x: 1.5 }],
  structured: [{ x: -1 }],
  null_terminated_bytes: [new Uint8Array([1]), "ab"],
  object: [1, "a", null, { a: [1] }],
  optional: [1.5, 1n, null],
};

/** The resolved data type `e` names (`optional` is registered by `optionalEntries`). */
async function resolve(e: ExtensionLike) {
  const { name, configuration = {} } = typeof e === "string" ? { name: e } : e;
  const entry = await withOptional.dataType(name);
  return entry.fromConfig(name, configuration as never, ["data_type"]);
}

describe("DataTypeMap matches the data types", () => {
  for (const [name, want] of Object.entries(expected) as [string, Expected<DataArray>][]) {
    it(`${name}: storage ${want.storage.name}`, async () => {
      const dataType = await resolve(want.dataType);
      expect(dataType.name).toBe(name);
      const data = dataType.allocate(2);
      expect(data.constructor).toBe(want.storage);
      expect(want.item(dataType.getItem(data, 1))).toBe(true);
    });
  }
  for (const [name, samples] of Object.entries(inputs) as [keyof DataTypeMap, unknown[]][]) {
    it(`${name}: converts every kind of element set accepts`, async () => {
      const dataType = await resolve(expected[name].dataType);
      for (const sample of samples) expect(() => dataType.coerce(sample)).not.toThrow();
    });
  }
  it("r<N>: a Uint8Array of N/8 bytes per element, read as Uint8Array", async () => {
    const dataType = await resolve("r16");
    const data = dataType.allocate(2);
    expect(data).toBeInstanceOf(Uint8Array);
    expect(data.length).toBe(4);
    expect(bytes(dataType.getItem(data, 1))).toBe(true);
  });
  it("get returns what the data type allocates (bool: 0/1 bytes, string: string[])", async () => {
    const store = new MemoryStore();
    const flags = await createArray(store, "b", { shape: [2], dataType: "bool" });
    await set(flags, null, [true, false]);
    const got = await get(flags);
    expect(got.data).toBeInstanceOf(Uint8Array);
    expect([...got.data]).toEqual([1, 0]);
    const registry = createRegistry([vlenUtf8]);
    const names = await createArray(store, "s", { shape: [2], dataType: "string", codecs: [{ name: "vlen-utf8" }], registry });
    await set(names, null, ["a", "b"]);
    expect((await get(names)).data).toEqual(["a", "b"]);
  });
});

describe("narrowing by data type", () => {
  it("is() compares names, aliases included", async () => {
    const store = new MemoryStore();
    await createArray(store, "t", { shape: [1], dataType: { name: "datetime64", configuration: seconds } });
    const time = await openArray(store, "t");
    expect(time.dataType.name).toBe("datetime64");
    expect(time.is("numpy.datetime64")).toBe(true);
    expect(time.is("datetime64")).toBe(true);
    expect(time.is("numpy.timedelta64")).toBe(false);
    const f = await openArray(store, "t");
    expect(f.is("float32")).toBe(false);
  });

  it("openArray with dataType returns the array when it matches, INVALID_ARGUMENT naming both types when not", async () => {
    const store = new MemoryStore();
    await createArray(store, "t2m", { shape: [2], dataType: "float32" });
    const t2m = await openArray(store, "t2m", { dataType: "float32" });
    expect((await get(t2m)).data).toBeInstanceOf(Float32Array);
    const error = await openArray(store, "t2m", { dataType: "int16" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe("INVALID_ARGUMENT");
    expect((error as ZarrError).message).toBe('"t2m" has data type float32, not int16 (options.dataType)');
    expect((error as ZarrError).key).toBe("t2m/zarr.json");
  });

  it("openArray with dataType still rejects a group with NODE_NOT_FOUND", async () => {
    const store = new MemoryStore();
    await createArray(store, "g/a", { shape: [1], dataType: "int8" });
    await expect(openArray(store, "g", { dataType: "int8" })).rejects.toMatchObject({ code: "NODE_NOT_FOUND" });
  });
});

describe("options with undefined-valued properties", () => {
  it("are left out of the stored metadata (codec configuration, attributes)", async () => {
    const store = new MemoryStore();
    const cfg: { level?: number; title?: string } = {};
    const arr = await createArray(store, "z", {
      shape: [4],
      dataType: "float32",
      codecs: [{ name: "transpose", configuration: { order: [0], unused: cfg.level } }, { name: "bytes" }],
      attributes: { title: cfg.title, nested: { a: 1, b: cfg.title } },
    });
    expect(arr.metadata.attributes).toEqual({ nested: { a: 1 } });
    expect(Object.keys(arr.metadata.attributes)).toEqual(["nested"]);
    expect(Object.keys(arr.metadata.attributes.nested as object)).toEqual(["a"]);
    const doc = JSON.parse(new TextDecoder().decode(await store.get("z/zarr.json")));
    expect(doc.attributes).toEqual({ nested: { a: 1 } });
    expect(doc.codecs[0]).toEqual({ name: "transpose", configuration: { order: [0] } });
  });
});
