/**
 * Containment for writes: before anything is created, renamed or removed, the real
 * (symlink-resolved) directory it happens in must lie inside the real root. Missing
 * directories are created one level at a time, each inside a parent already checked, so a
 * symbolic link inside the store that points elsewhere can never make a write land
 * outside it. (A process that swaps directories for links while a write is in flight can
 * still race these checks; guarding against that needs `openat`, which Node lacks.)
 */
import nodePath from "node:path";
import { ZarrError } from "@zarr/spec";
import { errorCode, isMissing, mkdir, mkdirRecursive, realpath } from "./fs-calls.js";
import { isInside } from "./key-paths.js";

function outside(key: string): ZarrError {
  return new ZarrError(
    "KEY_INVALID",
    `Invalid store key ${JSON.stringify(key)}: resolves outside the store through a symbolic link`,
    { key },
  );
}

/** The real path of the root, creating the root first. */
export async function createRealRoot(root: string): Promise<string> {
  await mkdirRecursive(root);
  return realpath(root);
}

/** The real path of the root, or `undefined` when it does not exist. */
export async function existingRealRoot(root: string): Promise<string | undefined> {
  try {
    return await realpath(root);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * The real path of the existing directory `dir` (a lexical path under the root) after
 * checking it is inside `realRoot`; `undefined` when `dir` does not exist. Throws
 * `KEY_INVALID` naming `key` when it resolves outside.
 */
export async function existingRealDir(realRoot: string, dir: string, key: string): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(dir);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  if (!isInside(realRoot, real)) throw outside(key);
  return real;
}

/**
 * The real path of directory `dir` (lexically `root` joined with more segments), created
 * if missing, checked inside the root. `realRoot` is the root's cached real path;
 * `createRoot` (re)creates the root and resolves it afresh. Throws `KEY_INVALID` naming
 * `key` for a link leading out of the store, `STORE_FAILED` when a segment is a file.
 */
export async function ensureRealDir(
  root: string,
  realRoot: string,
  dir: string,
  key: string,
  createRoot: () => Promise<string>,
): Promise<string> {
  // Fast path: the directory exists (every chunk write after the first in its directory).
  const existing = await existingRealDir(realRoot, dir, key);
  if (existing !== undefined) return existing;
  // Slow path: walk down from the root, creating and checking one level at a time.
  const freshRoot = await createRoot();
  let current = freshRoot;
  const segments = nodePath.relative(root, dir).split(nodePath.sep).filter((s) => s !== "");
  for (const segment of segments) {
    const next = nodePath.join(current, segment);
    let real: string;
    try {
      real = await realpath(next);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOTDIR") throw notADirectory(key, current);
      if (code !== "ENOENT") throw error;
      try {
        // mkdir never follows a link at `next`: a dangling one fails with EEXIST.
        await mkdir(next);
      } catch (mkdirError) {
        if (errorCode(mkdirError) !== "EEXIST") throw mkdirError;
      }
      real = await realpath(next);
    }
    if (!isInside(freshRoot, real)) throw outside(key);
    current = real;
  }
  return current;
}

function notADirectory(key: string, file: string): ZarrError {
  return new ZarrError(
    "STORE_FAILED",
    `Cannot write key ${JSON.stringify(key)}: ${JSON.stringify(file)} is a file, not a directory`,
    { key },
  );
}
