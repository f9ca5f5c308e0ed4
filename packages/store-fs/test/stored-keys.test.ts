/** FileSystemStore.listStoredKeys: one walk, complete or undefined. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempRoot(): string {
  const d = mkdtempSync(join(tmpdir(), "zarr-stored-keys-"));
  dirs.push(d);
  return d;
}

describe("FileSystemStore.listStoredKeys", () => {
  it("lists every key below the prefix, nested, and nothing outside it", async () => {
    const store = new FileSystemStore(tempRoot());
    for (const key of ["a/zarr.json", "a/c/0/0", "a/c/0/1", "a/c/3/2", "b/c/0/0"]) await store.set(key, new Uint8Array(1));
    expect((await store.listStoredKeys("a/c/", 100))?.sort()).toEqual(["a/c/0/0", "a/c/0/1", "a/c/3/2"]);
    expect((await store.listStoredKeys("", 100))?.length).toBe(5);
  });

  it("gives [] for a prefix with nothing there, and undefined past the limit", async () => {
    const store = new FileSystemStore(tempRoot());
    expect(await store.listStoredKeys("a/c/", 10)).toEqual([]);
    for (let i = 0; i < 5; i++) await store.set(`a/c/${i}`, new Uint8Array(1));
    expect((await store.listStoredKeys("a/c/", 5))?.length).toBe(5);
    expect(await store.listStoredKeys("a/c/", 4)).toBeUndefined();
  });

  it("gives undefined at a symbolic link below the prefix, and for a prefix leading out of the root", async () => {
    const root = tempRoot();
    const outside = tempRoot();
    writeFileSync(join(outside, "0"), "x");
    mkdirSync(join(root, "a", "c"), { recursive: true });
    writeFileSync(join(root, "a", "c", "1"), "y");
    symlinkSync(join(outside, "0"), join(root, "a", "c", "0"));
    const store = new FileSystemStore(root);
    expect(await store.listStoredKeys("a/c/", 100)).toBeUndefined();
    symlinkSync(outside, join(root, "out"));
    expect(await store.listStoredKeys("out/", 100)).toBeUndefined();
  });
});
