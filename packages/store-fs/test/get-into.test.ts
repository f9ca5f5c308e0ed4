import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { freshRoot, pattern } from "./helpers.js";

describe.each([false, true])("getInto (whole values into a reused buffer), blockingReads: %s", (blockingReads) => {
  it("reads into the spare buffer when the value fits, else into a buffer of its own", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root, { blockingReads });
    const value = pattern(5000, 7);
    await store.set("a/c/0/1", value);
    const spare = new Uint8Array(8000);
    const small = (await store.getInto("a/c/0/1", spare)) as Uint8Array;
    expect(small.buffer).toBe(spare.buffer);
    expect(small.byteOffset).toBe(0);
    expect(Buffer.compare(small, value)).toBe(0);
    const exact = (await store.getInto("a/c/0/1", new Uint8Array(5000))) as Uint8Array;
    expect(exact.length).toBe(5000);
    const big = (await store.getInto("a/c/0/1", new Uint8Array(100))) as Uint8Array;
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(5000);
    expect(Buffer.compare(big, value)).toBe(0);
    await store.set("empty", new Uint8Array(0));
    expect((await store.getInto("empty", spare))?.length).toBe(0);
  });

  it("gives undefined where get does: missing keys, directories, a file as a directory", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root, { blockingReads });
    await store.set("a/b", pattern(10));
    mkdirSync(join(root, "dir"));
    for (const key of ["nope", "a", "dir", "a/b/c"]) {
      expect(await store.get(key)).toBeUndefined();
      expect(await store.getInto(key, new Uint8Array(16))).toBeUndefined();
    }
  });

  it("fails as get does, with STORE_FAILED naming the key", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root, { blockingReads });
    mkdirSync(root, { recursive: true });
    symlinkSync("loop", join(root, "loop")); // ELOOP on open
    const viaGet = await store.get("loop").catch((e: unknown) => e);
    expect(viaGet).toMatchObject({ code: "STORE_FAILED", key: "loop" });
    const viaInto = await store.getInto("loop", new Uint8Array(16)).catch((e: unknown) => e);
    expect(viaInto).toMatchObject({ code: "STORE_FAILED", key: "loop", message: (viaGet as Error).message });
  });

  it("refuses keys that leave the store, as every other method does", async () => {
    const store = new FileSystemStore(freshRoot().root, { blockingReads });
    await expect(store.getInto("../outside", new Uint8Array(4))).rejects.toMatchObject({ code: "KEY_INVALID" });
  });
});

describe("workerStore (how a worker thread opens the same store)", () => {
  it("names this package's compiled module and a read-only, blocking-read store over the same root", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root);
    await store.set("k", pattern(10));
    const recipe = store.workerStore();
    expect(fileURLToPath(recipe.moduleUrl)).toMatch(/dist[\\/]file-system-store\.js$/);
    // What a worker does with it (here through the source module).
    const module = (await import("../src/file-system-store.js")) as unknown as Record<string, (...a: unknown[]) => FileSystemStore>;
    const opened = module[recipe.exportName](...recipe.args);
    expect(opened.root).toBe(store.root);
    expect(opened.readOnly).toBe(true);
    // A worker's reads block that worker only: no hand-off to libuv's shared thread pool.
    expect(opened.blockingReads).toBe(true);
    expect(Buffer.compare((await opened.get("k")) as Uint8Array, pattern(10))).toBe(0);
    await expect(opened.set("k", pattern(2))).rejects.toMatchObject({ code: "STORE_READ_ONLY" });
  });
});
