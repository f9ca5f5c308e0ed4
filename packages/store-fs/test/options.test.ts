import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { collect, filesOnDisk, freshRoot, rejectsWith, tempDir, utf8 } from "./helpers.js";

describe("abort", () => {
  it("an aborted signal rejects every method with ABORTED before doing anything", async () => {
    const { sandbox, root } = freshRoot();
    const controller = new AbortController();
    controller.abort(new Error("user cancelled"));
    const signal = controller.signal;
    const store = new FileSystemStore(root);
    await rejectsWith(store.set("a/k", utf8("x"), { signal }), "ABORTED");
    expect(fs.readdirSync(sandbox)).toEqual([]); // the root was not even created

    const ready = new FileSystemStore(tempDir());
    await ready.set("a/k", utf8("x"));
    const error = await rejectsWith(ready.get("a/k", { signal }), "ABORTED");
    expect((error.cause as Error).message).toBe("user cancelled");
    await rejectsWith(ready.getRange("a/k", { offset: 0 }, { signal }), "ABORTED");
    await rejectsWith(ready.getSize("a/k", { signal }), "ABORTED");
    await rejectsWith(ready.delete("a/k", { signal }), "ABORTED");
    await rejectsWith(ready.deletePrefix("a/", { signal }), "ABORTED");
    await rejectsWith(ready.deletePrefix("", { signal }), "ABORTED");
    await rejectsWith(ready.listDir("", { signal }), "ABORTED");
    await rejectsWith(collect(ready.list({ signal })), "ABORTED");
    await rejectsWith(collect(ready.listPrefix("a", { signal })), "ABORTED");
    expect(await ready.get("a/k")).toEqual(utf8("x")); // nothing was deleted
  });

  it("aborting during a listing stops it at the next key", async () => {
    const store = new FileSystemStore(tempDir());
    for (let i = 0; i < 10; i++) await store.set(`d/k${i}`, utf8("x"));
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const key of store.list({ signal: controller.signal })) {
        seen.push(key);
        controller.abort();
      }
    };
    await rejectsWith(run(), "ABORTED");
    expect(seen).toEqual(["d/k0"]);
  });

  it("aborting during a set leaves the old value and no temporary file", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    await store.set("k", utf8("old"));
    const controller = new AbortController();
    // Abort as the temporary file is being written.
    const realWrite = fs.write;
    let writes = 0;
    const spy = vi.spyOn(fs, "write").mockImplementation(((...args: Parameters<typeof fs.write>) => {
      writes++;
      controller.abort();
      return (realWrite as (...a: unknown[]) => void)(...args);
    }) as typeof fs.write);
    await rejectsWith(store.set("k", new Uint8Array(8 << 20), { signal: controller.signal }), "ABORTED");
    spy.mockRestore();
    expect(writes).toBe(1);
    expect(filesOnDisk(root)).toEqual(["k"]);
    expect(await store.get("k")).toEqual(utf8("old"));
  });
});

describe("readOnly", () => {
  it("refuses set, delete and deletePrefix with STORE_READ_ONLY and changes nothing", async () => {
    const root = tempDir();
    await new FileSystemStore(root).set("a/k", utf8("v"));
    const store = new FileSystemStore(root, { readOnly: true });
    expect(store.readOnly).toBe(true);
    await rejectsWith(store.set("a/k", utf8("changed")), "STORE_READ_ONLY");
    await rejectsWith(store.set("new", utf8("x")), "STORE_READ_ONLY");
    await rejectsWith(store.delete("a/k"), "STORE_READ_ONLY");
    await rejectsWith(store.deletePrefix("a/"), "STORE_READ_ONLY");
    await rejectsWith(store.deletePrefix(""), "STORE_READ_ONLY");
    expect(filesOnDisk(root)).toEqual(["a/k"]);
    expect(await store.get("a/k")).toEqual(utf8("v"));
    expect(await collect(store.list())).toEqual(["a/k"]);
  });

  it("does not create a missing root", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root, { readOnly: true });
    await rejectsWith(store.set("k", utf8("x")), "STORE_READ_ONLY");
    expect(fs.existsSync(root)).toBe(false);
  });
});

describe("missing root", () => {
  it("reads see an empty store and deletes are no-ops, without creating the root", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root);
    expect(await store.get("zarr.json")).toBeUndefined();
    expect(await store.getRange("a/b", { suffixLength: 4 })).toBeUndefined();
    expect(await store.getSize("a/b")).toBeUndefined();
    await store.delete("a/b");
    await store.deletePrefix("a/");
    await store.deletePrefix("");
    expect(fs.existsSync(root)).toBe(false);
  });

  it("the first write creates the root, including missing parents", async () => {
    const { sandbox } = freshRoot();
    const root = path.join(sandbox, "x", "y", "store.zarr");
    const store = new FileSystemStore(root);
    await store.set("zarr.json", utf8("{}"));
    expect(fs.readFileSync(path.join(root, "zarr.json"), "utf8")).toBe("{}");
  });

  it("a root deleted after the first write is recreated by the next", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root);
    await store.set("a/k", utf8("1"));
    fs.rmSync(root, { recursive: true });
    await store.set("a/k", utf8("2"));
    expect(await store.get("a/k")).toEqual(utf8("2"));
  });

  it("resolves a relative root against the working directory at construction", () => {
    const store = new FileSystemStore("some/relative.zarr");
    expect(store.root).toBe(path.resolve("some/relative.zarr"));
    expect(() => new FileSystemStore("")).toThrow(/directory path/);
  });
});
