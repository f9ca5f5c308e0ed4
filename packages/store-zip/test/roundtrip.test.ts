/** Round trips: @zarr/core hierarchy → FileSystemStore → zip → ZipStore, and random stores. */
import path from "node:path";
import { createArray, createGroup, get, MemoryStore, openArray, set, slice } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { writeZip, ZipStore } from "../src/index.js";
import { writeZipFile } from "../src/node.js";
import { BytesStore, CountingStore, collect, expectBytes, tempDir } from "./helpers.js";

async function buildHierarchy(root: string): Promise<FileSystemStore> {
  const store = new FileSystemStore(root);
  await createGroup(store, "", { attributes: { title: "round trip ✓" } });
  await createGroup(store, "group with spaces/ünï");
  const a = await createArray(store, "temperature", {
    shape: [6, 10],
    chunkShape: [4, 4],
    dataType: "float64",
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    attributes: { units: "K" },
  });
  await set(a, null, { data: Float64Array.from({ length: 60 }, (_, i) => i * 0.5 - 3), shape: [6, 10] });
  const b = await createArray(store, "group with spaces/ünï/counts", {
    shape: [17],
    chunkShape: [5],
    dataType: "int16",
    codecs: [
      { name: "transpose", configuration: { order: [0] } },
      { name: "bytes", configuration: { endian: "big" } },
    ],
    fillValue: -1,
  });
  await set(b, [slice(2, 15)], Int16Array.from({ length: 13 }, (_, i) => i * 100 - 600));
  return store;
}

describe("round trip through @zarr/core", () => {
  for (const compression of ["stored", "deflate"] as const) {
    it(`writeZip (${compression}) then ZipStore reads identical bytes and values`, async () => {
      const dir = tempDir();
      const source = await buildHierarchy(path.join(dir, "data.zarr"));
      const target = new FileSystemStore(dir);
      const progress: number[] = [];
      const summary = await writeZip(source, target, "data.zarr.zip", {
        compression,
        onProgress: (p) => progress.push(p.done / p.total),
      });
      const keys = (await collect(source.list())).sort();
      expect(summary.entries).toBe(keys.length);
      expect(progress.at(-1)).toBe(1);
      expect(progress.length).toBe(keys.length);
      const counting = new CountingStore(target);
      const zip = new ZipStore(counting, "data.zarr.zip");
      expect(await collect(zip.list())).toEqual(keys);
      for (const key of keys) expectBytes(await zip.get(key), await source.get(key), key);
      expect(await zip.listDir("group with spaces/")).toEqual({ keys: ["zarr.json"], prefixes: ["ünï"] });

      const t = await get(await openArray(zip, "temperature"), [slice(1, 3), slice(2, 5)]);
      expect([...(t.data as Float64Array)]).toEqual([3, 3.5, 4, 8, 8.5, 9]);
      const c = await get(await openArray(zip, "group with spaces/ünï/counts"));
      expect([...(c.data as Int16Array)]).toEqual([-1, -1, ...Array.from({ length: 13 }, (_, i) => i * 100 - 600), -1, -1]);
      expect(counting.gets).toBe(0); // everything through byte ranges
    });
  }

  it("writeZipFile streams the same archive to a file", async () => {
    const dir = tempDir();
    const source = await buildHierarchy(path.join(dir, "data.zarr"));
    const file = path.join(dir, "streamed.zip");
    const summary = await writeZipFile(source, file);
    const zip = new ZipStore(new FileSystemStore(dir), "streamed.zip");
    expect((await zip.open()).size).toBe(summary.size);
    for (const key of await collect(source.list())) expectBytes(await zip.get(key), await source.get(key), key);
    // Identical to the in-memory writer's output given the same time stamp.
    const modified = new Date(2024, 0, 2, 3, 4, 6);
    await writeZipFile(source, path.join(dir, "a.zip"), { modified });
    await writeZip(source, new FileSystemStore(dir), "b.zip", { modified });
    const fs = new FileSystemStore(dir);
    expectBytes(await fs.get("a.zip"), await fs.get("b.zip"));
  });

  it("zipping a store into itself leaves the archive out", async () => {
    const store = new MemoryStore();
    await store.set("x/zarr.json", new TextEncoder().encode("{}"));
    await writeZip(store, store, "self.zip");
    await writeZip(store, store, "self.zip"); // the second run must not include the first archive
    const zip = new ZipStore(store, "self.zip", { autoPrefix: false });
    expect(await collect(zip.list())).toEqual(["x/zarr.json"]);
  });
});

describe("property: any store round-trips through writeZip and ZipStore", () => {
  const segment = fc.stringMatching(/^[a-zA-Z0-9 _.éü日-]{1,8}$/).filter((s) => s !== "." && s !== "..");
  const key = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));
  const values = fc.dictionary(key, fc.uint8Array({ maxLength: 2000 }), { minKeys: 1, maxKeys: 12 });

  it("get, getRange, getSize and listings agree with the source", async () => {
    await fc.assert(
      fc.asyncProperty(
        values,
        fc.constantFrom("stored", "deflate"),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(2100), fc.nat(2100)), { minLength: 1, maxLength: 4 }),
        async (entries, compression, forceZip64, ranges) => {
          // A key that is also a folder of another key cannot exist in a real store.
          const keys = Object.keys(entries).filter((k) => !Object.keys(entries).some((o) => o.startsWith(`${k}/`)));
          const source = new MemoryStore();
          for (const k of keys) await source.set(k, entries[k]);
          const target = new MemoryStore();
          await writeZip(source, target, "p.zip", { compression, forceZip64 });
          const zip = new ZipStore(new BytesStore({ "p.zip": (await target.get("p.zip")) as Uint8Array }), "p.zip");
          expect(await collect(zip.list())).toEqual(keys.slice().sort());
          for (const k of keys) {
            const v = entries[k];
            expectBytes(await zip.get(k), v, k);
            expect(await zip.getSize(k)).toBe(v.length);
            for (const [offset, length] of ranges) {
              expectBytes(await zip.getRange(k, { offset, length }), v.slice(offset, offset + length), k);
            }
          }
          const root = await zip.listDir("");
          const expected = await source.listDir("");
          expect(root.keys.slice().sort()).toEqual(expected.keys.slice().sort());
          expect(root.prefixes.slice().sort()).toEqual(expected.prefixes.slice().sort());
        },
      ),
      { numRuns: 60 },
    );
  });
});
