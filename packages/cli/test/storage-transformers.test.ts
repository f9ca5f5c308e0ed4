/**
 * `zarr info` on arrays with storage transformers: each is listed with whether chunk I/O
 * goes through it, and chunks are counted where the transformers keep them.
 */
import path from "node:path";
import { createArray, createRegistry, MemoryStore, type StorageTransformerEntry, type Store, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { describeNode } from "../src/describe.js";
import { findNode } from "../src/listing.js";
import { removeTempDirs, runInProcess, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

/** Keeps chunk keys under `<array>/moved/` (keys only; enough for listing and counting). */
const moveChunks: StorageTransformerEntry = {
  type: "storage_transformer",
  name: "test.move",
  fromConfig: (_configuration, { path: arrayPath }) => {
    const from = `${arrayPath}/`;
    const to = `${arrayPath}/moved/`;
    const down = (k: string) => (k.startsWith(from) ? to + k.slice(from.length) : k);
    return (below: Store): Store => ({
      get: (k, o) => below.get(down(k), o),
      set: (k, v, o) => below.set!(down(k), v, o),
      delete: (k, o) => below.delete!(down(k), o),
      list: (o) => below.list!(o),
      listDir: (p, o) => below.listDir!(down(p), o),
      async *listPrefix(p, o) {
        for await (const k of below.listPrefix!(down(p), o)) yield from + k.slice(to.length);
      },
    });
  },
};

async function arrayWith(store: Store, transformers: (string | object)[], registry = createRegistry([moveChunks])) {
  const arr = await createArray(store, "a", { shape: [4], chunkShape: [2], dataType: "uint8", storageTransformers: transformers as never, registry });
  await set(arr, null, new Uint8Array([1, 2, 3, 4]));
}

describe("zarr info with storage transformers", () => {
  it("shows an applied transformer and counts the chunks it moved", async () => {
    const store = new MemoryStore();
    await arrayWith(store, ["test.move"]);
    const registry = createRegistry([moveChunks]);
    const d = await describeNode(store, await findNode(store, "a"), registry);
    expect(d.storage_transformers).toEqual([{ name: "test.move", configuration: {}, applied: true }]);
    expect(d.chunks_stored).toBe(2);
    expect(d.readable).toBe(true);
  });

  it("marks an unregistered transformer with must_understand false as ignored, in text and --json", async () => {
    const dir = path.join(tempDir(), "t.zarr");
    const fs = new FileSystemStore(dir);
    await arrayWith(fs, [{ name: "test.absent", must_understand: false }], createRegistry());
    const text = await runInProcess("info", dir, "a");
    expect(text.code).toBe(0);
    expect(text.out).toContain('storage transformers:\n  {"name":"test.absent","configuration":{},"must_understand":false} (ignored: not registered, must_understand false)\n');
    expect(text.out).toMatch(/^chunks: +2 of 2 stored$/m);
    const json = JSON.parse((await runInProcess("info", dir, "a", "--json")).out);
    expect(json.storage_transformers).toEqual([{ name: "test.absent", configuration: {}, must_understand: false, applied: false }]);
    expect(json.readable).toBe(true);
  });

  it("describes an array whose transformer is unknown as unreadable, naming it", async () => {
    const dir = path.join(tempDir(), "u.zarr");
    await arrayWith(new FileSystemStore(dir), ["test.move"]);
    const text = await runInProcess("info", dir, "a");
    expect(text.code).toBe(0);
    expect(text.out).toContain('storage transformers:\n  {"name":"test.move","configuration":{}} (not applied)\n');
    expect(text.out).toMatch(/^readable: +no: \[UNSUPPORTED\] Storage transformer "test\.move" \(at \$\.storage_transformers\[0\] in "a\/zarr\.json"\) is not registered/m);
  });
});
