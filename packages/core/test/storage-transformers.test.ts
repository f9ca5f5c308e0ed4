import { describe, expect, it } from "vitest";
import {
  createArray,
  createChunkCache,
  createRegistry,
  get,
  type LazyEntry,
  MemoryStore,
  MetadataError,
  openArray,
  resize,
  type StorageTransformerEntry,
  type Store,
  set,
} from "../src/index.js";

/**
 * A test transformer that changes bytes (XOR with `key`) and marks keys (a `.x` suffix),
 * forwarding only `get`, `set`, `delete` and listings, so whatever reaches the store went
 * through it. `seen` records the keys it was asked for.
 */
function xorTransformer(seen: string[] = []): StorageTransformerEntry {
  return {
    type: "storage_transformer",
    name: "test.xor",
    fromConfig(configuration, context) {
      const key = configuration.key;
      if (typeof key !== "number") throw new MetadataError([...context.jsonPath, "configuration", "key"], "expected a number");
      const flip = (b: Uint8Array) => b.map((x) => x ^ key);
      const tag = `.x${key}`;
      const strip = (k: string) => (k.endsWith(tag) ? k.slice(0, -tag.length) : undefined);
      return (below: Store): Store => ({
        async get(k, o) {
          seen.push(k);
          const bytes = await below.get(k + tag, o);
          return bytes && flip(bytes);
        },
        set: (k, v, o) => below.set!(k + tag, flip(v), o),
        delete: (k, o) => below.delete!(k + tag, o),
        list: below.list && (async function* (o) {
          for await (const k of below.list!(o)) if (strip(k) !== undefined) yield strip(k) as string;
        }),
        listPrefix: below.listPrefix && (async function* (p, o) {
          for await (const k of below.listPrefix!(p, o)) if (strip(k) !== undefined) yield strip(k) as string;
        }),
        listDir: below.listDir && ((p, o) => below.listDir!(p, o)),
      });
    },
  };
}

const xor = (key: number, extra: object = {}) => ({ name: "test.xor", configuration: { key }, ...extra });

describe("storage transformers", () => {
  it("writes and reads every chunk through the stack, and keeps the metadata in the store itself", async () => {
    const store = new MemoryStore();
    const registry = createRegistry([xorTransformer()]);
    const arr = await createArray(store, "a", { shape: [4], chunkShape: [2], dataType: "uint8", storageTransformers: [xor(0xff)], registry });
    expect(arr.chunkStore).not.toBe(store);
    await set(arr, null, new Uint8Array([1, 2, 3, 4]));
    expect(await store.get("a/c/0")).toBeUndefined();
    expect(Array.from((await store.get("a/c/0.x255")) as Uint8Array)).toEqual([0xfe, 0xfd]);
    const doc = JSON.parse(new TextDecoder().decode(await store.get("a/zarr.json")));
    expect(doc.storage_transformers).toEqual([xor(0xff)]);
    const again = await openArray(store, "a", { registry });
    expect(Array.from((await get(again)).data as Uint8Array)).toEqual([1, 2, 3, 4]);
    // Partial writes read the chunk back through the stack too.
    await set(again, [1], 9);
    expect(Array.from((await get(arr)).data as Uint8Array)).toEqual([1, 9, 3, 4]);
  });

  it("stacks in metadata order: the first transformer is nearest the array", async () => {
    const store = new MemoryStore();
    const registry = createRegistry([xorTransformer()]);
    const arr = await createArray(store, "a", { shape: [1], chunkShape: [1], dataType: "uint8", storageTransformers: [xor(1), xor(2)], registry });
    await set(arr, null, new Uint8Array([7]));
    // The first (key 1) tags the key, then the second (below it, key 2).
    expect(Array.from((await store.get("a/c/0.x1.x2")) as Uint8Array)).toEqual([7 ^ 1 ^ 2]);
  });

  it("names an unregistered transformer (UNSUPPORTED) unless must_understand is false, then skips it and says so", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", {
      shape: [2],
      chunkShape: [2],
      dataType: "uint8",
      storageTransformers: [xor(1)],
      registry: createRegistry([xorTransformer()]),
    });
    // It opens (metadata and all), and its data fails: reading around the transformer would read the wrong bytes.
    const refusing = await openArray(store, "a");
    expect(refusing.problem).toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringMatching(/^Storage transformer "test\.xor" \(at \$\.storage_transformers\[0\] in "a\/zarr\.json"\) is not registered/),
    });
    await expect(get(refusing)).rejects.toBe(refusing.problem);
    await expect(set(refusing, null, 1)).rejects.toBe(refusing.problem);
    const doc = JSON.parse(new TextDecoder().decode(await store.get("a/zarr.json")));
    doc.storage_transformers[0].must_understand = false;
    await store.set("a/zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    const skipping = await openArray(store, "a");
    expect(skipping.ignoredStorageTransformers).toEqual(["test.xor"]);
    expect(skipping.chunkStore).toBe(store);
    // Registered, it is applied even with must_understand false.
    const applying = await openArray(store, "a", { registry: createRegistry([xorTransformer()]) });
    expect(applying.ignoredStorageTransformers).toEqual([]);
    expect(applying.chunkStore).not.toBe(store);
    expect(arr.ignoredStorageTransformers).toEqual([]);
  });

  it("loads a lazy transformer entry on first use", async () => {
    let loads = 0;
    const lazy: LazyEntry<StorageTransformerEntry> = {
      type: "storage_transformer",
      name: "test.xor",
      lazy: true,
      load: async () => {
        loads++;
        return xorTransformer();
      },
    };
    const registry = createRegistry([lazy]);
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [2], chunkShape: [2], dataType: "uint8", storageTransformers: [xor(5)], registry });
    await set(arr, null, new Uint8Array([5, 6]));
    await openArray(store, "a", { registry });
    expect(loads).toBe(1);
    expect(Array.from((await store.get("a/c/0.x5")) as Uint8Array)).toEqual([0, 3]);
  });

  it("reports a bad configuration with the transformer's JSON path, and one that returns no store", async () => {
    const store = new MemoryStore();
    const registry = createRegistry([xorTransformer()]);
    await expect(
      createArray(store, "a", { shape: [1], dataType: "uint8", storageTransformers: [{ name: "test.xor", configuration: { key: "k" } }], registry }),
    ).rejects.toMatchObject({ code: "METADATA_INVALID", message: expect.stringContaining("$.storage_transformers[0].configuration.key") });
    const broken = createRegistry([{ type: "storage_transformer", name: "test.broken", fromConfig: () => () => undefined as unknown as Store }]);
    await expect(createArray(store, "b", { shape: [1], dataType: "uint8", storageTransformers: ["test.broken"], registry: broken })).rejects.toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringContaining('"test.broken" (at $.storage_transformers[0] in "b/zarr.json") did not return a store'),
    });
    await expect(
      createArray(store, "c", { shape: [1], dataType: "uint8", storageTransformers: [xor(1)], registry, zarrFormat: 2 }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("storageTransformers is a Zarr v3 option") });
  });

  it("keeps a chunk cache right across arrays whose stacks are different objects", async () => {
    const store = new MemoryStore();
    const registry = createRegistry([xorTransformer()]);
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const writer = await createArray(store, "a", { shape: [2], chunkShape: [2], dataType: "uint8", storageTransformers: [xor(1)], registry });
    const reader = await openArray(store, "a", { registry, chunkCache });
    expect(Array.from((await get(reader)).data as Uint8Array)).toEqual([0, 0]);
    await set(writer, null, new Uint8Array([4, 5]));
    expect(Array.from((await get(reader)).data as Uint8Array)).toEqual([4, 5]);
  });

  it("resizes through the stack: chunks outside the new shape are found and deleted where they are stored", async () => {
    const store = new MemoryStore();
    const registry = createRegistry([xorTransformer()]);
    const arr = await createArray(store, "a", { shape: [6], chunkShape: [2], dataType: "uint8", storageTransformers: [xor(1)], registry });
    await set(arr, null, new Uint8Array([1, 2, 3, 4, 5, 6]));
    const smaller = await resize(arr, [3]);
    const keys: string[] = [];
    for await (const k of store.listPrefix("a/c/")) keys.push(k);
    expect(keys.sort()).toEqual(["a/c/0.x1", "a/c/1.x1"]);
    expect(Array.from((await get(await resize(smaller, [6]))).data as Uint8Array)).toEqual([1, 2, 3, 0, 0, 0]);
  });
});
