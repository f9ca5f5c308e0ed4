import {
  children,
  consolidateMetadata,
  createArray,
  createGroup,
  deleteNode,
  exists,
  get,
  MemoryStore,
  open,
  openArray,
  openGroup,
  set,
  slice,
  type ZarrArray,
  type ZarrNode,
  walk,
} from "@zarr/core";
import type { Store } from "@zarr/spec";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { S3Store } from "../src/index.js";
import { collect, startS3, type TestS3 } from "./helpers.js";

/** Writes the same small hierarchy into any store: groups, arrays with bytes/transpose, v2 keys, missing chunks. */
async function buildHierarchy(store: Store): Promise<void> {
  await createGroup(store, "", { attributes: { title: "s3 round trip" } });
  await createGroup(store, "weather", { attributes: { source: "synthetic" } });
  const t2m = await createArray(store, "weather/t2m", {
    shape: [6, 10],
    chunkShape: [4, 4],
    dataType: "float32",
    fillValue: Number.NaN,
    dimensionNames: ["y", "x"],
    codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, { name: "bytes", configuration: { endian: "little" } }],
  });
  await set(t2m, null, Float32Array.from({ length: 60 }, (_, i) => i * 0.5 - 7));
  const ids = await createArray(store, "weather/ids", {
    shape: [7],
    chunkShape: [3],
    dataType: "int64",
    codecs: [{ name: "bytes", configuration: { endian: "big" } }],
  });
  await set(ids, null, BigInt64Array.from({ length: 7 }, (_, i) => BigInt(i) * -123456789012n));
  const flags = await createArray(store, "flags", {
    shape: [5, 3],
    chunkShape: [2, 2],
    dataType: "uint8",
    fillValue: 9,
    chunkKeyEncoding: { name: "v2", separator: "." },
    codecs: [{ name: "bytes" }],
  });
  await set(flags, [slice(0, 2), null], new Uint8Array([1, 2, 3, 4, 5, 6])); // the other chunks stay missing
  await createGroup(store, "empty group/with space");
}

let s3: TestS3;
let store: S3Store;
const memory = new MemoryStore();
beforeAll(async () => {
  s3 = await startS3(["zarr"]);
  store = s3.store({ bucket: "zarr", prefix: "hierarchies/demo.zarr" });
  await Promise.all([buildHierarchy(store), buildHierarchy(memory)]);
});
afterAll(() => s3.close());

async function readAll(root: Store | ZarrNode): Promise<Map<string, unknown>> {
  const group = "kind" in root ? (root as ZarrNode) : await openGroup(root as Store);
  if (group.kind !== "group") throw new Error("expected a group");
  const out = new Map<string, unknown>();
  for await (const node of walk(group)) {
    out.set(node.path, node.kind === "array" ? await get(node as ZarrArray, null) : node.attributes);
  }
  return out;
}

it("writes exactly the keys and bytes a MemoryStore gets", async () => {
  const keys = (await collect(store.list())).sort();
  expect(keys).toEqual(memory.keys());
  expect(keys).toContain("flags/0.0");
  expect(keys).not.toContain("flags/2.0"); // never written: fill value
  for (const key of keys) expect(await store.get(key), key).toEqual(memory.map.get(key));
});

it("lists children and walks the hierarchy through listDir, reading every array like the MemoryStore", async () => {
  const root = await openGroup(store);
  expect(root.consolidated).toBeUndefined();
  expect(root.attributes).toEqual({ title: "s3 round trip" });
  const kids = await children(root);
  expect(kids.map((n) => `${n.kind}:${n.path}`)).toEqual(["group:empty group", "array:flags", "group:weather"]);
  const fromS3 = await readAll(store);
  expect([...fromS3.keys()].sort()).toEqual(["empty group", "empty group/with space", "flags", "weather", "weather/ids", "weather/t2m"]);
  expect(fromS3).toEqual(await readAll(memory));
  const flags = (await get(await openArray(store, "flags"), null)).data;
  expect([...flags]).toEqual([1, 2, 3, 4, 5, 6, 9, 9, 9, 9, 9, 9, 9, 9, 9]);
  const t2m = await openArray(store, "weather/t2m");
  expect((await get(t2m, [1, slice(2, 5)])).data).toEqual(new Float32Array([-1, -0.5, 0]));
});

it("consolidates metadata, and a fresh read-only store opens the hierarchy from it", async () => {
  await consolidateMetadata(store);
  await consolidateMetadata(memory);
  expect(await store.get("zarr.json")).toEqual(memory.map.get("zarr.json"));

  const reader = s3.store({ bucket: "zarr", prefix: "hierarchies/demo.zarr", readOnly: true });
  s3.reset();
  const root = await openGroup(reader);
  expect(root.consolidated?.size).toBe(6);
  const kids = await children(root);
  expect(kids.map((n) => n.path)).toEqual(["empty group", "flags", "weather"]);
  const paths: string[] = [];
  for await (const node of walk(root)) paths.push(node.path);
  expect(paths).toEqual(["empty group", "empty group/with space", "flags", "weather", "weather/ids", "weather/t2m"]);
  // Consolidated: the whole walk read one document and listed nothing.
  expect(s3.seen.filter((r) => r.url.includes("list-type"))).toHaveLength(0);
  expect(s3.seen).toHaveLength(1);

  expect(await readAll(root)).toEqual(await readAll(await openGroup(memory)));
  const node = await open(root, "weather/t2m");
  expect(node.kind).toBe("array");
  expect((await rejectionCode(set(await openArray(reader, "weather/t2m"), [0, 0], 1)))).toBe("STORE_READ_ONLY");
});

it("deleteNode removes a subtree and nothing else", async () => {
  await deleteNode(store, "weather");
  expect(await exists(store, "weather")).toBe(false);
  expect(await exists(store, "weather/t2m")).toBe(false);
  expect(await exists(store, "flags")).toBe(true);
  expect((await collect(store.listPrefix("weather"))).length).toBe(0);
  expect((await store.listDir("")).prefixes).toEqual(["empty group", "flags"]);
  await deleteNode(store, "");
  expect(await collect(store.list())).toEqual([]);
});

async function rejectionCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}
