/**
 * Creating Zarr v2 nodes below a Zarr v3 node (a `zarr.json` at any ancestor, the root's
 * included, or an early-draft entry point) is refused before anything is written, through
 * `createArrayV2`/`createGroupV2` and through @zarr/core's `createArray`/`createGroup` with
 * `zarrFormat: 2`; `allowMixedFormats: true` writes it anyway.
 */
import { createArray, createGroup, MemoryStore } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { createArrayV2, createGroupV2 } from "../src/index.js";
import { fullRegistry } from "./helpers.js";

const registry = fullRegistry();

async function refusal(promise: Promise<unknown>): Promise<ZarrError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ZarrError);
  return error as ZarrError;
}

async function v3Store(...groups: string[]): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const g of groups) await createGroup(store, g, { registry });
  return store;
}

describe("a Zarr v2 node below a Zarr v3 node", () => {
  const attempts: [string, (store: MemoryStore, path: string) => Promise<unknown>][] = [
    ["createArrayV2", (store, path) => createArrayV2(store, path, { shape: [2], dtype: "<i2", compressor: null, registry })],
    ["createGroupV2", (store, path) => createGroupV2(store, path, { registry })],
    ["createArray zarrFormat 2", (store, path) => createArray(store, path, { zarrFormat: 2, shape: [2], dataType: "int16", compressor: null, registry })],
    ["createGroup zarrFormat 2", (store, path) => createGroup(store, path, { zarrFormat: 2, registry })],
  ];

  for (const [name, attempt] of attempts) {
    it(`${name}: refused below the v3 root, naming both; nothing is written`, async () => {
      const store = await v3Store("");
      const before = [...store.map.keys()];
      const error = await refusal(attempt(store, "x"));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.key).toBe("zarr.json");
      const kind = name.includes("Array") ? "array" : "group";
      expect(error.message).toMatch(new RegExp(`^Cannot create the Zarr v2 ${kind} "x": its ancestor "/" is a Zarr v3 group \\("zarr.json"\\)`));
      expect([...store.map.keys()]).toEqual(before);
    });
  }

  it("finds a v3 group at any depth, under a missing v2 parent", async () => {
    const store = new MemoryStore();
    await createGroup(store, "v3", { registry });
    store.map.delete("zarr.json"); // only "v3" is a v3 node: the root has no document
    const error = await refusal(createArrayV2(store, "v3/missing/t", { shape: [2], dtype: "<i2", registry }));
    expect(error.message).toMatch(/its ancestor "v3" is a Zarr v3 group \("v3\/zarr.json"\)/);
    expect([...store.map.keys()]).toEqual(["v3/zarr.json"]);
  });

  it("an early-draft entry point counts as Zarr v3", async () => {
    const store = new MemoryStore();
    store.map.set("zarr.json", new TextEncoder().encode('{"zarr_format":"https://purl.org/zarr/spec/protocol/core/3.0"}'));
    const error = await refusal(createGroupV2(store, "g", { registry }));
    expect(error.message).toMatch(/its ancestor "\/" is a Zarr v3 early-draft entry point/);
  });

  it("allowMixedFormats: true writes it anyway (both documents at the root)", async () => {
    const store = await v3Store("");
    await createArrayV2(store, "x", { shape: [2], dtype: "<i2", registry, allowMixedFormats: true });
    await createGroup(store, "g", { zarrFormat: 2, registry, allowMixedFormats: true });
    expect(["zarr.json", ".zgroup", "x/.zarray", "g/.zgroup"].every((k) => store.map.has(k))).toBe(true);
  });

  it("a v2 hierarchy, or an empty store, is unaffected", async () => {
    const store = new MemoryStore();
    await createGroupV2(store, "a", { registry });
    await createArray(store, "a/b/t", { zarrFormat: 2, shape: [2], dataType: "int16", registry });
    expect([".zgroup", "a/.zgroup", "a/b/.zgroup", "a/b/t/.zarray"].every((k) => store.map.has(k))).toBe(true);
  });
});
