/**
 * Creating Zarr v3 nodes below a Zarr v2 node is refused (before anything is written)
 * unless `allowMixedFormats: true`; core finds the v2 documents by name, so this holds
 * without any format registered.
 */
import { describe, expect, it } from "vitest";
import { ZarrError } from "@zarr/spec";
import { createArray, createGroup, MemoryStore } from "../src/index.js";

const ZGROUP = new TextEncoder().encode('{"zarr_format":2}');
const ZARRAY = new TextEncoder().encode(
  '{"zarr_format":2,"shape":[2],"chunks":[2],"dtype":"<i2","compressor":null,"fill_value":0,"order":"C","filters":null}',
);

function v2Store(docs: Record<string, Uint8Array>): MemoryStore {
  const store = new MemoryStore();
  for (const [k, v] of Object.entries(docs)) store.map.set(k, v);
  return store;
}

async function refusal(promise: Promise<unknown>): Promise<ZarrError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ZarrError);
  return error as ZarrError;
}

describe("a Zarr v3 node below a Zarr v2 node", () => {
  it("is refused for arrays and groups, naming the node, the ancestor and both versions; nothing is written", async () => {
    const store = v2Store({ ".zgroup": ZGROUP });
    const array = await refusal(createArray(store, "t", { shape: [2], dataType: "int16" }));
    expect(array.code).toBe("INVALID_ARGUMENT");
    expect(array.key).toBe(".zgroup");
    expect(array.message).toMatch(/^Cannot create the Zarr v3 array "t": its ancestor "\/" is a Zarr v2 group \("\.zgroup"\)/);
    expect(array.message).toMatch(/allowMixedFormats: true/);
    const group = await refusal(createGroup(store, "a/b"));
    expect(group.message).toMatch(/^Cannot create the Zarr v3 group "a\/b": its ancestor "\/" is a Zarr v2 group/);
    expect([...store.map.keys()]).toEqual([".zgroup"]);
  });

  it("finds the v2 ancestor at any depth, above missing groups, and v2 arrays too", async () => {
    const store = v2Store({ ".zgroup": ZGROUP, "a/.zgroup": ZGROUP, "arr/.zarray": ZARRAY });
    const deep = await refusal(createArray(store, "a/b/c/t", { shape: [2], dataType: "int16" }));
    expect(deep.message).toMatch(/its ancestor "a" is a Zarr v2 group \("a\/\.zgroup"\)/);
    const inArray = await refusal(createGroup(store, "arr/g"));
    expect(inArray.message).toMatch(/its ancestor "arr" is a Zarr v2 array \("arr\/\.zarray"\)/);
    expect([...store.map.keys()].sort()).toEqual([".zgroup", "a/.zgroup", "arr/.zarray"]);
  });

  it("stops at the nearest Zarr v3 group (its ancestors were checked when it was made)", async () => {
    const store = v2Store({ ".zgroup": ZGROUP });
    await createGroup(store, "v3", { allowMixedFormats: true });
    await createArray(store, "v3/t", { shape: [2], dataType: "int16" });
    expect(store.map.has("v3/t/zarr.json")).toBe(true);
  });

  it("is written with allowMixedFormats: true", async () => {
    const store = v2Store({ ".zgroup": ZGROUP });
    await createArray(store, "t", { shape: [2], dataType: "int16", allowMixedFormats: true });
    expect(store.map.has("zarr.json")).toBe(true);
    expect(store.map.has(".zgroup")).toBe(true);
  });

  it("a v3 hierarchy, or an empty store, is unaffected", async () => {
    const store = new MemoryStore();
    await createArray(store, "a/b/t", { shape: [2], dataType: "int16" });
    expect(["a/b/t/zarr.json", "a/b/zarr.json", "a/zarr.json", "zarr.json"].every((k) => store.map.has(k))).toBe(true);
  });
});
