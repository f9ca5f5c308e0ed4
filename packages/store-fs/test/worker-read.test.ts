import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { readWhole } from "../src/worker-read.js";
import { freshRoot, pattern } from "./helpers.js";

/** Calls what `workerRead` describes, here on this thread (a worker would import the module). */
function readLikeAWorker(store: FileSystemStore, key: string, spare: Uint8Array): Uint8Array | undefined {
  const call = store.workerRead(key);
  expect(fileURLToPath(call.moduleUrl)).toMatch(/dist[\\/]worker-read\.js$/);
  expect(call.exportName).toBe("readWhole");
  return readWhole(spare, ...(call.args as [string, string, string]));
}

describe("workerRead (reads made by worker threads)", () => {
  it("reads into the spare buffer when the value fits, else into a buffer of its own", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root);
    const value = pattern(5000, 7);
    await store.set("a/c/0/1", value);
    const spare = new Uint8Array(8000);
    const small = readLikeAWorker(store, "a/c/0/1", spare) as Uint8Array;
    expect(small.buffer).toBe(spare.buffer);
    expect(small.byteOffset).toBe(0);
    expect(Buffer.compare(small, value)).toBe(0);
    const big = readLikeAWorker(store, "a/c/0/1", new Uint8Array(100)) as Uint8Array;
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(5000);
    expect(Buffer.compare(big, value)).toBe(0);
    await store.set("empty", new Uint8Array(0));
    expect(readLikeAWorker(store, "empty", spare)?.length).toBe(0);
  });

  it("gives undefined where get does: missing keys, directories, a file as a directory", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root);
    await store.set("a/b", pattern(10));
    mkdirSync(join(root, "dir"));
    for (const key of ["nope", "a", "dir", "a/b/c"]) {
      expect(await store.get(key)).toBeUndefined();
      expect(readLikeAWorker(store, key, new Uint8Array(16))).toBeUndefined();
    }
  });

  it("fails as get does, with STORE_FAILED naming the key", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root);
    mkdirSync(root, { recursive: true });
    symlinkSync("loop", join(root, "loop")); // ELOOP on open
    const viaGet = await store.get("loop").catch((e: unknown) => e);
    expect(viaGet).toMatchObject({ code: "STORE_FAILED", key: "loop" });
    let thrown: unknown;
    try {
      readLikeAWorker(store, "loop", new Uint8Array(16));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "STORE_FAILED", key: "loop", message: (viaGet as Error).message });
  });

  it("refuses keys that leave the store, as every other method does", () => {
    const store = new FileSystemStore(freshRoot().root);
    expect(() => store.workerRead("../outside")).toThrow(expect.objectContaining({ code: "KEY_INVALID" }));
  });
});
