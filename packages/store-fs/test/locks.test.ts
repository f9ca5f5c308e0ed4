import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lockNameFor } from "../src/file-lock.js";
import { FileSystemStore } from "../src/index.js";
import { collect, rejectsWith, tempDir, utf8 } from "./helpers.js";

/** A pid that certainly does not run: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

function writeLockFile(root: string, key: string, owner: object, ageMs = 0): string {
  const file = path.join(root, path.dirname(key), lockNameFor(path.basename(key)));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...owner, nonce: "0123456789abcdef" }));
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(file, then, then);
  }
  return file;
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("FileSystemStore.lock", () => {
  it("creates .<name>.zarr-lock next to the key with its owner, removes it on release", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    const held = await store.lock("a/c/0");
    const file = path.join(root, "a", "c", ".0.zarr-lock");
    const owner = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(owner).toMatchObject({ host: os.hostname(), pid: process.pid });
    await held.release();
    expect(fs.existsSync(file)).toBe(false);
    await held.release(); // twice is harmless
  });

  it("is exclusive: a second locker waits until the first releases", async () => {
    const store = new FileSystemStore(tempDir());
    const first = await store.lock("c/0");
    let second = false;
    const waiting = store.lock("c/0").then((held) => {
      second = true;
      return held;
    });
    await later(50);
    expect(second).toBe(false);
    await first.release();
    await (await waiting).release();
    expect(second).toBe(true);
  });

  it("different keys do not wait for each other", async () => {
    const store = new FileSystemStore(tempDir());
    const a = await store.lock("c/0");
    const b = await store.lock("c/1");
    await a.release();
    await b.release();
  });

  it("lock files never appear in listings, and are refused as keys", async () => {
    const store = new FileSystemStore(tempDir());
    await store.set("c/0", utf8("x"));
    const held = await store.lock("c/0");
    expect(await collect(store.list())).toEqual(["c/0"]);
    expect(await store.listDir("c/")).toEqual({ keys: ["0"], prefixes: [] });
    await rejectsWith(store.get("c/.0.zarr-lock"), "KEY_INVALID");
    await rejectsWith(store.set("c/.0.zarr-lock", utf8("x")), "KEY_INVALID");
    await held.release();
  });

  it("takes over at once a lock whose process on this host is gone", async () => {
    const root = tempDir();
    writeLockFile(root, "c/0", { host: os.hostname(), pid: deadPid(), time: Date.now() });
    const store = new FileSystemStore(root, { lockTimeoutMs: 2000 });
    const held = await store.lock("c/0");
    expect(JSON.parse(fs.readFileSync(path.join(root, "c", ".0.zarr-lock"), "utf8")).pid).toBe(process.pid);
    await held.release();
  });

  it("a writer killed while holding the lock does not block the next one", async () => {
    const root = tempDir();
    const storeModule = new URL("../dist/index.js", import.meta.url).href;
    // Takes the lock, says so, then hangs until killed (SIGKILL: no finally runs).
    const script = `const { FileSystemStore } = await import(${JSON.stringify(storeModule)});
      await new FileSystemStore(process.argv[1]).lock("c/0");
      process.stdout.write("held\\n");
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, root], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise((resolve, reject) => {
      child.stdout.once("data", resolve);
      child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
    });
    const file = path.join(root, "c", ".0.zarr-lock");
    expect(JSON.parse(fs.readFileSync(file, "utf8")).pid).toBe(child.pid);
    const store = new FileSystemStore(root, { lockTimeoutMs: 500 });
    await rejectsWith(store.lock("c/0"), "STORE_FAILED"); // alive: waited for
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const started = Date.now();
    const held = await store.lock("c/0"); // dead: taken over at once, long before lockStaleMs
    expect(Date.now() - started).toBeLessThan(400);
    await held.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it("waits for a live owner's lock, then fails with STORE_FAILED naming the key and the holder", async () => {
    const root = tempDir();
    writeLockFile(root, "c/0", { host: os.hostname(), pid: process.ppid, time: Date.now() });
    const store = new FileSystemStore(root, { lockTimeoutMs: 100 });
    const error = await rejectsWith(store.lock("c/0"), "STORE_FAILED");
    expect(error.message).toContain('"c/0"');
    expect(error.message).toContain(`pid ${process.ppid}`);
  });

  it("takes over any lock older than lockStaleMs (another host's too)", async () => {
    const root = tempDir();
    writeLockFile(root, "c/0", { host: "elsewhere", pid: 1, time: 0 }, 10_000);
    const store = new FileSystemStore(root, { lockStaleMs: 5000, lockTimeoutMs: 1000 });
    await (await store.lock("c/0")).release();
    // Younger than the limit: waited for.
    writeLockFile(root, "c/0", { host: "elsewhere", pid: 1, time: 0 }, 1000);
    await rejectsWith(store.lock("c/0"), "STORE_FAILED");
  });

  it("does not remove a lock that was taken over from it (it overran lockStaleMs)", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    const held = await store.lock("c/0");
    const file = path.join(root, "c", ".0.zarr-lock");
    fs.rmSync(file);
    fs.writeFileSync(file, JSON.stringify({ host: "other", pid: 1, time: Date.now() }));
    await held.release();
    expect(fs.existsSync(file)).toBe(true);
  });

  it("stops waiting when aborted, and refuses read-only stores and bad options", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    const held = await store.lock("c/0");
    const controller = new AbortController();
    const waiting = store.lock("c/0", { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await rejectsWith(waiting, "ABORTED");
    await held.release();
    await rejectsWith(new FileSystemStore(root, { readOnly: true }).lock("c/0"), "STORE_READ_ONLY");
    expect(() => new FileSystemStore(root, { lockStaleMs: 0 })).toThrow(/lockStaleMs/);
    expect(() => new FileSystemStore(root, { lockTimeoutMs: Number.NaN })).toThrow(/lockTimeoutMs/);
  });

  it("long key names get a bounded lock name", () => {
    const name = "x".repeat(250);
    const lock = lockNameFor(name);
    expect(Buffer.byteLength(lock)).toBeLessThan(100);
    expect(lock).not.toBe(lockNameFor(`${"x".repeat(249)}y`));
  });
});
