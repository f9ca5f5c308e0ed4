import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { isStaleTemp, STALE_TEMP_AGE_MS, tempNameFor } from "../src/temp-files.js";
import { collect, filesOnDisk, rejectsWith, tempDir, utf8 } from "./helpers.js";

/** A pid that certainly does not run: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

/** A temporary-file name as process `pid` on this host would write it. */
function tempNameOf(name: string, pid: number): string {
  return tempNameFor(name).replace(`-${process.pid}-`, `-${pid}-`);
}

describe("temporary-file names", () => {
  it("record this host and pid, and stay recognisable", () => {
    const name = tempNameFor("zarr.json");
    expect(name).toMatch(new RegExp(`^\\.zarr\\.json\\.[0-9a-f]{6}-${process.pid}-[0-9a-f]{16}\\.zarr-tmp$`));
    expect(isStaleTemp(name, Date.now(), Date.now())).toBe(false); // our own: alive
  });

  it("a dead writer's file is stale at once; a live one's only after the age limit", () => {
    const now = Date.now();
    expect(isStaleTemp(tempNameOf("c", deadPid()), now, now)).toBe(true);
    expect(isStaleTemp(tempNameOf("c", process.ppid), now, now)).toBe(false);
    expect(isStaleTemp(tempNameOf("c", process.ppid), now - STALE_TEMP_AGE_MS - 1, now)).toBe(true);
    // maxAgeMs 0 is any age, even for an mtime a fraction of a millisecond past Date.now().
    expect(isStaleTemp(tempNameOf("c", process.ppid), now + 0.4, now, 0)).toBe(true);
    // The older name form (no owner) and other hosts' files: by age only.
    expect(isStaleTemp(".c.0123456789abcdef.zarr-tmp", now, now)).toBe(false);
    expect(isStaleTemp(".c.0123456789abcdef.zarr-tmp", now - STALE_TEMP_AGE_MS - 1, now)).toBe(true);
    expect(isStaleTemp(`.c.zzzzzz-${deadPid()}-0123456789abcdef.zarr-tmp`, now, now)).toBe(false);
    expect(isStaleTemp("c", 0, now)).toBe(false); // not a temporary file at all
  });
});

describe("removeStaleTempFiles", () => {
  it("removes abandoned temporary files, keeps live writers' files and every key", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    await store.set("a/zarr.json", utf8("{}"));
    await store.set("a/c/0/0", utf8("chunk"));
    const dead = deadPid();
    const abandoned = [path.join(root, "a", tempNameOf("zarr.json", dead)), path.join(root, "a", "c", "0", tempNameOf("1", dead))];
    const live = path.join(root, "a", "c", tempNameOf("0", process.ppid));
    for (const file of [...abandoned, live]) fs.writeFileSync(file, "partial");
    expect(await collect(store.list())).toEqual(["a/c/0/0", "a/zarr.json"]); // listings ignore them all
    expect(await store.removeStaleTempFiles()).toBe(2);
    for (const file of abandoned) expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    // An old enough file goes whoever wrote it.
    expect(await store.removeStaleTempFiles("", { maxAgeMs: -1 })).toBe(1);
    expect(filesOnDisk(root)).toEqual(["a/c/0/0", "a/zarr.json"]);
  });

  it("works on a prefix only, and on a missing root or prefix", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    await store.set("a/k", utf8("k"));
    await store.set("b/k", utf8("k"));
    const dead = deadPid();
    fs.writeFileSync(path.join(root, "a", tempNameOf("k", dead)), "x");
    fs.writeFileSync(path.join(root, "b", tempNameOf("k", dead)), "x");
    expect(await store.removeStaleTempFiles("a/")).toBe(1);
    expect(fs.readdirSync(path.join(root, "b"))).toHaveLength(2);
    expect(await store.removeStaleTempFiles("missing/")).toBe(0);
    expect(await new FileSystemStore(path.join(root, "nowhere")).removeStaleTempFiles()).toBe(0);
  });

  it("never descends through a link, and refuses read-only stores", async () => {
    const root = tempDir();
    const outside = tempDir();
    const store = new FileSystemStore(root);
    await store.set("k", utf8("k"));
    const foreign = path.join(outside, tempNameOf("x", deadPid()));
    fs.writeFileSync(foreign, "x");
    fs.symlinkSync(outside, path.join(root, "link"));
    expect(await store.removeStaleTempFiles()).toBe(0);
    expect(fs.existsSync(foreign)).toBe(true);
    await rejectsWith(new FileSystemStore(root, { readOnly: true }).removeStaleTempFiles(), "STORE_READ_ONLY");
  });
});

it("recursive: false sweeps one directory only", async () => {
  const root = tempDir();
  const store = new FileSystemStore(root);
  await store.set("zarr.json", utf8("{}"));
  await store.set("a/k", utf8("k"));
  const dead = deadPid();
  fs.writeFileSync(path.join(root, tempNameOf("zarr.json", dead)), "x");
  fs.writeFileSync(path.join(root, "a", tempNameOf("k", dead)), "x");
  expect(await store.removeStaleTempFiles("", { recursive: false })).toBe(1);
  expect(fs.readdirSync(path.join(root, "a"))).toHaveLength(2);
});
