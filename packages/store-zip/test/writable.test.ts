/** The writable ZipStore: appends, last-wins rewrites, deletes, close, flush, compact, append mode, crashes. */
import fs from "node:fs";
import path from "node:path";
import { createArray, createGroup, get, MemoryStore, open, openArray, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { describe, expect, it } from "vitest";
import { MemoryArchiveFile } from "../src/archive-file.js";
import { openZipForWriting, WritableZipStore, ZipStore } from "../src/index.js";
import { openZipFileForWriting } from "../src/node.js";
import { collect, expectBytes, pattern, rejectsWith, rng, tempDir, utf8, zipBytes } from "./helpers.js";

/** Incompressible bytes (deflate cannot shrink them). */
function noise(n: number, seed: number): Uint8Array {
  const r = rng(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
}

/** True when `needle` occurs in `hay` verbatim. */
function contains(hay: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(hay).includes(Buffer.from(needle));
}

/** Counts verbatim occurrences of `needle` in `hay`. */
function occurrences(hay: Uint8Array, needle: Uint8Array): number {
  const h = Buffer.from(hay);
  let n = 0;
  for (let at = h.indexOf(needle); at >= 0; at = h.indexOf(needle, at + 1)) n++;
  return n;
}

async function reopen(target: MemoryStore, key = "w.zip"): Promise<ZipStore> {
  return new ZipStore(target, key, { autoPrefix: false });
}

describe("a zip archive opened for writing (in a store)", () => {
  it("createGroup/createArray/set work; reads see new values; close writes a directory a ZipStore reads", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    await createGroup(zip, "", { attributes: { title: "written in place" } });
    const arr = await createArray(zip, "t", { shape: [6], chunkShape: [2], dataType: "int32" });
    await set(arr, null, new Int32Array([1, 2, 3, 4, 5, 6]));
    // Before close: nothing was stored yet, and the store reads its own writes.
    expect(target.map.has("w.zip")).toBe(false);
    expect(Array.from((await get(await openArray(zip, "t"))).data as Int32Array)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await collect(zip.list())).toEqual(["t/c/0", "t/c/1", "t/c/2", "t/zarr.json", "zarr.json"]);
    const summary = await zip.close();
    expect(summary.entries).toBe(5);
    expect(summary.size).toBe(target.map.get("w.zip")?.length);

    const reader = await reopen(target);
    expect((await open(reader)).attributes).toEqual({ title: "written in place" });
    expect(Array.from((await get(await openArray(reader, "t"))).data as Int32Array)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await reader.open()).skipped).toEqual([]);
  });

  it("rewritten keys: the last one wins (reads, listing, the directory); compact() drops the stale copies", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    const first = noise(5000, 1);
    const second = noise(3000, 2);
    const third = noise(4000, 3);
    await zip.set("a/c/0", first);
    await zip.set("other", utf8("other"));
    await zip.set("a/c/0", second);
    expectBytes(await zip.get("a/c/0"), second);
    await zip.set("a/c/0", third);
    expectBytes(await zip.get("a/c/0"), third);
    expect(await zip.getSize("a/c/0")).toBe(4000);
    expect(await collect(zip.list())).toEqual(["a/c/0", "other"]);
    await zip.flush();
    const archive = target.map.get("w.zip") as Uint8Array;
    // Every copy is in the archive (stale ones too), but the directory names the key once.
    for (const v of [first, second, third]) expect(contains(archive, v)).toBe(true);
    const reader = await reopen(target);
    expect((await reader.open()).keys).toBe(2);
    expect((await reader.open()).skipped).toEqual([]); // no duplicate names in the directory
    expectBytes(await reader.get("a/c/0"), third);

    const compacted = await zip.compact();
    const after = target.map.get("w.zip") as Uint8Array;
    expect(compacted).toEqual({ entries: 2, size: after.length });
    expect(after.length).toBeLessThan(archive.length - first.length - second.length + 1);
    expect(contains(after, first) || contains(after, second)).toBe(false);
    expect(occurrences(after, third)).toBe(1);
    // The store goes on from the compacted archive: reads, and appends after it.
    expectBytes(await zip.get("a/c/0"), third);
    await zip.set("later", utf8("after compaction"));
    await zip.close();
    const again = await reopen(target);
    expect(await collect(again.list())).toEqual(["a/c/0", "later", "other"]);
    expectBytes(await again.get("a/c/0"), third);
    expect(new TextDecoder().decode(await again.get("later"))).toBe("after compaction");
  });

  it("the read-only ZipStore reads ranges of an uncompacted archive right: stale entries leave gaps between live ones", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    for (let i = 0; i < 10; i++) {
      await zip.set(`shard/${i}`, pattern(3000, i));
      await zip.set("zarr.json", utf8(`{"version":${i}}`)); // rewritten each time: a small stale entry after each shard
      await zip.delete(`gone/${i}`);
      await zip.set(`gone/${i}`, pattern(40, i));
      await zip.delete(`gone/${i}`); // deleted: another gap
    }
    await zip.set("big", pattern(100_000, 99)); // pushes the shards out of the reader's first (tail) read
    await zip.close();
    const reader = await reopen(target);
    for (let i = 0; i < 10; i++) {
      expectBytes(await reader.getRange(`shard/${i}`, { offset: 10, length: 20 }), pattern(3000, i).slice(10, 30), `shard/${i}`);
    }
    expect(new TextDecoder().decode(await reader.get("zarr.json"))).toBe('{"version":9}');
    expect(await collect(reader.list())).toEqual([...Array.from({ length: 10 }, (_, i) => `shard/${i}`), "big", "zarr.json"].sort());
  });

  it("delete and deletePrefix drop keys from reads, listings and the directory", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    for (const k of ["g/zarr.json", "g/a/c/0", "g/a/c/1", "g/b/c/0", "top"]) await zip.set(k, utf8(k));
    await zip.delete("g/a/c/1");
    await zip.delete("never-there"); // not an error
    expect(await zip.get("g/a/c/1")).toBeUndefined();
    expect(await zip.getSize("g/a/c/1")).toBeUndefined();
    expect(await collect(zip.listPrefix("g/a/"))).toEqual(["g/a/c/0"]);
    expect(await zip.listDir("g/")).toEqual({ keys: ["zarr.json"], prefixes: ["a", "b"] });
    await zip.deletePrefix("g/b/");
    expect(await zip.listDir("g/")).toEqual({ keys: ["zarr.json"], prefixes: ["a"] });
    // A deleted key written again comes back.
    await zip.set("g/a/c/1", utf8("back"));
    expect(await collect(zip.list())).toEqual(["g/a/c/0", "g/a/c/1", "g/zarr.json", "top"]);
    await zip.close();
    const reader = await reopen(target);
    expect(await collect(reader.list())).toEqual(["g/a/c/0", "g/a/c/1", "g/zarr.json", "top"]);
    expect(new TextDecoder().decode(await reader.get("g/a/c/1"))).toBe("back");
  });

  it("after close(): writes fail with STORE_READ_ONLY, reads with STORE_FAILED; close() again is harmless", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    await zip.set("k", utf8("v"));
    const summary = await zip.close();
    expect(zip.closed).toBe(true);
    expect(await zip.close()).toEqual(summary);
    const error = await rejectsWith(zip.set("k2", utf8("v")), "STORE_READ_ONLY");
    expect(error.message).toContain('"w.zip"');
    await rejectsWith(zip.delete("k"), "STORE_READ_ONLY");
    await rejectsWith(zip.flush(), "STORE_READ_ONLY");
    await rejectsWith(zip.compact(), "STORE_READ_ONLY");
    await rejectsWith(createGroup(zip, "g"), "STORE_READ_ONLY", "STORE_FAILED"); // core looks before it writes
    await rejectsWith(zip.get("k"), "STORE_FAILED");
    await rejectsWith(collect(zip.list()), "STORE_FAILED");
  });

  it("an empty archive: closing an archive with no entries writes a bare end record", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    expect(await collect(zip.list())).toEqual([]);
    expect(await zip.close()).toEqual({ entries: 0, size: 22 });
    const reader = await reopen(target);
    expect(await collect(reader.list())).toEqual([]);
    // Opening it to append, adding one key.
    const more = await openZipForWriting(target, "w.zip");
    await more.set("x", utf8("x"));
    await more.close();
    expect(await collect((await reopen(target)).list())).toEqual(["x"]);
  });

  it("mode a keeps the archive's entries, writes the new directory over the old one; unchanged, it stores nothing", async () => {
    const original = await zipBytes({ "zarr.json": utf8('{"zarr_format":3,"node_type":"group"}'), "a/b": pattern(2000, 4), "gone": utf8("x") }, { compression: "deflate", comment: "kept" });
    const target = new MemoryStore();
    await target.set("w.zip", original);
    let sets = 0;
    const counting = Object.assign(Object.create(target) as MemoryStore, {
      set: (k: string, v: Uint8Array) => {
        sets++;
        return target.set(k, v);
      },
    });
    const untouched = await openZipForWriting(counting, "w.zip");
    expectBytes(await untouched.get("a/b"), pattern(2000, 4));
    await untouched.close();
    expect(sets).toBe(0);

    const zip = await openZipForWriting(counting, "w.zip", { mode: "a" });
    expect(await collect(zip.list())).toEqual(["a/b", "gone", "zarr.json"]);
    await zip.set("new/key", pattern(300, 9));
    await zip.delete("gone");
    await zip.close();
    expect(sets).toBe(1);
    const archive = target.map.get("w.zip") as Uint8Array;
    // Old entries stay where they were: the archive starts with the original's entries.
    const oldCdOffset = new DataView(original.buffer, original.byteOffset).getUint32(original.length - 22 - "kept".length + 16, true);
    expectBytes(archive.subarray(0, oldCdOffset), original.subarray(0, oldCdOffset));
    const reader = await reopen(target);
    expect(await collect(reader.list())).toEqual(["a/b", "new/key", "zarr.json"]);
    expectBytes(await reader.get("a/b"), pattern(2000, 4));
    expectBytes(await reader.get("new/key"), pattern(300, 9));
    expect((await reader.open()).comment).toBe("kept");
  });

  it("mode w replaces an existing archive; mode a on a missing key starts empty", async () => {
    const target = new MemoryStore();
    await target.set("w.zip", await zipBytes({ old: utf8("old") }));
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    expect(await collect(zip.list())).toEqual([]);
    await zip.set("new", utf8("new"));
    await zip.close();
    expect(await collect((await reopen(target)).list())).toEqual(["new"]);
    const fresh = await openZipForWriting(target, "fresh.zip");
    await fresh.set("k", utf8("v"));
    await fresh.close();
    expect(await collect((await reopen(target, "fresh.zip")).list())).toEqual(["k"]);
  });

  it("bad input: not a zip (CODEC_FAILED), bad mode/options (INVALID_ARGUMENT), bad keys (KEY_INVALID)", async () => {
    const target = new MemoryStore();
    await target.set("text.zip", utf8("this is not a zip archive at all"));
    const error = await rejectsWith(openZipForWriting(target, "text.zip", { mode: "a" }), "CODEC_FAILED");
    expect(error.message).toContain('"text.zip"');
    const zipped = await zipBytes({ k: utf8("v") });
    await target.set("stub.zip", Buffer.concat([new Uint8Array(100).fill(0x4d), zipped])); // a self-extracting stub
    expect(new TextDecoder().decode(await new ZipStore(target, "stub.zip").get("k"))).toBe("v"); // readable...
    const stub = await rejectsWith(openZipForWriting(target, "stub.zip"), "UNSUPPORTED"); // ...but not appended to
    expect(stub.message).toContain("100 bytes before it");
    await rejectsWith(openZipForWriting(target, "w.zip", { mode: "r" as "w" }), "INVALID_ARGUMENT");
    await rejectsWith(openZipForWriting(target, "w.zip", { compression: "zstd" as "stored" }), "INVALID_ARGUMENT");
    await rejectsWith(openZipForWriting(target, "", {}), "INVALID_ARGUMENT");
    await rejectsWith(openZipForWriting({} as MemoryStore, "w.zip"), "INVALID_ARGUMENT");
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    await rejectsWith(zip.set("../up", utf8("x")), "KEY_INVALID");
    await rejectsWith(zip.set("a//b", utf8("x")), "KEY_INVALID");
    await rejectsWith(zip.set("k", "text" as unknown as Uint8Array), "INVALID_ARGUMENT");
    await rejectsWith(zip.get("/abs"), "KEY_INVALID");
    await rejectsWith(zip.listDir("no-slash"), "KEY_INVALID");
    await zip.close();
  });

  it("deflate: compressible values are deflated, incompressible ones (compressed chunks) stored; ranges of both", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w", compression: "deflate", level: 9 });
    const text = utf8(JSON.stringify({ zarr_format: 3, pad: "abc".repeat(500) }));
    const chunk = noise(6000, 5);
    await zip.set("zarr.json", text);
    await zip.set("c/0", chunk);
    expectBytes(await zip.getRange("zarr.json", { offset: 10, length: 30 }), text.slice(10, 40));
    expectBytes(await zip.getRange("c/0", { suffixLength: 100 }), chunk.slice(-100));
    await zip.close();
    const archive = target.map.get("w.zip") as Uint8Array;
    expect(contains(archive, chunk)).toBe(true); // stored
    expect(contains(archive, text)).toBe(false); // deflated
    expect(archive.length).toBeLessThan(text.length / 4 + chunk.length + 500);
    const reader = await reopen(target);
    expectBytes(await reader.get("zarr.json"), text);
    expectBytes(await reader.get("c/0"), chunk);
  });

  it("forceZip64 writes ZIP64 records the reader recognises", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w", forceZip64: true });
    await zip.set("a", pattern(1000, 1));
    await zip.close();
    const reader = await reopen(target);
    expect((await reader.open()).zip64).toBe(true);
    expectBytes(await reader.get("a"), pattern(1000, 1));
    // Appending to a ZIP64 archive, then compacting it, keeps it readable.
    const more = await openZipForWriting(target, "w.zip", { forceZip64: true });
    await more.set("a", pattern(500, 2));
    await more.compact();
    await more.close();
    const again = await reopen(target);
    expect((await again.open()).zip64).toBe(true);
    // The compacted entry's local header carries the ZIP64 sizes too (extra field length 20).
    const compacted = target.map.get("w.zip") as Uint8Array;
    expect(compacted[28] | (compacted[29] << 8)).toBe(20);
    expectBytes(await again.get("a"), pattern(500, 2));
  });

  it("concurrent sets are queued; reads during a compaction wait for it and see the same values", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    await Promise.all(Array.from({ length: 40 }, (_, i) => zip.set(`c/${i}`, pattern(100 + i, i))));
    await Promise.all(Array.from({ length: 40 }, (_, i) => zip.set(`c/${i}`, pattern(200 + i, i + 1))));
    const reads = Array.from({ length: 40 }, (_, i) => zip.get(`c/${i}`));
    const compacting = zip.compact();
    const during = Array.from({ length: 40 }, (_, i) => zip.get(`c/${i}`));
    const results = await Promise.all([...reads, ...during]);
    await compacting;
    for (const [j, v] of results.entries()) expectBytes(v, pattern(200 + (j % 40), (j % 40) + 1), `c/${j % 40}`);
    await zip.close();
    const reader = await reopen(target);
    expect((await reader.open()).keys).toBe(40);
  });

  it("a compaction waits for reads in flight before it replaces the archive", async () => {
    /** An archive whose reads can be made slow (as a disk's are), so they outlast the compaction. */
    class SlowArchive extends MemoryArchiveFile {
      delay = 0;
      override async read(start: number, end: number): Promise<Uint8Array> {
        if (this.delay > 0) await new Promise((resolve) => setTimeout(resolve, this.delay));
        return super.read(start, end);
      }
    }
    const archive = new SlowArchive("slow.zip", new MemoryStore());
    const zip = new WritableZipStore(archive, undefined, { compression: "stored" });
    await zip.set("k", pattern(1000, 1));
    await zip.set("k", pattern(900, 2)); // the first copy goes stale: the compaction moves "k"
    await zip.set("other", pattern(10, 3));
    archive.delay = 30;
    const inFlight = [zip.get("k"), zip.getRange("other", { offset: 2, length: 5 })];
    await new Promise((resolve) => setImmediate(resolve)); // both are now waiting on their slow read
    archive.delay = 0;
    await zip.compact();
    const [k, part] = await Promise.all(inFlight);
    expectBytes(k, pattern(900, 2));
    expectBytes(part, pattern(10, 3).slice(2, 7));
    await zip.close();
  });

  it("flush() makes a checkpoint: the stored archive is complete; later writes extend it", async () => {
    const target = new MemoryStore();
    const zip = await openZipForWriting(target, "w.zip", { mode: "w" });
    await zip.set("a", utf8("1"));
    expect(await zip.flush()).toEqual({ entries: 1, size: (target.map.get("w.zip") as Uint8Array).length });
    expect(await collect((await reopen(target)).list())).toEqual(["a"]);
    await zip.set("b", utf8("2"));
    await zip.close();
    expect(await collect((await reopen(target)).list())).toEqual(["a", "b"]);
  });
});

describe("a zip file opened for writing (Node)", () => {
  /** Writes through openZipFileForWriting and returns the path. */
  async function fileWith(dir: string, values: Record<string, Uint8Array>, mode: "w" | "a" = "w"): Promise<{ file: string; zip: WritableZipStore }> {
    const file = path.join(dir, "f.zip");
    const zip = await openZipFileForWriting(file, { mode });
    for (const [k, v] of Object.entries(values)) await zip.set(k, v);
    return { file, zip };
  }

  it("appends in place; close writes the directory and the file reads back", async () => {
    const dir = tempDir();
    const { file, zip } = await fileWith(dir, { "zarr.json": utf8('{"zarr_format":3,"node_type":"group"}') });
    const arr = await createArray(zip, "x", { shape: [4], chunkShape: [2], dataType: "uint8" });
    await set(arr, null, new Uint8Array([1, 2, 3, 4]));
    const sizeBefore = fs.statSync(file).size;
    expect(sizeBefore).toBeGreaterThan(0); // entries are on disk already
    const summary = await zip.close();
    expect(fs.statSync(file).size).toBe(summary.size);
    const reader = new ZipStore(new FileSystemStore(dir), "f.zip");
    expect(Array.from((await get(await openArray(reader, "x"))).data as Uint8Array)).toEqual([1, 2, 3, 4]);
  });

  it("a crash before close() leaves an archive that fails clearly (CODEC_FAILED), never garbage", async () => {
    const dir = tempDir();
    const { zip } = await fileWith(dir, { "zarr.json": utf8("{}"), "a/c/0": pattern(5000, 1) });
    // The process "dies" here: the file is read as it was left.
    const reader = new ZipStore(new FileSystemStore(dir), "f.zip");
    const error = await rejectsWith(reader.open(), "CODEC_FAILED");
    expect(error.message).toMatch(/"f\.zip".*no end of central directory record/);
    await zip.close();
    expect(await collect(new ZipStore(new FileSystemStore(dir), "f.zip").list())).toEqual(["a/c/0", "zarr.json"]);

    // The same when appending: the first new entry removes the old directory.
    const more = await openZipFileForWriting(path.join(dir, "f.zip"), { mode: "a" });
    await more.set("b", pattern(10, 2)); // shorter than the old directory, which must not survive behind it
    const afterAppend = await rejectsWith(new ZipStore(new FileSystemStore(dir), "f.zip").open(), "CODEC_FAILED");
    expect(afterAppend.message).toContain("no end of central directory record");
    await more.close();
    expect(await collect(new ZipStore(new FileSystemStore(dir), "f.zip").list())).toEqual(["a/c/0", "b", "zarr.json"]);
  });

  it("compact() rewrites the file through a temporary file renamed over it", async () => {
    const dir = tempDir();
    const { file, zip } = await fileWith(dir, { k: noise(10_000, 1), other: utf8("o") });
    await zip.set("k", noise(8000, 2));
    await zip.flush();
    const before = fs.statSync(file).size;
    // Reads racing the compaction (file reads are truly asynchronous) wait for it: some
    // are in flight when it starts, others start on every turn of the event loop while it runs.
    const racing = Array.from({ length: 10 }, () => zip.get("k"));
    let finished = false;
    const compacting = zip.compact().finally(() => {
      finished = true;
    });
    while (!finished) {
      racing.push(zip.get("k"));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const summary = await compacting;
    expect(racing.length).toBeGreaterThan(11);
    for (const [i, value] of (await Promise.all(racing)).entries()) expectBytes(value, noise(8000, 2), `read ${i}`);
    expect(summary.size).toBe(fs.statSync(file).size);
    expect(summary.size).toBeLessThan(before - 9000);
    expect(fs.readdirSync(dir)).toEqual(["f.zip"]); // no temporary file left
    expectBytes(await zip.get("k"), noise(8000, 2));
    await zip.set("k2", utf8("after"));
    await zip.close();
    const reader = new ZipStore(new FileSystemStore(dir), "f.zip");
    expect(await collect(reader.list())).toEqual(["k", "k2", "other"]);
    expectBytes(await reader.get("k"), noise(8000, 2));
  });

  it("mode a on a missing file creates it; on a file that is not a zip it refuses (CODEC_FAILED); bad path", async () => {
    const dir = tempDir();
    const zip = await openZipFileForWriting(path.join(dir, "new.zip"));
    await zip.set("k", utf8("v"));
    await zip.close();
    expect(await collect(new ZipStore(new FileSystemStore(dir), "new.zip").list())).toEqual(["k"]);
    fs.writeFileSync(path.join(dir, "text.zip"), "not a zip");
    await rejectsWith(openZipFileForWriting(path.join(dir, "text.zip"), { mode: "a" }), "CODEC_FAILED");
    expect(fs.readFileSync(path.join(dir, "text.zip"), "utf8")).toBe("not a zip"); // left alone
    await rejectsWith(openZipFileForWriting(path.join(dir, "no-such-dir", "x.zip")), "STORE_FAILED");
    await rejectsWith(openZipFileForWriting(""), "INVALID_ARGUMENT");
  });
});
