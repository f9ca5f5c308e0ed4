/**
 * `FileSystemStore.listStoredKeys`: the keys under a prefix in one directory walk, for
 * readers that touch very many chunks (a chunk not listed is missing, without an `open`
 * per chunk). Only a listing known to be complete is returned: a symbolic link in the way
 * (which a read might follow) gives `undefined`, and the caller reads key by key as before.
 */
import fs from "node:fs";
import nodePath from "node:path";
import { throwIfAborted, ZarrError } from "@zarr/spec";
import type { DirCalls } from "./dir-calls.js";
import { errorCode, isMissing } from "./fs-calls.js";
import { prefixToPath } from "./key-paths.js";
import { startDir } from "./walk.js";

/** Directory entries read per system call. */
const ENTRIES_PER_READ = 512;

/**
 * Every entry that is not a directory below `prefix` of the store at `root`, as keys;
 * `undefined` past `limit` keys, at a symbolic link, or when the prefix's directory
 * resolves outside the root (its reads then fail as they always have). `[]` when the
 * directory does not exist.
 */
export async function listStoredKeys(
  root: string,
  prefix: string,
  followSymlinks: boolean,
  limit: number,
  signal: AbortSignal | undefined,
  calls: DirCalls,
): Promise<string[] | undefined> {
  throwIfAborted(signal);
  let start: Awaited<ReturnType<typeof startDir>>;
  try {
    start = await startDir(root, prefixToPath(root, prefix), prefix, followSymlinks, calls);
  } catch (error) {
    if (error instanceof ZarrError && error.code === "KEY_INVALID") return undefined;
    throw error;
  }
  if (start === undefined) return [];
  const keys: string[] = [];
  const pending: { path: string; keyPrefix: string }[] = [{ path: start.path, keyPrefix: prefix }];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let handle: fs.Dir;
    try {
      handle = await fs.promises.opendir(dir.path, { bufferSize: ENTRIES_PER_READ });
    } catch (error) {
      // Removed meanwhile, or a file where a directory was: nothing below it.
      if (isMissing(error) || errorCode(error) === "ENOTDIR") continue;
      throw error;
    }
    // Leaving the loop early (return, throw) closes the handle.
    for await (const entry of handle) {
      throwIfAborted(signal);
      if (entry.isDirectory()) pending.push({ path: nodePath.join(dir.path, entry.name), keyPrefix: `${dir.keyPrefix}${entry.name}/` });
      else if (entry.isSymbolicLink() || keys.length >= limit) return undefined;
      else keys.push(dir.keyPrefix + entry.name);
    }
  }
  return keys;
}
