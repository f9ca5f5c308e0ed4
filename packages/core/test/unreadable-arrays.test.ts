/**
 * Arrays whose metadata names an extension the registry lacks open and list with their
 * metadata; their data fails with the coded error (`arr.problem`) when read or written.
 * Broken documents, memory bounds and `createArray` still fail at once.
 */
import { describe, expect, it } from "vitest";
import { children, createArray, createRegistry, get, getCoordinates, MemoryStore, open, openArray, set, ZarrError } from "../src/index.js";

const enc = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc));

function arrayDoc(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    zarr_format: 3,
    node_type: "array",
    shape: [4],
    data_type: "int16",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
    chunk_key_encoding: { name: "default" },
    fill_value: 0,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    attributes: { units: "K" },
    ...overrides,
  };
}

async function hierarchy(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.set("zarr.json", enc({ zarr_format: 3, node_type: "group", attributes: {} }));
  await store.set("codec/zarr.json", enc(arrayDoc({ codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "mystery" }] })));
  await store.set("dtype/zarr.json", enc(arrayDoc({ data_type: "int3", fill_value: 0 })));
  await store.set("fine/zarr.json", enc(arrayDoc({})));
  await store.set("fine/c/0", new Uint8Array([1, 0, 2, 0]));
  return store;
}

describe("arrays whose extensions the registry lacks", () => {
  it("list with their metadata next to readable ones, and fail with their problem when their data is used", async () => {
    const store = await hierarchy();
    const root = await open(store, "");
    if (root.kind !== "group") throw new Error("not a group");
    const nodes = await children(root);
    expect(nodes.map((n) => n.name).sort()).toEqual(["codec", "dtype", "fine"]);
    const byName = new Map(nodes.map((n) => [n.name, n]));
    const codec = byName.get("codec");
    const dtype = byName.get("dtype");
    const fine = byName.get("fine");
    if (codec?.kind !== "array" || dtype?.kind !== "array" || fine?.kind !== "array") throw new Error("not arrays");

    expect(fine.readable).toBe(true);
    expect(fine.problem).toBeUndefined();
    expect(Array.from((await get(fine)).data as Int16Array)).toEqual([1, 2, 0, 0]);

    expect(codec.readable).toBe(false);
    expect(codec.problem).toBeInstanceOf(ZarrError);
    expect(codec.problem?.code).toBe("CODEC_UNKNOWN");
    expect(codec.problem?.message).toContain('"mystery" (at $.codecs[1] in "codec/zarr.json")');
    // The metadata is all there, and so are the parts the registry has.
    expect(codec.shape).toEqual([4]);
    expect(codec.attributes).toEqual({ units: "K" });
    expect(codec.dataType.name).toBe("int16");
    expect(codec.chunkKey([1])).toBe("codec/c/1");

    expect(dtype.problem?.code).toBe("UNSUPPORTED");
    expect(dtype.problem?.message).toContain('Data type "int3"');
    expect(dtype.dataType.name).toBe("int3");
    expect(dtype.is("int16")).toBe(false);

    const keysBefore = store.keys();
    for (const arr of [codec, dtype]) {
      await expect(get(arr)).rejects.toBe(arr.problem);
      await expect(get(arr, [1])).rejects.toBe(arr.problem);
      await expect(getCoordinates(arr, [[0, 3]])).rejects.toBe(arr.problem);
      await expect(set(arr, null, 7)).rejects.toBe(arr.problem);
      await expect(set(arr, [0], 7, { lock: true })).rejects.toBe(arr.problem);
    }
    expect(store.keys()).toEqual(keysBefore); // nothing written
    // Opened on their own, the same.
    expect((await openArray(store, "codec")).problem?.code).toBe("CODEC_UNKNOWN");
  });

  it("still refuse a broken document, a memory bound and createArray at once", async () => {
    const store = new MemoryStore();
    await store.set("broken/zarr.json", enc(arrayDoc({ shape: [4, -1] })));
    await expect(openArray(store, "broken")).rejects.toMatchObject({ code: "METADATA_INVALID" });
    const struct = { name: "struct", configuration: { fields: [{ name: "v", data_type: "int8", shape: [1_000_000] }] } };
    await store.set("huge/zarr.json", enc(arrayDoc({ data_type: struct, fill_value: null })));
    await expect(openArray(store, "huge", { maxChunkBytes: 1000 })).rejects.toMatchObject({ code: "UNSUPPORTED", message: expect.stringContaining("maxChunkBytes") });
    const before = store.keys();
    await expect(
      createArray(store, "new", { shape: [4], chunkShape: [2], dataType: "int16", codecs: ["bytes", { name: "mystery" }], registry: createRegistry() }),
    ).rejects.toMatchObject({ code: "CODEC_UNKNOWN" });
    expect(store.keys()).toEqual(before);
  });
});
