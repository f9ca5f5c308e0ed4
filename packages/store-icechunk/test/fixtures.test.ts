/**
 * Icechunk's read-compatibility repositories read to exactly what its own test
 * (test_can_read_old.py beside them) expects: history, refs, listings, attributes and
 * values on every branch and tag, and the virtual chunk's reference.
 */
import { get, MemoryStore, open, openArray, type ZarrArray, ZarrError } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { IcechunkRepository, type IcechunkStore, openIcechunk } from "../src/index.js";
import { ARRAY_ATTRS, BRANCH_HISTORY, BRANCHES, GROUP_ATTRS, MAIN_HISTORY, SNAPSHOT_VALUES, TAGS, VIRTUAL_CONTAINER, VIRTUAL_LOCATION } from "./expected.js";
import { fixture, registry } from "./helpers.js";

async function values(store: IcechunkStore, path: string): Promise<number[]> {
  const array = (await openArray(store, path, { registry })) as ZarrArray;
  return Array.from((await get(array, null)).data as ArrayLike<number>);
}

/** A store whose virtual chunk container `s3://testbucket/` holds the chunk the test writes to MinIO: the bytes of c/0/1. */
async function withVirtualChunk(repo: IcechunkRepository, version: Parameters<IcechunkRepository["store"]>[0]): Promise<IcechunkStore> {
  const plain = await repo.store(version);
  const bucket = new MemoryStore();
  const chunk = await plain.get("group1/big_chunks/c/0/1");
  if (chunk !== undefined) await bucket.set("can_read_old/chunk-1", chunk);
  return repo.store(version, {
    virtualChunks: { containers: [VIRTUAL_CONTAINER], stores: { s3: () => bucket }, verifyChecksums: false },
  });
}

async function listDir(store: IcechunkStore, prefix: string): Promise<string[]> {
  const { keys, prefixes } = await store.listDir(prefix, { uncheckedPrefixes: true });
  return [...keys, ...prefixes].sort();
}

for (const name of ["test-repo-v1", "test-repo-v2"]) {
  describe(name, () => {
    it("has the branches, tags and histories of test_can_read_old.py", async () => {
      const repo = await IcechunkRepository.open(fixture(name));
      expect(repo.specVersion).toBe(name.endsWith("v1") ? 1 : 2);
      expect(await repo.listBranches()).toEqual(BRANCHES);
      expect(await repo.listTags()).toEqual(TAGS);
      const messages = async (v: Parameters<IcechunkRepository["ancestry"]>[0]) => (await repo.ancestry(v)).map((s) => s.message);
      expect(await messages({ branch: "main" })).toEqual(MAIN_HISTORY);
      expect(await messages({ snapshot: await repo.resolve({ branch: "main" }) })).toEqual(MAIN_HISTORY);
      expect(await messages({ branch: "my-branch" })).toEqual(BRANCH_HISTORY);
      expect(await messages({ tag: "it also works!" })).toEqual(BRANCH_HISTORY);
      expect(await messages({ tag: "it works!" })).toEqual(BRANCH_HISTORY.slice(1));
      const history = await repo.ancestry({ branch: "my-branch" });
      for (let i = 0; i + 1 < history.length; i++) {
        expect(history[i].parentId).toBe(history[i + 1].id);
        expect(history[i].flushedAt.getTime()).toBeGreaterThanOrEqual(history[i + 1].flushedAt.getTime());
      }
      expect(history.at(-1)?.parentId).toBeUndefined();
    });

    it("refuses the deleted tag and unknown refs with NODE_NOT_FOUND", async () => {
      const repo = await IcechunkRepository.open(fixture(name));
      for (const version of [{ tag: "deleted" }, { branch: "nope" }, { tag: "nope" }]) {
        const error = await repo.store(version).catch((e) => e);
        expect(error).toBeInstanceOf(ZarrError);
        expect(error.code).toBe("NODE_NOT_FOUND");
        expect(error.message).toContain("ref not found");
      }
      const missing = await repo.store({ snapshot: "0000000000000000000G" }).catch((e) => e);
      expect(missing.code).toBe("NODE_NOT_FOUND");
      expect(missing.message).toContain("0000000000000000000G");
    });

    it("lists my-branch as list_dir does", async () => {
      const store = await openIcechunk(fixture(name), { branch: "my-branch" });
      expect(await listDir(store, "")).toEqual(["group1", "group2", "zarr.json"]);
      expect(await listDir(store, "group1/")).toEqual(["big_chunks", "small_chunks", "zarr.json"]);
      expect(await listDir(store, "group2/")).toEqual(["group3", "zarr.json"]);
      expect(await listDir(store, "group2/group3/")).toEqual(["group4", "zarr.json"]);
      expect(await listDir(store, "group2/group3/group4/")).toEqual(["group5", "zarr.json"]);
      expect(await listDir(store, "group2/group3/group4/group5/")).toEqual(["inner", "zarr.json"]);
      expect(await listDir(store, "group2/group3/group4/group5/inner/")).toEqual(["c", "zarr.json"]);
      // Without uncheckedPrefixes, only folders holding keys: inner has no chunk.
      expect(await store.listDir("group2/group3/group4/group5/inner/")).toEqual({ keys: ["zarr.json"], prefixes: [] });
      expect(await store.listDir("group1/small_chunks/c/")).toEqual({ keys: ["0", "1", "2", "3"], prefixes: [] });
      const keys: string[] = [];
      for await (const key of store.list()) keys.push(key);
      expect(keys.filter((k) => k.startsWith("group1/small_chunks/")).sort()).toEqual([
        "group1/small_chunks/c/0", "group1/small_chunks/c/1", "group1/small_chunks/c/2", "group1/small_chunks/c/3", "group1/small_chunks/zarr.json",
      ]);
      expect(keys.filter((k) => k.endsWith("zarr.json")).length).toBe(9);
    });

    it("reads the attributes and values of my-branch", async () => {
      const store = await withVirtualChunk(await IcechunkRepository.open(fixture(name)), { branch: "my-branch" });
      const group1 = await open(store, "group1", { registry });
      expect(group1.attributes).toEqual(GROUP_ATTRS);
      for (const g of ["group2", "group2/group3", "group2/group3/group4", "group2/group3/group4/group5"]) {
        expect((await open(store, g, { registry })).attributes).toEqual(GROUP_ATTRS);
      }
      for (const a of ["group1/big_chunks", "group1/small_chunks", "group2/group3/group4/group5/inner"]) {
        expect((await open(store, a, { registry })).attributes).toEqual(ARRAY_ATTRS);
      }
      const inner = await values(store, "group2/group3/group4/group5/inner");
      expect(inner).toHaveLength(100);
      expect(inner.every(Number.isNaN)).toBe(true);
      expect(await values(store, "group1/small_chunks")).toEqual([84, 84, 84, 84, 8]);
      expect(await values(store, "group1/big_chunks")).toEqual(new Array(100).fill(42));
    });

    it("reads every branch, tag and snapshot of the history", async () => {
      const repo = await IcechunkRepository.open(fixture(name));
      const versions = [{ branch: "main" }, { branch: "my-branch" }, { tag: "it works!" }, { tag: "it also works!" }];
      for (const summary of await repo.ancestry({ branch: "my-branch" })) versions.push({ snapshot: summary.id } as never);
      for (const version of versions) {
        const [head] = await repo.ancestry(version);
        const store = await withVirtualChunk(repo, version);
        if (head.message === "Repository initialized") {
          // The first snapshot is empty: not even a root group.
          expect(await store.listDir("")).toEqual({ keys: [], prefixes: [] });
          expect(await store.get("zarr.json")).toBeUndefined();
          continue;
        }
        const want = SNAPSHOT_VALUES[head.message];
        expect(await values(store, "group1/small_chunks"), JSON.stringify(version)).toEqual(want.small);
        expect(await values(store, "group1/big_chunks"), JSON.stringify(version)).toEqual(new Array(100).fill(want.big));
      }
    });

    it("parses the virtual chunk's reference exactly and refuses to read it without its container", async () => {
      const store = await openIcechunk(fixture(name));
      const ref = await store.chunkRef("group1/big_chunks/c/0/0");
      const native = await store.chunkRef("group1/big_chunks/c/0/1");
      expect(native?.kind).toBe("native");
      expect(ref).toMatchObject({ kind: "virtual", location: VIRTUAL_LOCATION, offset: 0, length: native?.kind === "native" ? native.length : -1 });
      expect(ref?.kind === "virtual" && ref.length).toBe(19);
      for (const read of [() => store.get("group1/big_chunks/c/0/0"), () => store.getRange("group1/big_chunks/c/0/0", { offset: 0, length: 4 })]) {
        const error = await read().catch((e) => e);
        expect(error).toBeInstanceOf(ZarrError);
        expect(error.code).toBe("UNSUPPORTED");
        expect(error.message).toContain('"s3://testbucket/"');
        expect(error.message).toContain(VIRTUAL_LOCATION);
      }
      const array = (await openArray(store, "group1/big_chunks", { registry })) as ZarrArray;
      await expect(get(array, null)).rejects.toMatchObject({ code: "UNSUPPORTED" });
      // A container for another bucket does not open this one either.
      const other = await openIcechunk(fixture(name), { virtualChunks: { containers: ["s3://testbucket-2/"], stores: { s3: () => new MemoryStore() } } });
      await expect(other.get("group1/big_chunks/c/0/0")).rejects.toMatchObject({ code: "UNSUPPORTED" });
    });

    it("checks the virtual chunk's recorded modification time", async () => {
      const repo = await IcechunkRepository.open(fixture(name));
      const ref = await (await repo.store()).chunkRef("group1/big_chunks/c/0/0");
      const recorded = ref?.kind === "virtual" ? (ref.lastModified as number) : 0;
      expect(recorded).toBeGreaterThan(0);
      const bucket = new MemoryStore();
      await bucket.set("can_read_old/chunk-1", new Uint8Array(19).fill(7));
      const at = (seconds: number) =>
        repo.store({ branch: "main" }, { virtualChunks: { containers: ["s3://testbucket"], stores: { s3: () => bucket }, lastModified: async () => new Date(seconds * 1000) } });
      expect(await (await at(recorded)).get("group1/big_chunks/c/0/0")).toEqual(new Uint8Array(19).fill(7));
      await expect((await at(recorded + 1)).get("group1/big_chunks/c/0/0")).rejects.toMatchObject({ code: "CHECKSUM_MISMATCH" });
      // No way to check: refused rather than read unchecked.
      const unchecked = await repo.store({ branch: "main" }, { virtualChunks: { containers: ["s3://testbucket/"], stores: { s3: () => bucket } } });
      await expect(unchecked.get("group1/big_chunks/c/0/0")).rejects.toMatchObject({ code: "UNSUPPORTED" });
    });
  });
}

describe("split-repo-v2", () => {
  it("has the history and manifest files of test_can_read_old.py and reads every snapshot", async () => {
    const repo = await IcechunkRepository.open(fixture("split-repo-v2"));
    const history = (await repo.ancestry({ branch: "main" })).reverse();
    expect(history.map((s) => s.message)).toEqual([
      "Repository initialized", "empty structure", "write data", "write data again", "write data again with more splits",
    ]);
    const manifestCounts = [];
    for (const s of history.slice(1)) manifestCounts.push((await repo.snapshot(s.id)).manifestFiles.length);
    expect(manifestCounts).toEqual([0, 9, 9, 17]);
    const expected = [
      { split: Number.NaN, small: 8 },
      { split: 120, small: 0 },
      { split: 12, small: 1 },
      { split: 14, small: 3 },
    ];
    for (const [i, s] of history.slice(1).entries()) {
      const store = await repo.store({ snapshot: s.id });
      expect(await values(store, "group1/split")).toEqual(new Array(100).fill(expected[i].split));
      expect(await values(store, "group1/small_chunks")).toEqual(new Array(5).fill(expected[i].small));
      const split = await open(store, "group1/split", { registry });
      expect(split.attributes).toEqual(ARRAY_ATTRS);
      expect((split as ZarrArray).metadata.dimension_names).toEqual([null, "longitude"]);
    }
  });

  it("reads one chunk of a split array with one manifest", async () => {
    const storage = fixture("split-repo-v2");
    const { CountingStore } = await import("@zarr/store-utils");
    const counting = new CountingStore(storage);
    const store = await openIcechunk(counting);
    expect(counting.reads).toBe(2); // repo, snapshot
    expect((await store.get("group1/split/c/3/3"))?.length).toBeGreaterThan(0);
    expect(counting.requests.map((r) => r.key)).toEqual(["repo", expect.stringMatching(/^snapshots\//), expect.stringMatching(/^manifests\//), expect.stringMatching(/^chunks\//)]);
  });
});

