/**
 * The "format" extension point: registry entries that read nodes of other layouts when a
 * path has no (valid) zarr.json, and the per-node hooks writes go through.
 */
import { describe, expect, it } from "vitest";
import {
  type ArrayMetadata,
  type ChunkKeyEncoding,
  children,
  consolidateMetadata,
  createArray,
  createGroup,
  createRegistry,
  type FormatEntry,
  get,
  type JsonObject,
  listChildren,
  MemoryStore,
  type NodeEntry,
  type NodeFormat,
  open,
  openArray,
  openGroup,
  resize,
  type Store,
  set,
  setAttributes,
  updateAttributes,
  walk,
  ZarrGroup,
} from "../src/index.js";

/**
 * A toy layout: `<path>/.toy` holds `{"kind", "shape"?, "attrs"}`; arrays are uint8 with
 * chunks of 2 under `toydata/<path>/k<i>_<j>`.
 */
const enc = new TextEncoder();
const dec = new TextDecoder();
const docKey = (path: string) => (path === "" ? ".toy" : `${path}/.toy`);

class ToyKeys implements ChunkKeyEncoding {
  readonly name = "toy";
  encode(coords: readonly number[]): string {
    return `k${coords.join("_")}`;
  }
  decode(key: string, ndim: number): number[] | undefined {
    const parts = key.slice(1).split("_");
    return key.startsWith("k") && parts.length === ndim ? parts.map(Number) : undefined;
  }
  toJSON() {
    return { name: "toy", configuration: {} };
  }
}

interface ToyLog {
  attrs: string[];
  shapes: string[];
  consolidated: string[];
}

function toyFormat(log: ToyLog, hooks = true): NodeFormat {
  const format: NodeFormat = {
    name: "toy",
    zarrFormat: 2,
    writeEmptyChunks: true,
    metadataKey: (path) => docKey(path),
    chunkPrefix: (path) => `toydata/${path}/`,
    chunkKeyEncoding: () => new ToyKeys(),
    listChildren: async (group) => {
      const out: NodeEntry[] = [];
      for (const name of ["x", "y", "g"]) {
        const entry = await readToy(group.store, group.path === "" ? name : `${group.path}/${name}`, format);
        if (entry !== undefined) out.push(entry);
      }
      return out;
    },
  };
  if (!hooks) return format;
  return {
    ...format,
    writeAttributes: async (node, attributes) => {
      log.attrs.push(`${node.path}:${JSON.stringify(attributes)}`);
    },
    writeArrayMetadata: async (array, metadata) => {
      log.shapes.push(`${array.path}:${metadata.shape.join("x")}`);
    },
    consolidate: async (group) => {
      log.consolidated.push(group.path);
      return { ...((await readToy(group.store, group.path, format)) as NodeEntry), consolidated: new Map() };
    },
  };
}

async function readToy(store: Store, path: string, format: NodeFormat): Promise<NodeEntry | undefined> {
  const bytes = await store.get(docKey(path));
  if (bytes === undefined) return undefined;
  const doc = JSON.parse(dec.decode(bytes)) as { kind: "array" | "group"; shape?: number[]; attrs: JsonObject };
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (doc.kind === "group") {
    return { path, name, kind: "group", implicit: false, format, metadata: { zarr_format: 3, node_type: "group", attributes: doc.attrs } };
  }
  const metadata: ArrayMetadata = {
    zarr_format: 3,
    node_type: "array",
    shape: doc.shape ?? [],
    data_type: { name: "uint8", configuration: {} },
    chunk_grid: { name: "regular", configuration: { chunk_shape: (doc.shape ?? []).map(() => 2) } },
    chunk_key_encoding: { name: "default", configuration: {} },
    fill_value: 7,
    codecs: [{ name: "bytes", configuration: {} }],
    attributes: doc.attrs,
    storage_transformers: [],
  };
  return { path, name, kind: "array", implicit: false, format, metadata };
}

function toyEntry(format: NodeFormat, reads: string[] = []): FormatEntry {
  return {
    type: "format",
    name: "toy",
    read: async (store, path) => {
      reads.push(path);
      return readToy(store, path, format);
    },
  };
}

function toyStore(): MemoryStore {
  const store = new MemoryStore();
  const put = (k: string, v: unknown) => store.map.set(k, enc.encode(JSON.stringify(v)));
  put(".toy", { kind: "group", attrs: { root: true } });
  put("x/.toy", { kind: "array", shape: [3, 3], attrs: { a: 1 } });
  put("g/.toy", { kind: "group", attrs: { g: 1 } });
  put("g/y/.toy", { kind: "array", shape: [4], attrs: {} });
  store.map.set("toydata/x/k0_0", new Uint8Array([1, 2, 3, 4]));
  store.map.set("toydata/x/k1_1", new Uint8Array([9, 9, 9, 9]));
  return store;
}

const newLog = (): ToyLog => ({ attrs: [], shapes: [], consolidated: [] });

describe("format entries", () => {
  it("are asked for paths without zarr.json, and nodes read through them carry their format", async () => {
    const log = newLog();
    const format = toyFormat(log);
    const registry = createRegistry([toyEntry(format)]);
    const store = toyStore();
    const root = await openGroup(store, "", { registry });
    expect(root.format).toBe(format);
    expect(root.zarrFormat).toBe(2);
    expect(root.attributes).toEqual({ root: true });
    const x = await openArray(root, "x");
    expect(x.format).toBe(format);
    expect(x.zarrFormat).toBe(2);
    expect(x.config.writeEmptyChunks).toBe(true);
    expect(x.chunkKey([1, 0])).toBe("toydata/x/k1_0");
    expect(Array.from((await get(x)).data as Uint8Array)).toEqual([1, 2, 7, 3, 4, 7, 7, 7, 9]);
    await set(x, [2, 0], 5);
    expect(Array.from(store.map.get("toydata/x/k1_0") as Uint8Array)).toEqual([5, 7, 7, 7]);
  });

  it("come after Zarr v3, and take over a zarr.json that is not v3 (or else its error stands)", async () => {
    const format = toyFormat(newLog());
    const store = toyStore();
    const v3 = new MemoryStore();
    await createArray(v3, "x", { shape: [1], dataType: "int8" });
    store.map.set("x/zarr.json", v3.map.get("x/zarr.json") as Uint8Array);
    const registry = createRegistry([toyEntry(format)]);
    expect((await open(store, "x", { registry })).format).toBeUndefined();
    store.map.set("zarr.json", enc.encode(JSON.stringify({ zarr_format: "https://example.org/zarr/3.0" })));
    expect((await open(store, "", { registry })).format).toBe(format);
    store.map.delete(".toy");
    await expect(open(store, "", { registry })).rejects.toMatchObject({ code: "METADATA_INVALID" });
    await expect(open(toyStore(), "", {})).resolves.toMatchObject({ implicit: true }); // no format registered
  });

  it("load lazily, once", async () => {
    const format = toyFormat(newLog());
    let loads = 0;
    const registry = createRegistry([
      {
        type: "format",
        name: "toy",
        lazy: true,
        load: async () => {
          loads++;
          return toyEntry(format);
        },
      },
    ]);
    await openGroup(toyStore(), "", { registry });
    await openArray(toyStore(), "x", { registry });
    expect(loads).toBe(1);
    expect((await registry.formats()).map((f) => f.name)).toEqual(["toy"]);
    const failing = createRegistry([{ type: "format", name: "broken", lazy: true, package: "@x/y", load: () => Promise.reject(new Error("no")) }]);
    await expect(open(toyStore(), "", { registry: failing })).rejects.toMatchObject({ code: "UNSUPPORTED" });
  });

  it("list children through the format's hook, and v3 groups ask formats about children without zarr.json", async () => {
    const format = toyFormat(newLog());
    const registry = createRegistry([toyEntry(format)]);
    const store = toyStore();
    const root = await openGroup(store, "", { registry });
    expect((await listChildren(root)).map((e) => `${e.kind}:${e.path}`)).toEqual(["array:x", "group:g"]);
    const paths: string[] = [];
    for await (const n of walk(root)) paths.push(`${n.path}:${n.format?.name}`);
    expect(paths).toEqual(["x:toy", "g:toy", "g/y:toy"]);
    // a v3 root whose children are toy nodes
    const mixed = toyStore();
    mixed.map.delete(".toy");
    await mixed.set("zarr.json", enc.encode(JSON.stringify({ zarr_format: 3, node_type: "group", attributes: {} })));
    const v3root = await openGroup(mixed, "", { registry });
    expect((await children(v3root)).map((n) => `${n.path}:${n.kind}:${n.format?.name}`)).toEqual([
      "g:group:toy",
      "toydata:group:undefined", // an implicit v3 group: keys, but neither zarr.json nor a toy document
      "x:array:toy",
    ]);
  });

  it("route setAttributes, updateAttributes, resize and consolidateMetadata to the node's hooks", async () => {
    const log = newLog();
    const registry = createRegistry([toyEntry(toyFormat(log))]);
    const store = toyStore();
    const x = await openArray(store, "x", { registry });
    const x2 = await updateAttributes(x, { b: 2 });
    expect(x2.attributes).toEqual({ a: 1, b: 2 });
    expect(x2.format).toBe(x.format);
    expect(x2.zarrFormat).toBe(2);
    const g = await setAttributes(await openGroup(store, "g", { registry }), { z: 0 });
    expect(g.format?.name).toBe("toy");
    expect(log.attrs).toEqual(['x:{"a":1,"b":2}', 'g:{"z":0}']);
    const smaller = await resize(x2, [2, 2]);
    expect(log.shapes).toEqual(["x:2x2"]);
    expect(smaller.format).toBe(x.format);
    expect(store.map.has("toydata/x/k1_1")).toBe(true); // resize lists nodePrefix chunks; toy chunks live elsewhere
    expect(store.keys().some((k) => k.endsWith("zarr.json"))).toBe(false);
    const c = await consolidateMetadata(store, "", { registry });
    expect(c).toBeInstanceOf(ZarrGroup);
    expect(c.format?.name).toBe("toy");
    expect(c.attributes).toEqual({ root: true });
    expect(c.consolidated).toEqual(new Map());
    expect(log.consolidated).toEqual([""]);
  });

  it("make writes UNSUPPORTED when the format has no hook for them", async () => {
    const registry = createRegistry([toyEntry(toyFormat(newLog(), false))]);
    const store = toyStore();
    const x = await openArray(store, "x", { registry });
    await expect(setAttributes(x, {})).rejects.toMatchObject({ code: "UNSUPPORTED" });
    await expect(resize(x, [1, 1])).rejects.toMatchObject({ code: "UNSUPPORTED" });
    expect(store.map.has("toydata/x/k1_1")).toBe(true); // refused before anything was deleted
    await expect(consolidateMetadata(store, "", { registry })).rejects.toMatchObject({ code: "UNSUPPORTED" });
  });
});

describe("creating nodes through a format (zarrFormat: 2)", () => {
  /** The toy format, also writing: `createGroup`/`createArray` with zarrFormat 2 land here. */
  function writingToy(format: NodeFormat, calls: Array<{ path: string; options: Record<string, unknown> }>): FormatEntry {
    return {
      ...toyEntry(format),
      zarrFormat: 2,
      createGroup: async (store, path, options) => {
        calls.push({ path, options: { ...options } });
        await store.set?.(docKey(path), enc.encode(JSON.stringify({ kind: "group", attrs: options.attributes ?? {} })));
        return (await readToy(store, path, format)) as NodeEntry;
      },
      createArray: async (store, path, options) => {
        calls.push({ path, options: { ...options } });
        await store.set?.(docKey(path), enc.encode(JSON.stringify({ kind: "array", shape: options.shape, attrs: options.attributes ?? {} })));
        return (await readToy(store, path, format)) as NodeEntry;
      },
    };
  }

  it("hand over to the registry's format of that version, and open what it wrote", async () => {
    const format = toyFormat(newLog());
    const calls: Array<{ path: string; options: Record<string, unknown> }> = [];
    const registry = createRegistry([writingToy(format, calls)]);
    const store = new MemoryStore();
    const g = await createGroup(store, "g", { zarrFormat: 2, attributes: { t: 1 }, registry });
    expect(g).toBeInstanceOf(ZarrGroup);
    expect(g.format).toBe(format);
    expect(g.zarrFormat).toBe(2);
    expect(g.attributes).toEqual({ t: 1 });
    const x = await createArray(store, "g/x", { zarrFormat: 2, shape: [3, 3], dataType: "uint8", compressor: null, registry, writeEmptyChunks: false });
    expect(x.format).toBe(format);
    expect(x.zarrFormat).toBe(2);
    expect(x.config.writeEmptyChunks).toBe(false); // the caller's choice over the format's default
    expect(calls.map((c) => c.path)).toEqual(["g", "g/x"]);
    expect(calls[1].options).toEqual({ shape: [3, 3], dataType: "uint8", compressor: null, registry });
    await set(x, [0, 0], 1);
    expect(Array.from((await get(await openArray(store, "g/x", { registry }))).data as Uint8Array)).toEqual([1, 7, 7, 7, 7, 7, 7, 7, 7]);
    // zarrFormat 3 (the default) never asks the format.
    await createArray(store, "v3", { shape: [1], dataType: "int8", registry });
    expect(calls).toHaveLength(2);
    expect(store.map.has("v3/zarr.json")).toBe(true);
  });

  it("are UNSUPPORTED, naming the node and @zarr/v2-compat, when no registered format writes that version", async () => {
    const store = new MemoryStore();
    const readOnly = createRegistry([toyEntry(toyFormat(newLog()))]); // reads v2-like nodes, writes none
    for (const registry of [createRegistry(), readOnly]) {
      await expect(createArray(store, "a/b", { zarrFormat: 2, shape: [1], dataType: "int8", registry })).rejects.toMatchObject({
        code: "UNSUPPORTED",
        message: expect.stringMatching(/Zarr v2 array "a\/b".*v2Format from @zarr\/v2-compat/),
      });
      await expect(createGroup(store, "", { zarrFormat: 2, registry })).rejects.toMatchObject({
        code: "UNSUPPORTED",
        message: expect.stringContaining('Zarr v2 group "/"'),
      });
    }
    expect(store.map.size).toBe(0);
  });

  it("check the options against the version before writing anything", async () => {
    const calls: Array<{ path: string; options: Record<string, unknown> }> = [];
    const registry = createRegistry([writingToy(toyFormat(newLog()), calls)]);
    const store = new MemoryStore();
    const base = { shape: [2], dataType: "int8", registry } as const;
    await expect(createArray(store, "a", { ...base, zarrFormat: 2, codecs: ["bytes"] })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("codecs is a Zarr v3 option"),
    });
    await expect(createArray(store, "a", { ...base, zarrFormat: 2, chunkShapes: [[1, 1]] })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(createArray(store, "a", { ...base, zarrFormat: 2, chunkKeyEncoding: { name: "default" } })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining('"v2" chunk key encoding'),
    });
    await expect(createArray(store, "a", { ...base, compressor: { id: "zlib" } })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("compressor is a Zarr v2 option"),
    });
    await expect(createArray(store, "a", { ...base, order: "F" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(createGroup(store, "g", { zarrFormat: 4 as 3, registry })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("zarrFormat must be 2 or 3"),
    });
    expect(calls).toEqual([]);
    expect(store.map.size).toBe(0);
  });
});
