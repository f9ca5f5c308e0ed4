import { shardingIndexed } from "@zarr/codec-sharding";
import { createArray, createRegistry, get, MemoryStore, openArray, resize, type Store, set, slice } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { KEY_PREFIX_NAME, keyPrefixTransformer, prefixedStore } from "../src/index.js";

const registry = createRegistry([keyPrefixTransformer, shardingIndexed]);
const prefix = (p: string) => ({ name: KEY_PREFIX_NAME, configuration: { prefix: p } });

/** Keys of a MemoryStore, sorted. */
async function keysOf(store: MemoryStore): Promise<string[]> {
  const out: string[] = [];
  for await (const k of store.list()) out.push(k);
  return out.sort();
}

/** A store that records the keys of every read call by method. */
function recording(store: MemoryStore): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const note = (what: string, key: string) => {
    calls.push(`${what} ${key}`);
  };
  const wrapped: Store = {
    get: (k, o) => {
      note("get", k);
      return store.get(k, o);
    },
    getRange: (k, r, o) => {
      note("getRange", k);
      return store.getRange(k, r, o);
    },
    readInto: (k, r, o) => {
      note("readInto", k);
      return store.readInto(k, r, o);
    },
    set: (k, v, o) => store.set(k, v, o),
    delete: (k, o) => store.delete(k, o),
    list: (o) => store.list(o),
    listPrefix: (p, o) => store.listPrefix(p, o),
    listDir: (p, o) => store.listDir(p, o),
  };
  return { store: wrapped, calls };
}

describe("example.key_prefix", () => {
  it("writes chunks under the prefix, keeps the metadata where it is, and reads them back", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "g/t2m", {
      shape: [4],
      chunkShape: [2],
      dataType: "int16",
      storageTransformers: [prefix("data")],
      registry,
    });
    await set(arr, null, new Int16Array([1, 2, 3, 4]));
    expect(await keysOf(store)).toEqual(["g/t2m/data/c/0", "g/t2m/data/c/1", "g/t2m/zarr.json", "g/zarr.json", "zarr.json"]);
    const again = await openArray(store, "g/t2m", { registry });
    expect(Array.from((await get(again)).data as Int16Array)).toEqual([1, 2, 3, 4]);
    const doc = JSON.parse(new TextDecoder().decode(await store.get("g/t2m/zarr.json")));
    expect(doc.storage_transformers).toEqual([prefix("data")]);
  });

  it("stacks in metadata order: the first transformer is nearest the array", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", {
      shape: [2],
      chunkShape: [2],
      dataType: "uint8",
      storageTransformers: [prefix("first"), prefix("second")],
      registry,
    });
    await set(arr, null, new Uint8Array([7, 8]));
    // first maps a/c/0 to a/first/c/0; second, below it, moves that under a/second/.
    expect((await keysOf(store)).filter((k) => !k.endsWith("zarr.json"))).toEqual(["a/second/first/c/0"]);
    expect(Array.from((await get(await openArray(store, "a", { registry }))).data as Uint8Array)).toEqual([7, 8]);
  });

  it("passes a sharded array's partial reads and scatter reads through with mapped keys", async () => {
    const mem = new MemoryStore();
    const arr = await createArray(mem, "s", {
      shape: [8],
      dataType: "int32",
      chunkShape: [8],
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [2], codecs: ["bytes"], index_codecs: ["bytes"] } }],
      storageTransformers: [prefix("data")],
      registry,
    });
    await set(arr, null, new Int32Array([0, 1, 2, 3, 4, 5, 6, 7]));
    const { store, calls } = recording(mem);
    const reader = await openArray(store, "s", { registry });
    expect(Array.from((await get(reader, [slice(2, 4)])).data as Int32Array)).toEqual([2, 3]);
    const chunkCalls = calls.filter((c) => !c.endsWith("zarr.json"));
    // The shard is never read whole: its index and one inner chunk, by range or scatter read, at the moved key.
    expect(chunkCalls.length).toBeGreaterThan(0);
    expect(chunkCalls.every((c) => /^(getRange|readInto) s\/data\/c\/0$/.test(c))).toBe(true);
  });

  it("resize deletes chunks outside the new shape where they are stored", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "r", { shape: [6], chunkShape: [2], dataType: "uint8", storageTransformers: [prefix("data")], registry });
    await set(arr, null, new Uint8Array([1, 2, 3, 4, 5, 6]));
    const smaller = await resize(arr, [3]);
    expect((await keysOf(store)).filter((k) => k.startsWith("r/data/"))).toEqual(["r/data/c/0", "r/data/c/1"]);
    expect(Array.from((await get(await resize(smaller, [6]))).data as Uint8Array)).toEqual([1, 2, 3, 0, 0, 0]);
  });

  it("refuses a bad configuration with METADATA_INVALID naming the JSON path", async () => {
    const store = new MemoryStore();
    const make = (configuration: Record<string, string | number>) =>
      createArray(store, "bad", { shape: [1], dataType: "uint8", storageTransformers: [{ name: KEY_PREFIX_NAME, configuration }], registry });
    await expect(make({ prefix: "a/b" })).rejects.toMatchObject({ code: "METADATA_INVALID", message: expect.stringContaining("$.storage_transformers[0].configuration.prefix") });
    await expect(make({ prefix: ".." })).rejects.toMatchObject({ code: "METADATA_INVALID" });
    await expect(make({ prefix: "" })).rejects.toMatchObject({ code: "METADATA_INVALID" });
    await expect(make({ prefix: "d", extra: 1 })).rejects.toMatchObject({ message: expect.stringContaining("$.storage_transformers[0].configuration.extra") });
  });

  it("maps listings back to the view's keys and leaves other keys alone", async () => {
    const mem = new MemoryStore();
    const view = prefixedStore(mem, "x/", "data");
    await view.set!("x/c/0", new Uint8Array([1]));
    await view.set!("y/c/0", new Uint8Array([2]));
    expect(await keysOf(mem)).toEqual(["x/data/c/0", "y/c/0"]);
    const listed: string[] = [];
    for await (const k of view.listPrefix!("x/")) listed.push(k);
    expect(listed).toEqual(["x/c/0"]);
    expect(await view.listDir!("x/")).toEqual({ keys: [], prefixes: ["c"] });
    expect(view.workerStore).toBeUndefined();
  });
});
