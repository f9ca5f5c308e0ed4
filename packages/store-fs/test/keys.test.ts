import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { isInside, keyToPath, prefixToPath, splitStringPrefix } from "../src/key-paths.js";
import { collect, filesOnDisk, freshRoot, rejectsWith, tempDir, text, utf8 } from "./helpers.js";

/** Keys that must never reach the file system. */
function attackKeys(sandbox: string): string[] {
  return [
    "../escaped",
    "../../escaped",
    "a/../../escaped",
    "a/../escaped",
    "..",
    ".",
    "./a",
    "a/./b",
    "a//b",
    "a/",
    "/a",
    path.join(sandbox, "escaped"), // absolute path to a real place outside the root
    "\\..\\escaped",
    "a\\..\\..\\escaped",
    "..\\escaped",
    "C:/escaped",
    "c:\\escaped",
    "x\0y",
    "../escaped\0.txt",
    "",
  ];
}

describe("escaping keys", () => {
  it("are refused by every method with KEY_INVALID, and nothing is written anywhere", async () => {
    const { sandbox, root } = freshRoot();
    const store = new FileSystemStore(root);
    for (const key of attackKeys(sandbox)) {
      const label = JSON.stringify(key);
      expect((await rejectsWith(store.set(key, utf8("pwned")), "KEY_INVALID")).key, label).toBe(key);
      await rejectsWith(store.get(key), "KEY_INVALID");
      await rejectsWith(store.getRange(key, { offset: 0, length: 1 }), "KEY_INVALID");
      await rejectsWith(store.getRange(key, { suffixLength: 1 }), "KEY_INVALID");
      await rejectsWith(store.getSize(key), "KEY_INVALID");
      await rejectsWith(store.delete(key), "KEY_INVALID");
    }
    // Nothing was created: not the root, not a file beside it.
    expect(fs.readdirSync(sandbox)).toEqual([]);
  });

  it("refuses escaping prefixes for deletePrefix, listDir and listPrefix", async () => {
    const { sandbox, root } = freshRoot();
    const victim = path.join(sandbox, "victim.txt");
    fs.writeFileSync(victim, "keep me");
    const store = new FileSystemStore(root);
    await store.set("a/k", utf8("k"));
    for (const prefix of ["../", "a/../../", "/", `${sandbox}/`, "..\\", "a/./", "a//", "\0/"]) {
      await rejectsWith(store.deletePrefix(prefix), "KEY_INVALID");
      await rejectsWith(store.listDir(prefix), "KEY_INVALID");
      await rejectsWith(collect(store.listPrefix(prefix)), "KEY_INVALID");
    }
    expect(fs.readFileSync(victim, "utf8")).toBe("keep me");
    expect(await collect(store.list())).toEqual(["a/k"]);
  });

  it("accepts unusual but valid keys inside the root", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    const keys = ["my group with spaces/zarr.json", "ünï/κόσμος/数据", "..a/b..", "a/...", ".zattrs", "emoji 🌍/c/0"];
    for (const key of keys) await store.set(key, utf8(key));
    for (const key of keys) expect(text(await store.get(key))).toBe(key);
    expect(filesOnDisk(root)).toEqual([...keys].sort());
  });
});

describe("symbolic links pointing outside the root", () => {
  function setup() {
    const { sandbox, root } = freshRoot();
    const outside = path.join(sandbox, "outside");
    fs.mkdirSync(outside);
    fs.mkdirSync(path.join(outside, "sub"));
    fs.writeFileSync(path.join(outside, "secret"), "secret");
    fs.writeFileSync(path.join(outside, "sub", "deep"), "deep");
    fs.mkdirSync(root);
    fs.symlinkSync(outside, path.join(root, "evil"));
    fs.mkdirSync(path.join(root, "group"));
    fs.symlinkSync(path.join(outside, "secret"), path.join(root, "group", "secret-link"));
    const snapshot = () => filesOnDisk(outside).map((f) => [f, fs.readFileSync(path.join(outside, f), "utf8")]);
    return { root, outside, store: new FileSystemStore(root), snapshot, before: snapshot() };
  }

  it("writes through them are refused and create nothing outside", async () => {
    const { outside, store, snapshot, before } = setup();
    await rejectsWith(store.set("evil/new", utf8("x")), "KEY_INVALID");
    await rejectsWith(store.set("evil/secret", utf8("x")), "KEY_INVALID");
    // Missing directories below the link must not be created before the check.
    await rejectsWith(store.set("evil/made/up/dirs/k", utf8("x")), "KEY_INVALID");
    await rejectsWith(store.set("evil/sub/new", utf8("x")), "KEY_INVALID");
    expect(snapshot()).toEqual(before);
    expect(fs.readdirSync(outside).sort()).toEqual(["secret", "sub"]);
  });

  it("deletes through them are refused", async () => {
    const { store, snapshot, before } = setup();
    await rejectsWith(store.delete("evil/secret"), "KEY_INVALID");
    await rejectsWith(store.delete("evil/sub/deep"), "KEY_INVALID");
    await rejectsWith(store.deletePrefix("evil/sub/"), "KEY_INVALID");
    expect(snapshot()).toEqual(before);
  });

  it("removing a link (deletePrefix of the link, deletePrefix(\"\")) never touches its target", async () => {
    const { root, store, snapshot, before } = setup();
    await store.deletePrefix("evil/");
    expect(fs.existsSync(path.join(root, "evil"))).toBe(false);
    expect(snapshot()).toEqual(before);
    // A link back to the root inside a deleted prefix: rm -r must not descend through it.
    fs.symlinkSync(root, path.join(root, "group", "root-link"));
    await store.set("group/real", utf8("r"));
    await store.set("other/k", utf8("k"));
    await store.deletePrefix("group/");
    expect(await collect(store.list())).toEqual(["other/k"]);
    await store.deletePrefix("");
    expect(fs.readdirSync(root)).toEqual([]);
    expect(snapshot()).toEqual(before);
  });

  it("overwriting or deleting a key that is a link replaces the link, not its target", async () => {
    const { root, outside, store } = setup();
    await store.set("group/secret-link", utf8("mine"));
    expect(fs.lstatSync(path.join(root, "group", "secret-link")).isSymbolicLink()).toBe(false);
    expect(text(await store.get("group/secret-link"))).toBe("mine");
    expect(fs.readFileSync(path.join(outside, "secret"), "utf8")).toBe("secret");
    fs.unlinkSync(path.join(root, "group", "secret-link"));
    fs.symlinkSync(path.join(outside, "secret"), path.join(root, "group", "secret-link"));
    await store.delete("group/secret-link");
    expect(fs.existsSync(path.join(outside, "secret"))).toBe(true);
  });

  it("reads through them are refused by every read method (KEY_INVALID)", async () => {
    const { store } = setup();
    for (const key of ["evil/secret", "evil/sub/deep", "group/secret-link"]) {
      await rejectsWith(store.get(key), "KEY_INVALID");
      await rejectsWith(store.getRange(key, { offset: 0, length: 2 }), "KEY_INVALID");
      await rejectsWith(store.getSize(key), "KEY_INVALID");
      await rejectsWith(store.readInto(key, [{ offset: 0, target: new Uint8Array(2) }]), "KEY_INVALID");
      await rejectsWith(store.getInto(key, new Uint8Array(16)), "KEY_INVALID");
    }
    // Missing keys below an escaping link are refused too, not reported missing.
    await rejectsWith(store.get("evil/nothing-here"), "KEY_INVALID");
  });

  it("blocking reads refuse them too", async () => {
    const { root } = setup();
    const store = new FileSystemStore(root, { blockingReads: true, readOnly: true });
    await rejectsWith(store.getInto("evil/secret", new Uint8Array(16)), "KEY_INVALID");
    await rejectsWith(store.getInto("group/secret-link", new Uint8Array(16)), "KEY_INVALID");
    await rejectsWith(store.readInto("group/secret-link", [{ offset: 0, target: new Uint8Array(2) }]), "KEY_INVALID");
  });

  it("a refused read does not poison later reads of keys inside the root", async () => {
    const { store } = setup();
    await store.set("group/inside", utf8("in"));
    await rejectsWith(store.get("group/secret-link"), "KEY_INVALID");
    expect(text(await store.get("group/inside"))).toBe("in");
    expect(text(await store.getInto("group/inside", new Uint8Array(8)))).toBe("in");
  });

  it("links that stay inside the root are followed by reads", async () => {
    const { root, store } = setup();
    await store.set("data/real", utf8("real"));
    fs.symlinkSync(path.join(root, "data", "real"), path.join(root, "group", "alias"));
    fs.symlinkSync(path.join(root, "data"), path.join(root, "data-alias"));
    expect(text(await store.get("group/alias"))).toBe("real");
    expect(await store.getSize("group/alias")).toBe(4);
    expect(text(await store.get("data-alias/real"))).toBe("real");
    const blocking = new FileSystemStore(root, { blockingReads: true });
    expect(text(await blocking.getInto("group/alias", new Uint8Array(8)))).toBe("real");
  });

  it("followSymlinks: true lets reads follow them (a store that links in data kept elsewhere)", async () => {
    const { root } = setup();
    const store = new FileSystemStore(root, { followSymlinks: true });
    expect(text(await store.get("evil/secret"))).toBe("secret");
    expect(text(await store.get("group/secret-link"))).toBe("secret");
    expect(await store.getSize("evil/sub/deep")).toBe(4);
    expect(store.workerStore().args[1]).toEqual({ readOnly: true, followSymlinks: true, blockingReads: true });
    // Writes stay refused.
    await rejectsWith(store.set("evil/new", utf8("x")), "KEY_INVALID");
  });

  it("a root that is itself a link works normally", async () => {
    const { sandbox } = freshRoot();
    const real = path.join(sandbox, "real");
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(sandbox, "alias"));
    const store = new FileSystemStore(path.join(sandbox, "alias"));
    await store.set("a/b/k", utf8("v"));
    expect(fs.readFileSync(path.join(real, "a", "b", "k"), "utf8")).toBe("v");
    await store.delete("a/b/k");
    expect(await collect(store.list())).toEqual([]);
  });
});

describe("key → path mapping (pure, incl. Windows rules)", () => {
  it("joins segments with the platform separator", () => {
    expect(keyToPath("/data/s.zarr", "a/b/zarr.json", path.posix)).toBe("/data/s.zarr/a/b/zarr.json");
    expect(keyToPath("C:\\data\\s.zarr", "a/b/zarr.json", path.win32)).toBe("C:\\data\\s.zarr\\a\\b\\zarr.json");
    expect(prefixToPath("C:\\data\\s.zarr", "a/b/", path.win32)).toBe("C:\\data\\s.zarr\\a\\b");
    expect(prefixToPath("C:\\data\\s.zarr", "", path.win32)).toBe("C:\\data\\s.zarr");
  });

  it("refuses Windows stream names and drive paths", () => {
    expect(() => keyToPath("C:\\s", "a/b:stream", path.win32)).toThrow(/KEY_INVALID|Windows/);
    expect(() => keyToPath("C:\\s", "D:/x", path.win32)).toThrow();
    expect(() => keyToPath("C:\\s", "a\\..\\..\\x", path.win32)).toThrow();
    // ':' is an ordinary character on POSIX.
    expect(keyToPath("/s", "a/b:c", path.posix)).toBe("/s/a/b:c");
  });

  it("isInside compares whole path components", () => {
    expect(isInside("/data/store", "/data/store", path.posix)).toBe(true);
    expect(isInside("/data/store", "/data/store/a", path.posix)).toBe(true);
    expect(isInside("/data/store", "/data/store-2/a", path.posix)).toBe(false);
    expect(isInside("/data/store", "/data", path.posix)).toBe(false);
    expect(isInside("/data/store", "/data/store/..a", path.posix)).toBe(true);
    expect(isInside("/", "/etc", path.posix)).toBe(true);
    expect(isInside("C:\\Data\\Store", "c:\\data\\store\\a", path.win32)).toBe(true);
    expect(isInside("C:\\store", "D:\\store\\a", path.win32)).toBe(false);
  });

  it("splits listPrefix prefixes into a directory and a name start", () => {
    expect(splitStringPrefix("a/bc")).toEqual(["a/", "bc"]);
    expect(splitStringPrefix("a/b/")).toEqual(["a/b/", ""]);
    expect(splitStringPrefix("abc")).toEqual(["", "abc"]);
    expect(splitStringPrefix("a/..")).toEqual(["a/", ".."]); // a string filter, not a path
    expect(() => splitStringPrefix("../a")).toThrow();
  });
});
