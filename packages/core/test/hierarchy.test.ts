import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  children,
  consolidateMetadata,
  createArray,
  createGroup,
  deleteNode,
  exists,
  get,
  groupFromEntry,
  listChildren,
  MemoryStore,
  open,
  openArray,
  openEntry,
  openGroup,
  resize,
  set,
  setAttributes,
  updateAttributes,
  walk,
  walkEntries,
  ZarrArray,
  type ZarrError,
} from "../src/index.js";
import { countingStore, FIXTURES, loadDirectory } from "./helpers.js";

const decode = (b: Uint8Array | undefined) => JSON.parse(new TextDecoder().decode(b));
const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: ZarrError) => e.code);

describe("groups and arrays", () => {
  it("creates explicit parents and opens nodes at any path", async () => {
    const store = new MemoryStore();
    await createArray(store, "a/b/c", { shape: [2], dataType: "int8" });
    expect(store.keys()).toEqual(["a/b/c/zarr.json", "a/b/zarr.json", "a/zarr.json", "zarr.json"]);
    expect(decode(store.map.get("a/zarr.json"))).toEqual({ zarr_format: 3, node_type: "group", attributes: {} });
    const root = await openGroup(store);
    expect(root.path).toBe("");
    const arr = await open(root, "a/b/c");
    expect(arr.kind).toBe("array");
    expect(arr.path).toBe("a/b/c");
    expect(arr.name).toBe("c");
    expect(await exists(store, "a/b")).toBe(true);
    expect(await exists(store, "a/x")).toBe(false);
  });

  it("refuses bad names, existing nodes and nodes inside arrays", async () => {
    const store = new MemoryStore();
    await createGroup(store, "g");
    expect(await codeOf(createGroup(store, "g"))).toBe("NODE_EXISTS");
    expect(await codeOf(createGroup(store, "__reserved"))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(createGroup(store, "a/../b"))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(createGroup(store, "..."))).toBe("INVALID_ARGUMENT");
    await createArray(store, "arr", { shape: [1], dataType: "int8" });
    expect(await codeOf(createGroup(store, "arr/inner"))).toBe("INVALID_ARGUMENT");
    await createGroup(store, "g", { overwrite: true, attributes: { v: 2 } });
    expect((await openGroup(store, "g")).attributes).toEqual({ v: 2 });
    expect(await codeOf(open(store, "missing"))).toBe("NODE_NOT_FOUND");
    expect(await codeOf(openArray(store, "g"))).toBe("NODE_NOT_FOUND");
    expect(await codeOf(openGroup(store, "arr"))).toBe("NODE_NOT_FOUND");
  });

  it("lists children, walks, deletes", async () => {
    const store = new MemoryStore();
    await createGroup(store, "", { attributes: { title: "t" } });
    await createArray(store, "x", { shape: [4], chunkShape: [2], dataType: "int16" });
    await createArray(store, "g/y", { shape: [4], chunkShape: [2], dataType: "int16" });
    await createGroup(store, "g/h");
    const root = await openGroup(store);
    expect((await children(root)).map((n) => `${n.kind}:${n.path}`)).toEqual(["group:g", "array:x"]);
    const all: string[] = [];
    for await (const n of walk(root)) all.push(n.path);
    expect(all).toEqual(["g", "g/h", "g/y", "x"]);
    await set(await openArray(store, "g/y"), null, 5);
    await deleteNode(store, "g");
    expect(store.keys()).toEqual(["x/zarr.json", "zarr.json"]);
  });

  it("reads implicit groups but writes explicit ones", async () => {
    const store = new MemoryStore();
    await createArray(store, "p/q", { shape: [1], dataType: "int8" });
    store.map.delete("p/zarr.json");
    const p = await open(store, "p");
    expect(p.kind).toBe("group");
    expect(p.kind === "group" && p.implicit).toBe(true);
    expect((await children(await openGroup(store))).map((n) => n.path)).toEqual(["p"]);
  });

  it("updates attributes", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [1], dataType: "int8", attributes: { a: 1, b: 2 } });
    const u = await updateAttributes(arr, { b: undefined, c: [1, 2] });
    expect(u.attributes).toEqual({ a: 1, c: [1, 2] });
    expect((await openArray(store, "a")).attributes).toEqual({ a: 1, c: [1, 2] });
    const g = await setAttributes(await openGroup(store), { x: "y" });
    expect(decode(store.map.get("zarr.json")).attributes).toEqual({ x: "y" });
    expect(g.attributes).toEqual({ x: "y" });
  });

  it("consolidates metadata, and opening from it costs no more reads", async () => {
    const store = new MemoryStore();
    await createArray(store, "x", { shape: [4], chunkShape: [2], dataType: "int16" });
    await createArray(store, "g/y", { shape: [4], chunkShape: [2], dataType: "float32" });
    await consolidateMetadata(store);
    const doc = decode(store.map.get("zarr.json"));
    expect(Object.keys(doc.consolidated_metadata.metadata).sort()).toEqual(["g", "g/y", "x"]);
    const { store: counted, counts } = countingStore(store);
    const root = await openGroup(counted);
    const y = await open(root, "g/y");
    const g = await openGroup(root, "g");
    const kids = await children(g);
    expect(y.kind).toBe("array");
    expect(kids.map((k) => k.path)).toEqual(["g/y"]);
    expect(counts).toEqual({ get: 1 });
  });

  it("lists and consolidates hierarchies whose arrays use unregistered codecs", async () => {
    const store = loadDirectory(join(FIXTURES, "v3/data.zarr"));
    const root = await openGroup(store);
    const entries = await listChildren(root);
    expect(entries.find((e) => e.name === "1d.contiguous.blosc.i2")?.kind).toBe("array");
    const paths: string[] = [];
    for await (const e of walkEntries(root)) paths.push(e.path);
    expect(paths).toContain("consolidated/nested/1d.i2");
    await consolidateMetadata(store);
    const again = await openGroup(store);
    expect(again.consolidated?.has("consolidated/nested/1d.i2")).toBe(true);
    // children opens every child: those whose codecs the registry lacks open with their problem, and fail when read.
    const opened = await children(root);
    const blosc = opened.find((n) => n.name === "1d.contiguous.blosc.i2");
    expect(blosc?.kind).toBe("array");
    if (blosc?.kind !== "array") throw new Error("not an array");
    expect(blosc.readable).toBe(false);
    expect(blosc.problem).toMatchObject({ code: "CODEC_UNKNOWN" });
    expect(blosc.shape.length).toBe(1);
    await expect(get(blosc)).rejects.toBe(blosc.problem);
    const raw = opened.find((n) => n.name === "1d.contiguous.raw.i2");
    expect(raw?.kind === "array" && raw.readable).toBe(true);
  });

  it("nested groups of a consolidated hierarchy list their children from the root's map", async () => {
    const store = loadDirectory(join(FIXTURES, "v3/data.zarr"));
    const { store: counted, counts } = countingStore(store);
    const root = await openGroup(counted, "consolidated");
    const nested = await openGroup(root, "nested");
    expect((await children(nested)).map((n) => n.path)).toEqual(["consolidated/nested/1d.i2"]);
    expect(counts).toEqual({ get: 1 });
  });

  it("groupFromEntry builds a group from an entry without reading the store again", async () => {
    const store = new MemoryStore();
    await createArray(store, "g/y", { shape: [4], chunkShape: [2], dataType: "float32" });
    await createGroup(store, "plain/inner");
    await consolidateMetadata(store, "g");
    const { store: counted, counts } = countingStore(store);
    const entry = await openEntry(counted, "g");
    expect(counts).toEqual({ get: 1 });
    const g = await groupFromEntry(counted, entry);
    expect(counts).toEqual({ get: 1 });
    expect([g.kind, g.path, g.consolidated?.has("y")]).toEqual(["group", "g", true]);
    // Its children come from the entry's consolidated metadata: still no read.
    expect((await listChildren(g)).map((e) => e.path)).toEqual(["g/y"]);
    expect(counts).toEqual({ get: 1 });
    // A listed (not consolidated) group entry, and an array entry.
    const [plain] = (await listChildren(await openGroup(store))).filter((e) => e.name === "plain");
    expect((await listChildren(await groupFromEntry(store, plain))).map((e) => e.path)).toEqual(["plain/inner"]);
    expect(await codeOf(groupFromEntry(store, await openEntry(store, "g/y")))).toBe("INVALID_ARGUMENT");
  });

  it("a listing asks the store not to check child prefixes, and skips those without a node", async () => {
    const store = new MemoryStore();
    await createArray(store, "x", { shape: [4], chunkShape: [2], dataType: "int16" });
    // A store that, asked for unchecked prefixes, also reports one holding nothing (a file
    // system's directory left empty by deletes).
    const options: unknown[] = [];
    const listDir = store.listDir.bind(store);
    store.listDir = async (prefix, opts) => {
      options.push(opts);
      const listing = await listDir(prefix, opts);
      return opts?.uncheckedPrefixes ? { ...listing, prefixes: [...listing.prefixes, "emptied"] } : listing;
    };
    const root = await openGroup(store);
    expect((await listChildren(root)).map((e) => e.path)).toEqual(["x"]);
    expect(options).toEqual([expect.objectContaining({ uncheckedPrefixes: true })]);
  });

  it("reads the zarr-python consolidated fixture", async () => {
    const store = loadDirectory(join(FIXTURES, "v3/data.zarr"));
    const root = await openGroup(store, "consolidated");
    expect(root.attributes).toEqual({ answer: 42 });
    expect(root.consolidated?.has("nested/1d.i2")).toBe(true);
    const names = (await children(root)).map((n) => n.name);
    expect(names).toContain("nested");
    const spaced = await openGroup(store, "my group with spaces");
    expect(spaced.name).toBe("my group with spaces");
  });
});

describe("ZarrArray from resolved parts", () => {
  it("holds every resolved part; setAttributes keeps them all and changes only the attributes", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a/x", { shape: [4, 6], chunkShape: [2, 3], dataType: "int16", writeEmptyChunks: true });
    const copy = new ZarrArray({ ...arr, zarrFormat: undefined });
    expect(copy.zarrFormat).toBe(3);
    expect([copy.shape, copy.ndim, copy.name, copy.chunkShape]).toEqual([[4, 6], 2, "x", [2, 3]]);
    expect(copy.chunkKey([1, 1])).toBe("a/x/c/1/1");
    expect(copy.chunkSpec([1, 1]).shape).toEqual([2, 3]);
    const updated = await setAttributes(arr, { units: "K" });
    expect(updated).toBeInstanceOf(ZarrArray);
    for (const part of ["store", "path", "registry", "dataType", "fillValue", "chunkGrid", "chunkKeyEncoding", "codecs", "config", "zarrFormat", "format"] as const) {
      expect(updated[part], part).toBe(arr[part]);
    }
    expect(updated.attributes).toEqual({ units: "K" });
    expect(updated.config.writeEmptyChunks).toBe(true);
    expect(updated.chunkKey([0, 1])).toBe("a/x/c/0/1");
  });
});

describe("resize", () => {
  it("shrinks (deleting chunks and resetting cut regions) and grows", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "r", { shape: [10], chunkShape: [4], dataType: "int32", fillValue: -1 });
    await set(arr, null, Int32Array.from({ length: 10 }, (_, i) => i));
    const small = await resize(arr, [5]);
    expect(small.shape).toEqual([5]);
    expect(store.keys().filter((k) => k.startsWith("r/c/"))).toEqual(["r/c/0", "r/c/1"]);
    const big = await resize(small, [12]);
    expect(Array.from((await get(big)).data as Int32Array)).toEqual([0, 1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1]);
    expect(decode(store.map.get("r/zarr.json")).shape).toEqual([12]);
    expect(await codeOf(resize(big, [1, 2]))).toBe("INVALID_ARGUMENT");
  });
});
