/**
 * Versioned reads (`getVersioned`): bytes with the file's version; `ifVersion` refuses
 * bytes of any other version with `STORE_CHANGED`.
 */
import fs from "node:fs";
import path from "node:path";
import { supportsVersions } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { freshRoot, pattern, rejectsWith } from "./helpers.js";

async function storeWith(key: string, value: Uint8Array): Promise<FileSystemStore> {
  const store = new FileSystemStore(freshRoot().root);
  await store.set(key, value);
  return store;
}

describe("getVersioned", () => {
  it("reads ranges like getRange, with a version that stays the same while the file does", async () => {
    const value = pattern(1000);
    const store = await storeWith("c/0", value);
    expect(supportsVersions(store)).toBe(true);
    const whole = await store.getVersioned("c/0", undefined);
    expect(whole?.bytes).toEqual(value);
    expect(whole?.version).toMatch(/^\d+:\d+:1000:\d+:\d+$/);
    const suffix = await store.getVersioned("c/0", { suffixLength: 10 }, { ifVersion: whole?.version });
    expect(suffix).toEqual({ bytes: value.slice(990), version: whole?.version });
    const middle = await store.getVersioned("c/0", { offset: 100, length: 50 }, { ifVersion: whole?.version });
    expect(middle?.bytes).toEqual(value.slice(100, 150));
    expect((await store.getVersioned("c/0", { offset: 990, length: 50 }))?.bytes).toEqual(value.slice(990));
    expect((await store.getVersioned("c/0", { offset: 5000 }))?.bytes).toEqual(new Uint8Array(0));
  });

  it("resolves undefined for a missing key or a directory", async () => {
    const store = await storeWith("a/b", pattern(4));
    expect(await store.getVersioned("missing", undefined)).toBeUndefined();
    expect(await store.getVersioned("a", { offset: 0, length: 1 })).toBeUndefined();
    expect(await store.getVersioned("missing", { suffixLength: 1 }, { ifVersion: "1:2:3:4:5" })).toBeUndefined();
  });

  it("a value replaced by set (same size, same bytes even) is another version: STORE_CHANGED", async () => {
    const store = await storeWith("c/0", pattern(64));
    const first = await store.getVersioned("c/0", { suffixLength: 8 });
    await store.set("c/0", pattern(64)); // rename of a new file: a new inode
    const error = await rejectsWith(store.getVersioned("c/0", { offset: 0, length: 8 }, { ifVersion: first?.version }), "STORE_CHANGED");
    expect(error.key).toBe("c/0");
    expect(error.message).toContain(`expected version "${first?.version}"`);
    const fresh = await store.getVersioned("c/0", { offset: 0, length: 8 });
    expect(fresh?.version).not.toBe(first?.version);
  });

  it("a file rewritten in place (another clock tick) is another version", async () => {
    const store = await storeWith("c/0", pattern(64));
    const first = await store.getVersioned("c/0", undefined);
    await new Promise((resolve) => setTimeout(resolve, 20)); // past the file system's timestamp granularity
    fs.writeFileSync(path.join(store.root, "c/0"), pattern(64, 1));
    await rejectsWith(store.getVersioned("c/0", undefined, { ifVersion: first?.version }), "STORE_CHANGED");
  });

  it("refuses bad ranges with INVALID_ARGUMENT before touching the file", async () => {
    const store = await storeWith("c/0", pattern(4));
    await rejectsWith(store.getVersioned("c/0", { offset: -1 }), "INVALID_ARGUMENT");
    await rejectsWith(store.getVersioned("../x", undefined), "KEY_INVALID");
  });
});

describe("getVersioned into a spare buffer", () => {
  it("reads a range into the start of the spare when it fits, the exact size included", async () => {
    const value = pattern(1000);
    const store = await storeWith("c/0", value);
    const spare = new Uint8Array(100).fill(255);
    const got = await store.getVersioned("c/0", { offset: 200, length: 99 }, { spare });
    expect(got?.bytes.buffer).toBe(spare.buffer);
    expect(got?.bytes.byteOffset).toBe(0);
    expect(got?.bytes).toEqual(value.slice(200, 299));
    expect(spare[99]).toBe(255); // nothing past the range is written
    const exact = await store.getVersioned("c/0", { offset: 0, length: 100 }, { spare });
    expect(exact?.bytes.buffer).toBe(spare.buffer);
    expect(exact?.bytes).toEqual(value.slice(0, 100));
  });

  it("reads into an array of its own when the spare is one byte too small", async () => {
    const value = pattern(1000);
    const store = await storeWith("c/0", value);
    const spare = new Uint8Array(100);
    const got = await store.getVersioned("c/0", { offset: 500, length: 101 }, { spare });
    expect(got?.bytes.buffer).not.toBe(spare.buffer);
    expect(got?.bytes).toEqual(value.slice(500, 601));
    expect(spare).toEqual(new Uint8Array(100));
  });
});
