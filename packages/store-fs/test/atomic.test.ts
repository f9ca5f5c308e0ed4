import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { filesOnDisk, rejectsWith, tempDir, utf8 } from "./helpers.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A value whose every byte depends on its version, so a mix of versions is detectable. */
function version(v: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 131 + v * 101 + (i >>> 10)) & 0xff;
  return out;
}

describe("atomic set", () => {
  it("a concurrent reader only ever sees complete versions", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    const SIZE = 4 << 20;
    // Versions of different lengths, so a torn or truncated read cannot equal any of them.
    const versions = [0, 1, 2].map((v) => version(v, SIZE - v * 4096 * 37));
    await store.set("big/value", versions[0]);
    let writing = true;
    const writer = (async () => {
      try {
        for (let i = 1; i <= 30; i++) await store.set("big/value", versions[i % versions.length]);
      } finally {
        writing = false;
      }
    })();
    const seen = new Set<number>();
    const torn: string[] = [];
    let reads = 0;
    const reader = async () => {
      while (writing || reads < 20) {
        const got = await store.get("big/value");
        const match = got === undefined ? -1 : versions.findIndex((v) => Buffer.compare(v, got) === 0);
        if (match < 0) torn.push(`read ${reads}: ${got === undefined ? "missing" : `${got.length} bytes`}`);
        else seen.add(match);
        reads++;
      }
    };
    // Readers record problems instead of throwing, so the writer always finishes first.
    await Promise.all([writer, reader(), reader()]);
    expect(torn, "reads that were not a complete version").toEqual([]);
    expect(reads).toBeGreaterThanOrEqual(20);
    expect(seen.size).toBeGreaterThan(1); // the readers really overlapped the rewrites
    expect(filesOnDisk(root)).toEqual(["big/value"]); // no temporary files left
  });

  it("listings never show temporary files while writes are in flight", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    let writing = true;
    const writer = (async () => {
      try {
        for (let i = 0; i < 30; i++) await store.set(`g/k${i % 3}`, version(i, 256 << 10));
      } finally {
        writing = false;
      }
    })();
    let listings = 0;
    while (writing) {
      for await (const key of store.list()) expect(key).not.toMatch(/zarr-tmp/);
      const { keys } = await store.listDir("g/");
      for (const key of keys) expect(key).not.toMatch(/zarr-tmp/);
      listings++;
    }
    await writer;
    expect(listings).toBeGreaterThan(0);
    expect(filesOnDisk(root)).toEqual(["g/k0", "g/k1", "g/k2"]);
  });

  it("concurrent writes into the same new directories all succeed", async () => {
    const root = tempDir();
    const store = new FileSystemStore(path.join(root, "store"));
    const keys = Array.from({ length: 60 }, (_, i) => `new/dir/${i % 4}/k${i}`);
    await Promise.all(keys.map((key) => store.set(key, utf8(key))));
    for (const key of keys) expect(new TextDecoder().decode(await store.get(key))).toBe(key);
  });

  it("concurrent writes of one key leave exactly one complete version", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    const versions = [0, 1, 2, 3, 4, 5].map((v) => version(v, 100_000 + v));
    await Promise.all(versions.map((v) => store.set("k", v)));
    const got = (await store.get("k"))!;
    expect(versions.some((v) => Buffer.compare(v, got) === 0)).toBe(true);
    expect(filesOnDisk(root)).toEqual(["k"]);
  });

  it("a failed write removes its temporary file and keeps the old value", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    await store.set("k", utf8("old"));
    vi.spyOn(fs, "rename").mockImplementation(((_from: string, _to: string, callback: (e: Error) => void) => {
      callback(Object.assign(new Error("EIO: simulated"), { code: "EIO" }));
    }) as unknown as typeof fs.rename);
    const error = await rejectsWith(store.set("k", utf8("new")), "STORE_FAILED");
    expect(error.message).toContain("simulated");
    vi.restoreAllMocks();
    expect(filesOnDisk(root)).toEqual(["k"]);
    expect(new TextDecoder().decode(await store.get("k"))).toBe("old");
  });

  it("durable: true fsyncs the file (and its directory) before/after the rename; default does not", async () => {
    const order: string[] = [];
    const fsyncSpy = vi.spyOn(fs, "fsync");
    fsyncSpy.mockImplementation(((fd: number, callback: (e: NodeJS.ErrnoException | null) => void) => {
      order.push("fsync");
      fs.fdatasync(fd, callback);
    }) as unknown as typeof fs.fsync);
    const renameSpy = vi.spyOn(fs, "rename");
    const realRename = renameSpy.getMockImplementation();
    expect(realRename).toBeUndefined();
    renameSpy.mockImplementation(((from: string, to: string, callback: (e: NodeJS.ErrnoException | null) => void) => {
      order.push("rename");
      fs.copyFile(from, to, (error) => (error ? callback(error) : fs.unlink(from, callback)));
    }) as unknown as typeof fs.rename);

    const plain = new FileSystemStore(tempDir());
    await plain.set("k", utf8("v"));
    expect(order).toEqual(["rename"]);

    order.length = 0;
    const durable = new FileSystemStore(tempDir(), { durable: true });
    await durable.set("a/k", utf8("v"));
    expect(order).toEqual(["fsync", "rename", "fsync"]);
    expect(new TextDecoder().decode(await durable.get("a/k"))).toBe("v");
  });
});
