/**
 * Repositories written by the test-only writer (bench/lib/icechunk-writer.mjs, built with
 * the official flatbuffers Builder) read back to what a plain Zarr store holds: spec 1 and
 * 2, split manifests, inline and virtual chunks, a repository migrated from 1 to 2, and the
 * number of requests a read costs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createArray, createGroup, get, MemoryStore, openArray, set, slice, type ZarrArray } from "@zarr/core";
import { CountingStore } from "@zarr/store-utils";
import { describe, expect, it } from "vitest";
import { encodeFile, FILE_TYPE, IcechunkWriter, icechunkFromZarr, repoInfoPayload } from "../../../bench/lib/icechunk-writer.mjs";
import { decodeObjectId, IcechunkRepository, openIcechunk } from "../src/index.js";
import { FIXTURES, fixture, registry } from "./helpers.js";

async function plainHierarchy(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await createGroup(store, "", { attributes: { title: "roundtrip" } });
  const a = await createArray(store, "data/t2m", {
    shape: [7, 9], chunkShape: [3, 4], dataType: "float32", fillValue: -1,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 1, checksum: false } }],
    dimensionNames: ["y", "x"], registry,
  });
  await set(a, null, Float32Array.from({ length: 63 }, (_, i) => i * 0.5));
  const b = await createArray(store, "data/flags", { shape: [10], chunkShape: [4], dataType: "uint8", fillValue: 3 });
  await set(b, [slice(0, 4)], new Uint8Array([1, 2, 3, 4]));
  return store;
}

async function read(store: Parameters<typeof openArray>[0], path: string): Promise<number[]> {
  return Array.from((await get((await openArray(store, path, { registry })) as ZarrArray, null)).data as ArrayLike<number>);
}

describe("a Zarr hierarchy copied into a repository", () => {
  for (const specVersion of [1, 2] as const) {
    for (const splitSize of [undefined, 1, 2]) {
      it(`reads the same values (spec ${specVersion}, split ${splitSize ?? "none"})`, async () => {
        const plain = await plainHierarchy();
        const repoStore = new MemoryStore();
        await icechunkFromZarr(plain, repoStore, { specVersion, splitSize });
        const store = await openIcechunk(repoStore);
        for (const path of ["data/t2m", "data/flags"]) expect(await read(store, path)).toEqual(await read(plain, path));
        const json = async (s: { get(k: string): Promise<Uint8Array | undefined> }) => JSON.parse(new TextDecoder().decode(await s.get("data/t2m/zarr.json")));
        expect(await json(store)).toEqual(await json(plain));
        const keys: string[] = [];
        for await (const k of store.list()) keys.push(k);
        const plainKeys: string[] = [];
        for await (const k of plain.list()) plainKeys.push(k);
        expect(keys.sort()).toEqual(plainKeys.sort());
        // Byte ranges of a native chunk are ranges of its chunk file.
        const chunk = (await plain.get("data/t2m/c/1/1")) as Uint8Array;
        expect(await store.getRange("data/t2m/c/1/1", { offset: 2, length: 5 })).toEqual(chunk.subarray(2, 7));
        expect(await store.getRange("data/t2m/c/1/1", { suffixLength: 4 })).toEqual(chunk.subarray(chunk.length - 4));
        expect(await store.getRange("data/t2m/c/1/1", { offset: chunk.length - 2, length: 100 })).toEqual(chunk.subarray(chunk.length - 2));
        expect(await store.getSize("data/t2m/c/1/1")).toBe(chunk.length);
        // Keys outside the grid or not chunk keys at all are missing, not errors.
        for (const key of ["data/t2m/c/3/0", "data/t2m/c/0", "data/t2m/c/00/0", "data/t2m/x", "data/zarr.json/x", "nope/zarr.json"]) {
          expect(await store.get(key), key).toBeUndefined();
        }
      });
    }
  }
});

describe("an array at the root of the repository", () => {
  it("resolves chunk keys that have no array path before them", async () => {
    const plain = new MemoryStore();
    const root = await createArray(plain, "", { shape: [5], chunkShape: [2], dataType: "int16", fillValue: 0 });
    await set(root, null, new Int16Array([1, 2, 3, 4, 5]));
    const repoStore = new MemoryStore();
    await icechunkFromZarr(plain, repoStore);
    const store = await openIcechunk(repoStore);
    expect(await read(store, "")).toEqual([1, 2, 3, 4, 5]);
    expect(await store.listDir("c/")).toEqual({ keys: ["0", "1", "2"], prefixes: [] });
  });
});

describe("inline and virtual chunks written by the writer", () => {
  it("reads inline chunks, and virtual ones from an allowed container with ETag checks", async () => {
    const storage = new MemoryStore();
    const writer = new IcechunkWriter(storage);
    await writer.init();
    const metadata = {
      zarr_format: 3, node_type: "array", shape: [3], data_type: "uint8", chunk_grid: { name: "regular", configuration: { chunk_shape: [1] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } }, fill_value: 0, codecs: [{ name: "bytes" }], attributes: {},
    };
    const head = await writer.commit("refs", [
      { path: "/", metadata: { zarr_format: 3, node_type: "group", attributes: {} } },
      {
        path: "/a", metadata,
        chunks: [
          { index: [0], inline: new Uint8Array([9]) },
          { index: [1], location: "https://example.org/data/file.nc", offset: 3, length: 1, etag: '"abc"' },
          { index: [2], location: "https://example.org/data/file.nc", offset: 5, length: 1 },
        ],
      },
    ]);
    await writer.finish({ branches: { main: head } });
    const file = new MemoryStore();
    await file.set("file.nc", new Uint8Array([0, 1, 2, 30, 4, 50, 6]));
    const versioned = (version: string | undefined) => ({
      get: (k: string) => file.get(k),
      getRange: (k: string, r: { offset: number; length: number }) => file.getRange(k, r),
      getVersioned: async (k: string, r: { offset: number; length: number }) => {
        const bytes = await file.getRange(k, r);
        return bytes === undefined ? undefined : { bytes, version };
      },
    });
    const open = (version: string | undefined) =>
      openIcechunk(storage, { virtualChunks: { containers: ["https://example.org/data/"], stores: { https: () => versioned(version) } } });
    expect(await read(await open('"abc"'), "a")).toEqual([9, 30, 50]);
    await expect(read(await open('"changed"'), "a")).rejects.toMatchObject({ code: "CHECKSUM_MISMATCH" });
    await expect(read(await open(undefined), "a")).rejects.toMatchObject({ code: "UNSUPPORTED" });
    // Past the end of the object: refused, never short data.
    await file.set("file.nc", new Uint8Array([0, 1, 2, 30, 4]));
    await expect((await open('"abc"')).get("a/c/2")).rejects.toMatchObject({ code: "CODEC_FAILED", message: expect.stringContaining("past the end") });
  });
});

describe("a spec 1 repository migrated to spec 2", () => {
  it("reads test-repo-v1 through a spec 2 repo info file as test_can_read_old.py expects", async () => {
    // What Icechunk's migration does: the refs and parent links go into a repo info file; the spec 1 snapshots and manifests stay.
    const source = join(FIXTURES, "test-repo-v1");
    const storage = new MemoryStore();
    for (const dir of ["snapshots", "manifests", "chunks", "transactions"]) {
      for (const name of readdirSync(join(source, dir))) await storage.set(`${dir}/${name}`, new Uint8Array(readFileSync(join(source, dir, name))));
    }
    const old = await IcechunkRepository.open(fixture("test-repo-v1"));
    const history = await old.ancestry({ branch: "my-branch" });
    const order = [...history].reverse();
    const snapshots = order.map((s, i) => ({ id: decodeObjectId(s.id, 12), parent: i - 1, flushedAtMicros: s.flushedAtMicros, message: s.message }));
    const index = (id: string) => order.findIndex((s) => s.id === id);
    const payload = repoInfoPayload({
      snapshots,
      branches: { main: index(await old.resolve({ branch: "main" })), "my-branch": index(await old.resolve({ branch: "my-branch" })) },
      tags: { "it works!": index(await old.resolve({ tag: "it works!" })), "it also works!": index(await old.resolve({ tag: "it also works!" })) },
      deletedTags: ["deleted"],
    });
    await storage.set("repo", encodeFile(payload, FILE_TYPE.repoInfo));
    const repo = await IcechunkRepository.open(storage);
    expect(repo.specVersion).toBe(2);
    expect((await repo.ancestry({ tag: "it works!" })).map((s) => s.message)).toEqual(["delete a chunk", "set virtual chunk", "fill data", "empty structure", "Repository initialized"]);
    await expect(repo.store({ tag: "deleted" })).rejects.toMatchObject({ code: "NODE_NOT_FOUND" });
    const store = await repo.store({ branch: "my-branch" });
    expect(store.snapshot.specVersion).toBe(1);
    expect(await read(store, "group1/small_chunks")).toEqual([84, 84, 84, 84, 8]);
    expect((await store.listDir("group2/group3/group4/group5/")).prefixes).toEqual(["inner"]);
  });
});

describe("requests", () => {
  it("opens a repository of 1,000 arrays and reads one chunk in 4 requests", async () => {
    const storage = new MemoryStore();
    const writer = new IcechunkWriter(storage);
    await writer.init();
    const nodes = [{ path: "/", metadata: { zarr_format: 3, node_type: "group", attributes: {} } }] as Parameters<IcechunkWriter["commit"]>[1];
    for (let i = 0; i < 1000; i++) {
      nodes.push({
        path: `/v${i}`,
        metadata: {
          zarr_format: 3, node_type: "array", shape: [4], data_type: "int32", chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
          chunk_key_encoding: { name: "default", configuration: { separator: "/" } }, fill_value: 0, codecs: [{ name: "bytes", configuration: { endian: "little" } }], attributes: {},
        },
        chunks: [{ index: [0], ...(await writer.writeChunk(new Uint8Array(new Int32Array([i, i + 1, i + 2, i + 3]).buffer))) }],
      });
    }
    await writer.finish({ branches: { main: await writer.commit("1,000 arrays", nodes) } });
    const counting = new CountingStore(storage);
    const store = await openIcechunk(counting);
    expect(await read(store, "v737")).toEqual([737, 738, 739, 740]);
    expect(counting.reads).toBe(4);
    expect(counting.requests.map((r) => r.key.split("/")[0])).toEqual(["repo", "snapshots", "manifests", "chunks"]);
    // The manifest is cached: the next chunk of the same array costs one request.
    counting.reset();
    expect(await store.get("v737/c/0")).toBeDefined();
    expect(counting.reads).toBe(1);
  });
});

