/**
 * `blockingReads`: metadata-sized `get`s and listings use blocking calls (no thread-pool
 * hand-off per call, which is what a wide hierarchy's listing is made of); larger values
 * still go to the thread pool, and without the option nothing blocks.
 */
import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { collect, pattern, tempDir, text, utf8 } from "./helpers.js";

afterEach(() => vi.restoreAllMocks());

async function store(blockingReads: boolean): Promise<FileSystemStore> {
  const s = new FileSystemStore(tempDir(), { blockingReads });
  await s.set("g/a/.zarray", utf8("{}"));
  await s.set("big", pattern(256 * 1024 + 1));
  await s.set("edge", pattern(256 * 1024));
  return s;
}

describe("blockingReads", () => {
  it("reads values up to 256 KiB with blocking calls, larger ones through the thread pool", async () => {
    const s = await store(true);
    const blocking = vi.spyOn(fs, "openSync");
    const pooled = vi.spyOn(fs, "open");
    expect(text(await s.get("g/a/.zarray"))).toBe("{}");
    expect(await s.get("edge")).toEqual(pattern(256 * 1024));
    expect(blocking).toHaveBeenCalledTimes(2);
    expect(pooled).not.toHaveBeenCalled();
    expect(await s.get("big")).toEqual(pattern(256 * 1024 + 1));
    expect(pooled).toHaveBeenCalledTimes(1);
  });

  it("answers a missing key without opening anything (a stat, not a failed open)", async () => {
    const s = await store(true);
    const opens = [vi.spyOn(fs, "openSync"), vi.spyOn(fs, "open")];
    expect(await s.get("g/a/.zgroup")).toBeUndefined();
    expect(await s.get("g/a/.zarray/below")).toBeUndefined(); // a parent that is a file (ENOTDIR)
    expect(await s.get("nowhere/at/all")).toBeUndefined();
    for (const spy of opens) expect(spy).not.toHaveBeenCalled();
  });

  it("lists with blocking calls", async () => {
    const s = await store(true);
    const pooled = [vi.spyOn(fs, "readdir"), vi.spyOn(fs, "opendir"), vi.spyOn(fs.realpath, "native")];
    const blocking = vi.spyOn(fs, "readdirSync");
    expect(await s.listDir("")).toEqual({ keys: ["big", "edge"], prefixes: ["g"] });
    expect(await collect(s.listPrefix("g/"))).toEqual(["g/a/.zarray"]);
    expect(blocking).toHaveBeenCalled();
    for (const spy of pooled) expect(spy).not.toHaveBeenCalled();
  });

  it("without the option, reads and listings go through the thread pool", async () => {
    const s = await store(false);
    const blocking = [vi.spyOn(fs, "openSync"), vi.spyOn(fs, "readdirSync"), vi.spyOn(fs, "opendirSync"), vi.spyOn(fs, "statSync")];
    expect(text(await s.get("g/a/.zarray"))).toBe("{}");
    expect(await s.get("g/a/.zgroup")).toBeUndefined();
    expect(await s.listDir("g/")).toEqual({ keys: [], prefixes: ["a"] });
    for (const spy of blocking) expect(spy).not.toHaveBeenCalled();
  });
});
