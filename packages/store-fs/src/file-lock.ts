/**
 * Advisory lock files: `lock(key)` of the directory store. Node has no flock(2), so a
 * lock is a file next to the key's file, `.<name>.zarr-lock`, created with O_EXCL (`wx`):
 * exactly one creator succeeds, on local disks and on NFSv3+ alike. It holds its owner
 * (`{host, pid, time, nonce}`) so a waiter on the same host can tell a lock whose process died
 * (taken over at once) from a live one; any lock older than `staleMs` is taken over too,
 * whoever owns it (another host, where a pid means nothing).
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import nodePath from "node:path";
import { throwIfAborted, ZarrError } from "@zarr/spec";
import { close, closeQuietly, errorCode, isMissing, lstat, open, rename, unlink, writeFully } from "./fs-calls.js";
import { LOCK_SUFFIX } from "./key-paths.js";
import { processAlive } from "./temp-files.js";

/** Default age past which a lock counts as abandoned whoever holds it: 30 s (a chunk write takes milliseconds). */
export const DEFAULT_LOCK_STALE_MS = 30_000;
/** Default time `lock` waits for a held lock before failing: 60 s. */
export const DEFAULT_LOCK_TIMEOUT_MS = 60_000;

/** Longest pause between two attempts (the first is ~1 ms, doubling, with jitter). */
const MAX_BACKOFF_MS = 16;

/** Bytes of a name kept verbatim in a lock name; longer names are shortened with a hash. */
const LOCK_NAME_KEEP = 200;

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  /** Age (by the lock file's mtime) past which any lock is taken over. */
  staleMs: number;
  /** How long to wait for a held lock before failing with `STORE_FAILED`. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What a lock file holds. */
interface LockOwner {
  host: string;
  pid: number;
  time: number;
  /** Random: tells this lock from a later one at the same path (inode numbers are reused at once). */
  nonce: string;
}

/**
 * `.<name>.zarr-lock`: hidden, skipped by listings, refused as a key, one per key name
 * (names too long to fit are cut and suffixed with a hash of the whole name).
 */
export function lockNameFor(name: string): string {
  if (Buffer.byteLength(name) <= LOCK_NAME_KEEP) return `.${name}${LOCK_SUFFIX}`;
  const kept = Array.from(name).slice(0, 48).join("");
  return `.${kept}-${createHash("sha256").update(name).digest("hex").slice(0, 16)}${LOCK_SUFFIX}`;
}

/**
 * Creates the lock file `path` (retrying with backoff while another owner holds it, taking
 * over an abandoned one) and resolves its release, which removes the file unless it has
 * meanwhile been taken over as stale (then it is someone else's and stays).
 */
export async function acquireFileLock(path: string, key: string, options: FileLockOptions): Promise<() => Promise<void>> {
  const { staleMs, timeoutMs, signal } = options;
  const owner: LockOwner = { host: os.hostname(), pid: process.pid, time: Date.now(), nonce: randomBytes(8).toString("hex") };
  const text = `${JSON.stringify(owner)}\n`;
  const body = new TextEncoder().encode(text);
  const deadline = Date.now() + timeoutMs;
  let pause = 1;
  for (;;) {
    throwIfAborted(signal);
    if (await tryCreate(path, body)) return () => releaseIfOurs(path, text);
    if (await takeOverIfStale(path, staleMs)) continue;
    if (Date.now() >= deadline) {
      throw new ZarrError("STORE_FAILED", `Timed out after ${timeoutMs} ms waiting for the lock on key ${JSON.stringify(key)} (${path}, held by ${await describeHolder(path)})`, { key });
    }
    await sleep(pause * (0.5 + Math.random()), signal);
    pause = Math.min(pause * 2, MAX_BACKOFF_MS);
  }
}

/** Creates `path` exclusively with `body`; false when it already exists. */
async function tryCreate(path: string, body: Uint8Array): Promise<boolean> {
  let fd: number;
  try {
    fd = await open(path, "wx");
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
  try {
    await writeFully(fd, body);
    await close(fd);
    return true;
  } catch (error) {
    await closeQuietly(fd);
    await unlink(path).catch(() => undefined);
    throw error;
  }
}

async function releaseIfOurs(path: string, text: string): Promise<void> {
  try {
    // Another owner's file: ours was taken over as stale (we overran `staleMs`).
    if ((await fs.promises.readFile(path, "utf8")) !== text) return;
    await unlink(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** The owner recorded in a lock file, or `undefined` while it is still being written (or garbled). */
function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.host === "string" && Number.isSafeInteger(value.pid) && typeof value.time === "number") {
      return value as LockOwner;
    }
  } catch {
    // An empty file: its creator has not written it yet.
  }
  return undefined;
}

/** A lock file's state as read once: what a takeover must still find before removing it. */
interface SeenLock {
  owner: LockOwner | undefined;
  text: string;
  mtimeMs: number;
}

async function readLock(path: string): Promise<SeenLock | undefined> {
  try {
    const stats = await lstat(path);
    const text = await fs.promises.readFile(path, "utf8");
    return { owner: parseOwner(text), text, mtimeMs: stats.mtimeMs };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** True when the lock `seen` was abandoned: its process on this host is gone, or it is older than `staleMs`. */
export function isStaleLock(seen: SeenLock, now: number, staleMs: number): boolean {
  const { owner } = seen;
  if (owner !== undefined && owner.host === os.hostname() && owner.pid !== process.pid && owner.pid > 0) {
    if (!processAlive(owner.pid)) return true;
  }
  return now - seen.mtimeMs >= staleMs;
}

/**
 * Removes the lock file at `path` when it is abandoned; true when the caller should try
 * to create it again at once (removed, or gone meanwhile). The file is first renamed
 * aside, which only one of several waiters judging it stale can do; if what was moved is
 * not the file judged (a new owner created one in between), it is put back.
 */
async function takeOverIfStale(path: string, staleMs: number): Promise<boolean> {
  const seen = await readLock(path);
  if (seen === undefined) return true;
  if (!isStaleLock(seen, Date.now(), staleMs)) return false;
  const aside = nodePath.join(nodePath.dirname(path), `.${randomBytes(8).toString("hex")}${nodePath.basename(path)}`);
  try {
    await rename(path, aside);
  } catch (error) {
    if (isMissing(error)) return true;
    throw error;
  }
  try {
    // Each lock holds its own nonce, so equal contents mean the very file judged.
    const moved = await fs.promises.readFile(aside, "utf8");
    if (moved !== seen.text) {
      // A live owner's lock: restore it unless yet another owner has created one since.
      await fs.promises.link(aside, path).catch(() => undefined);
    }
  } finally {
    await unlink(aside).catch(() => undefined);
  }
  return true;
}

async function describeHolder(path: string): Promise<string> {
  const seen = await readLock(path).catch(() => undefined);
  if (seen?.owner === undefined) return "an unknown owner";
  const { host, pid, time } = seen.owner;
  return `pid ${pid} on ${host} since ${new Date(time).toISOString()}`;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ZarrError("ABORTED", "The operation was aborted", { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
