import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { collect, freshRoot, rejectsWith, tempDir, utf8 } from "./helpers.js";

const KEYS = [
  "zarr.json",
  "a/zarr.json",
  "a/b/zarr.json",
  "a/b/c/0/0",
  "a/b/c/0/1",
  "a/b/c/1/0",
  "a/bc",
  "my group with spaces/zarr.json",
  "ünï/κόσμος/0",
  "v2/.zarray",
  "v2/.zattrs",
  "v2/0.0",
];

async function populated(blockingReads: boolean): Promise<{ root: string; store: FileSystemStore }> {
  const root = tempDir();
  const store = new FileSystemStore(root, { blockingReads });
  for (const key of KEYS) await store.set(key, utf8(key));
  return { root, store };
}

// Listings walk directories through the thread pool or, with blockingReads, with blocking calls: both alike.
describe.each([false, true])("blockingReads: %s", (blockingReads) => {
  describe("list / listPrefix", () => {
    it("list yields every key, including nested, unicode, space and dot names", async () => {
      const { store } = await populated(blockingReads);
      expect(await collect(store.list())).toEqual([...KEYS].sort());
    });

    it("listPrefix matches string prefixes that need not end in /", async () => {
      const { store } = await populated(blockingReads);
      expect(await collect(store.listPrefix("a/b"))).toEqual(
        ["a/b/zarr.json", "a/b/c/0/0", "a/b/c/0/1", "a/b/c/1/0", "a/bc"].sort(),
      );
      expect(await collect(store.listPrefix("a/b/"))).toEqual(
        ["a/b/zarr.json", "a/b/c/0/0", "a/b/c/0/1", "a/b/c/1/0"].sort(),
      );
      expect(await collect(store.listPrefix("a/b/c/0/"))).toEqual(["a/b/c/0/0", "a/b/c/0/1"]);
      expect(await collect(store.listPrefix("my"))).toEqual(["my group with spaces/zarr.json"]);
      expect(await collect(store.listPrefix("v2/."))).toEqual(["v2/.zarray", "v2/.zattrs"]);
      expect(await collect(store.listPrefix("z"))).toEqual(["zarr.json"]);
      expect(await collect(store.listPrefix(""))).toEqual([...KEYS].sort());
      expect(await collect(store.listPrefix("nothing"))).toEqual([]);
      expect(await collect(store.listPrefix("no/such/dir/"))).toEqual([]);
    });

    it("every key from listPrefix starts with the prefix and every such key is listed (all prefixes)", async () => {
      const { store } = await populated(blockingReads);
      const candidates = new Set<string>([""]);
      for (const key of KEYS) for (let i = 1; i <= key.length; i++) candidates.add(key.slice(0, i));
      for (const prefix of candidates) {
        const expected = KEYS.filter((k) => k.startsWith(prefix)).sort();
        expect(await collect(store.listPrefix(prefix)), prefix).toEqual(expected);
      }
    });

    it("refuses escaping prefixes", async () => {
      const { store } = await populated(blockingReads);
      await rejectsWith(collect(store.listPrefix("../")), "KEY_INVALID");
      await rejectsWith(collect(store.listPrefix("a/../../x")), "KEY_INVALID");
      await rejectsWith(collect(store.listPrefix("/etc/pa")), "KEY_INVALID");
      await rejectsWith(collect(store.listPrefix("a\\b")), "KEY_INVALID");
    });
  });

  describe("listDir", () => {
    it("lists one level, sorted, names relative to the prefix", async () => {
      const { store } = await populated(blockingReads);
      expect(await store.listDir("")).toEqual({
        keys: ["zarr.json"],
        prefixes: ["a", "my group with spaces", "v2", "ünï"],
      });
      expect(await store.listDir("a/")).toEqual({ keys: ["bc", "zarr.json"], prefixes: ["b"] });
      expect(await store.listDir("a/b/")).toEqual({ keys: ["zarr.json"], prefixes: ["c"] });
      expect(await store.listDir("a/b/c/")).toEqual({ keys: [], prefixes: ["0", "1"] });
      expect(await store.listDir("a/b/c/0/")).toEqual({ keys: ["0", "1"], prefixes: [] });
      expect(await store.listDir("v2/")).toEqual({ keys: [".zarray", ".zattrs", "0.0"], prefixes: [] });
      expect(await store.listDir("ünï/")).toEqual({ keys: [], prefixes: ["κόσμος"] });
    });

    it("gives empty results for missing directories and for a file", async () => {
      const { store } = await populated(blockingReads);
      expect(await store.listDir("missing/")).toEqual({ keys: [], prefixes: [] });
      expect(await store.listDir("a/bc/")).toEqual({ keys: [], prefixes: [] });
    });

    it("requires a prefix that is empty or ends in /", async () => {
      const { store } = await populated(blockingReads);
      await rejectsWith(store.listDir("a"), "KEY_INVALID");
      await rejectsWith(store.listDir("../"), "KEY_INVALID");
    });

    it("does not report directories left empty by deletes", async () => {
      const { root, store } = await populated(blockingReads);
      await store.delete("a/b/c/1/0");
      expect(fs.existsSync(path.join(root, "a", "b", "c", "1"))).toBe(true); // left behind
      expect(await store.listDir("a/b/c/")).toEqual({ keys: [], prefixes: ["0"] });
      await store.delete("a/b/c/0/0");
      await store.delete("a/b/c/0/1");
      expect(await store.listDir("a/b/")).toEqual({ keys: ["zarr.json"], prefixes: [] });
      expect(await collect(store.listPrefix("a/b/c"))).toEqual([]);
      fs.mkdirSync(path.join(root, "empty", "deeper"), { recursive: true });
      expect((await store.listDir("")).prefixes).not.toContain("empty");
    });

    it("with uncheckedPrefixes reports every child directory, empty or not, without opening them", async () => {
      const { root, store } = await populated(blockingReads);
      fs.mkdirSync(path.join(root, "a", "empty", "deeper"), { recursive: true });
      expect(await store.listDir("a/")).toEqual({ keys: ["bc", "zarr.json"], prefixes: ["b"] });
      const opened = vi.spyOn(fs, blockingReads ? "opendirSync" : "opendir");
      try {
        expect(await store.listDir("a/", { uncheckedPrefixes: true })).toEqual({ keys: ["bc", "zarr.json"], prefixes: ["b", "empty"] });
        expect(opened).not.toHaveBeenCalled();
        await store.listDir("a/");
        expect(opened).toHaveBeenCalled(); // the checked listing opens them (the spy does see it)
      } finally {
        opened.mockRestore();
      }
      // Links stay filtered: an unchecked listing still never leads out of the root.
      fs.symlinkSync(tempDir(), path.join(root, "a", "escape"));
      expect((await store.listDir("a/", { uncheckedPrefixes: true })).prefixes).toEqual(["b", "empty"]);
    });
  });

  describe("temporary files", () => {
    it("are never listed, and a directory holding only them is not a prefix", async () => {
      const { root, store } = await populated(blockingReads);
      fs.writeFileSync(path.join(root, "a", ".zarr.json.0123456789abcdef.zarr-tmp"), "partial");
      fs.mkdirSync(path.join(root, "pending"));
      fs.writeFileSync(path.join(root, "pending", ".0.fedcba9876543210.zarr-tmp"), "partial");
      expect(await collect(store.list())).toEqual([...KEYS].sort());
      expect(await store.listDir("a/")).toEqual({ keys: ["bc", "zarr.json"], prefixes: ["b"] });
      expect((await store.listDir("")).prefixes).not.toContain("pending");
    });

    it("names of that form are refused as keys", async () => {
      const store = new FileSystemStore(tempDir(), { blockingReads });
      await rejectsWith(store.set("a/.x.0123.zarr-tmp", utf8("x")), "KEY_INVALID");
      await rejectsWith(store.get(".zarr.json.abcd.zarr-tmp"), "KEY_INVALID");
    });
  });

  describe("symbolic links in listings", () => {
    it("skips links leading out of the root by default", async () => {
      const { root, store } = await populated(blockingReads);
      const outside = tempDir();
      fs.writeFileSync(path.join(outside, "marker"), "m");
      fs.symlinkSync(outside, path.join(root, "escape"));
      fs.symlinkSync(path.join(outside, "marker"), path.join(root, "a", "marker-link"));
      fs.symlinkSync(path.join(root, "v2"), path.join(root, "v2-alias")); // inside: followed
      expect(await collect(store.list())).toEqual([...KEYS, "v2-alias/.zarray", "v2-alias/.zattrs", "v2-alias/0.0"].sort());
      expect((await store.listDir("")).prefixes).not.toContain("escape");
      expect((await store.listDir("a/")).keys).not.toContain("marker-link");
      await rejectsWith(store.listDir("escape/"), "KEY_INVALID");
      await rejectsWith(collect(store.listPrefix("escape/")), "KEY_INVALID");
    });

    it("follows links to files and directories with followSymlinks, and stops at cycles", async () => {
      const { root } = await populated(blockingReads);
      const store = new FileSystemStore(root, { followSymlinks: true, blockingReads });
      const outside = tempDir();
      fs.writeFileSync(path.join(outside, "shared.bin"), "s");
      fs.symlinkSync(path.join(outside, "shared.bin"), path.join(root, "a", "link.bin"));
      fs.symlinkSync(path.join(root, "v2"), path.join(root, "v2-alias")); // link to a sibling
      fs.symlinkSync("..", path.join(root, "a", "up")); // cycle back to the root
      fs.symlinkSync(".", path.join(root, "a", "b", "self")); // cycle to itself
      fs.symlinkSync(path.join(root, "nowhere"), path.join(root, "dangling"));
      const expected = [...KEYS, "a/link.bin", "v2-alias/.zarray", "v2-alias/.zattrs", "v2-alias/0.0"].sort();
      expect(await collect(store.list())).toEqual(expected);
      expect(await store.listDir("a/")).toEqual({ keys: ["bc", "link.bin", "zarr.json"], prefixes: ["b"] });
      expect((await store.listDir("")).prefixes).toEqual(["a", "my group with spaces", "v2", "v2-alias", "ünï"]);
      expect(await store.get("v2-alias/.zarray")).toEqual(utf8("v2/.zarray"));
    });

    it("stops at a cycle made of two links outside the root (followSymlinks)", async () => {
      const root = tempDir();
      const store = new FileSystemStore(root, { followSymlinks: true, blockingReads });
      await store.set("k", utf8("k"));
      const a = tempDir();
      const b = tempDir();
      fs.symlinkSync(b, path.join(a, "to-b"));
      fs.symlinkSync(a, path.join(b, "to-a"));
      fs.writeFileSync(path.join(b, "in-b"), "b");
      fs.symlinkSync(a, path.join(root, "ext"));
      expect(await collect(store.list())).toEqual(["ext/to-b/in-b", "k"]);
      expect((await store.listDir("")).prefixes).toEqual(["ext"]);
    });

    it("skips entries whose names cannot be keys (a backslash, possible on POSIX)", async () => {
      const { root, store } = await populated(blockingReads);
      fs.writeFileSync(path.join(root, "back\\slash"), "x");
      fs.mkdirSync(path.join(root, "dir\\name"));
      fs.writeFileSync(path.join(root, "dir\\name", "k"), "x");
      expect(await collect(store.list())).toEqual([...KEYS].sort());
      expect((await store.listDir("")).keys).toEqual(["zarr.json"]);
    });
  });

  describe("missing root", () => {
    it("lists nothing", async () => {
      const { root } = freshRoot();
      const store = new FileSystemStore(root, { blockingReads });
      expect(await collect(store.list())).toEqual([]);
      expect(await collect(store.listPrefix("a/b"))).toEqual([]);
      expect(await store.listDir("")).toEqual({ keys: [], prefixes: [] });
      expect(await store.listDir("a/")).toEqual({ keys: [], prefixes: [] });
      expect(fs.existsSync(root)).toBe(false);
    });
  });
});
