/**
 * Temporary files of atomic writes: their names, and removing the ones a killed writer
 * left behind. A name records the writing process (`.<name>.<host>-<pid>-<random>.zarr-tmp`),
 * so a later writer on the same host can tell an abandoned file (its process is gone)
 * from one a live writer is about to rename into place, which must be left alone.
 */
import { createHash, randomBytes } from "node:crypto";
import fs, { type Dirent } from "node:fs";
import os from "node:os";
import nodePath from "node:path";
import { throwIfAborted } from "@zarr/spec";
import { errorCode, isMissing, lstat, readdir, unlink } from "./fs-calls.js";
import { isTempName } from "./key-paths.js";

/** Code points of the target name kept in a temporary name (keeps it well under NAME_MAX). */
const TEMP_NAME_KEEP = 48;

/**
 * Temporary files whose writer cannot be identified as dead (another host, an older name
 * form, or a pid reused by a live process) count as abandoned after this long: no single
 * value write takes an hour.
 */
export const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

/**
 * Six hex digits naming this host, so a pid is only judged on the host that owns it.
 * Computed on first use: loading node:crypto costs start-up time that reads never need.
 */
let hostTag: string | undefined;
function currentHostTag(): string {
  hostTag ??= createHash("sha256").update(os.hostname()).digest("hex").slice(0, 6);
  return hostTag;
}

/** `<host>-<pid>-<random>` between the target name and the suffix. */
const OWNER_PATTERN = /\.([0-9a-f]{6})-(\d+)-[0-9a-f]{16}\.zarr-tmp$/;

/**
 * `.<name>.<host>-<pid>-<random>.zarr-tmp`: hidden, recognisable by listings, unique per
 * write, naming its writer, and short enough even when `name` is near the length limit.
 */
export function tempNameFor(name: string): string {
  const kept = Array.from(name).slice(0, TEMP_NAME_KEEP).join("");
  return `.${kept}.${currentHostTag()}-${process.pid}-${randomBytes(8).toString("hex")}.zarr-tmp`;
}

/**
 * True when process `pid` runs on this host (signal 0 probes without signalling). A
 * zombie (killed, not yet reaped by its parent, which in a container may never happen)
 * has stopped writing and counts as dead where /proc tells (Linux).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return errorCode(error) !== "ESRCH";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    // "pid (command) S ...": the state follows the last ")" (the command may hold one).
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/**
 * True when the temporary file `name` (modified at `mtimeMs`) was abandoned: written on
 * this host by a process that no longer runs, or at least `maxAgeMs` old whoever wrote it
 * (`0` removes every temporary file, a live writer's too: only for a store nobody writes).
 */
export function isStaleTemp(name: string, mtimeMs: number, now: number, maxAgeMs = STALE_TEMP_AGE_MS): boolean {
  if (!isTempName(name)) return false;
  const owner = OWNER_PATTERN.exec(name);
  if (owner !== null && owner[1] === currentHostTag()) {
    const pid = Number(owner[2]);
    if (pid !== process.pid && Number.isSafeInteger(pid) && pid > 0 && !processAlive(pid)) return true;
  }
  // maxAgeMs 0 means any age: a file written within the current millisecond has an mtime
  // (sub-millisecond) just past Date.now(), which a plain difference would call too young.
  return maxAgeMs <= 0 || now - mtimeMs >= maxAgeMs;
}

/** Options of {@link removeStaleTemps}. */
export interface StaleTempOptions {
  signal?: AbortSignal;
  /** Age past which any temporary file counts as abandoned (default one hour). */
  maxAgeMs?: number;
  /** Also sweep sub-directories (default `true`); `false` sweeps the one directory. */
  recursive?: boolean;
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/**
 * Removes abandoned temporary files in `dir` and below (unless `recursive: false`; never
 * descending through a symbolic link); resolves how many were removed. A file that vanishes meanwhile (its
 * writer renamed it, or another sweep removed it) is not an error.
 */
export async function removeStaleTemps(dir: string, options: StaleTempOptions = {}): Promise<number> {
  const { signal, maxAgeMs, recursive = true } = options;
  throwIfAborted(signal);
  let removed = 0;
  const now = Date.now();
  for (const entry of await entriesOf(dir)) {
    const full = nodePath.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive) removed += await removeStaleTemps(full, options);
    } else if (entry.isFile() && isTempName(entry.name)) {
      let mtimeMs: number;
      try {
        mtimeMs = (await lstat(full)).mtimeMs;
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      if (!isStaleTemp(entry.name, mtimeMs, now, maxAgeMs)) continue;
      try {
        await unlink(full);
        removed++;
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }
  return removed;
}
