/**
 * Directory walking for listings. Keys are regular files (or links to them) whose names
 * can be key segments, minus temporary files of in-progress writes. Links are followed
 * when they stay inside the store's real root (or always, with `followSymlinks`); links
 * to directories are followed with a guard that refuses a link leading back to a
 * directory already on the walk's path, so a link cycle can never make a listing loop.
 */
import type { Dirent } from "node:fs";
import nodePath from "node:path";
import { mapConcurrent, throwIfAborted } from "@zarr/spec";
import type { DirCalls } from "./dir-calls.js";
import { isMissing } from "./fs-calls.js";
import { isInside, isKeySegment, isReservedName } from "./key-paths.js";
import { escapesRoot } from "./read-containment.js";

/** Where a walk may go: links leaving `realRoot` are skipped unless `followSymlinks`. */
export interface WalkScope {
  readonly realRoot: string;
  readonly followSymlinks: boolean;
  /** How the walk calls the file system (thread pool or blocking). */
  readonly calls: DirCalls;
}

/** A directory being walked: where to read it, its real path, and its walk ancestry. */
export interface WalkDir {
  /** Path used to read the directory (may pass through links). */
  readonly path: string;
  /** Its real path, for the cycle guard. */
  readonly real: string;
  readonly parent: WalkDir | undefined;
  readonly scope: WalkScope;
}

/** Directories probed in parallel by `listDir` when checking which children hold keys. */
const PROBE_CONCURRENCY = 16;

/**
 * The walk's starting directory (the directory of `prefix` under `root`), or `undefined`
 * when it (or the root) does not exist. Throws `KEY_INVALID` naming `prefix` when it
 * resolves outside the root and links may not be followed there.
 */
export async function startDir(
  root: string,
  path: string,
  prefix: string,
  followSymlinks: boolean,
  calls: DirCalls,
): Promise<WalkDir | undefined> {
  let real: string;
  let realRoot: string;
  try {
    realRoot = await calls.realpath(root);
    // A file here is caught later: reading it as a directory fails with ENOTDIR (= empty).
    real = path === root ? realRoot : await calls.realpath(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  if (!followSymlinks && !isInside(realRoot, real)) throw escapesRoot(prefix);
  return { path, real, parent: undefined, scope: { realRoot, followSymlinks, calls } };
}

type EntryKind = "key" | "dir" | "skip";

/**
 * Classifies an entry of `dir`, following links that stay in scope; broken links, links
 * out of the root (unless followed) and special files are skipped.
 */
async function entryKind(dir: WalkDir, entry: Dirent, fullPath: string): Promise<EntryKind> {
  if (!isKeySegment(entry.name)) return "skip";
  if (entry.isFile()) return isReservedName(entry.name) ? "skip" : "key";
  if (entry.isDirectory()) return "dir";
  if (!entry.isSymbolicLink()) return "skip";
  try {
    const { calls } = dir.scope;
    if (!dir.scope.followSymlinks && !isInside(dir.scope.realRoot, await calls.realpath(fullPath))) return "skip";
    const target = await calls.stat(fullPath);
    if (target.isFile()) return isReservedName(entry.name) ? "skip" : "key";
    return target.isDirectory() ? "dir" : "skip";
  } catch {
    return "skip"; // dangling link or link loop
  }
}

/** The child directory to descend into, or `undefined` for a link that would cycle. */
async function childDir(parent: WalkDir, entry: Dirent, fullPath: string): Promise<WalkDir | undefined> {
  if (!entry.isSymbolicLink()) {
    return { path: fullPath, real: nodePath.join(parent.real, entry.name), parent, scope: parent.scope };
  }
  let real: string;
  try {
    real = await parent.scope.calls.realpath(fullPath);
  } catch {
    return undefined;
  }
  // Entering `real` would revisit an ancestor (or a directory below `real` on our path).
  for (let node: WalkDir | undefined = parent; node !== undefined; node = node.parent) {
    if (isInside(real, node.real)) return undefined;
  }
  return { path: fullPath, real, parent, scope: parent.scope };
}

/** Directory entries sorted by name, or `[]` when the directory is missing. */
async function sortedEntries(dir: WalkDir): Promise<Dirent[]> {
  let entries: Dirent[];
  try {
    entries = await dir.scope.calls.readdir(dir.path);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Yields every key below `dir`, each as `keyPrefix + relative key`, depth first in name
 * order. `acceptName`, when given, filters the names directly in `dir` (not deeper).
 */
export async function* walkKeys(
  dir: WalkDir,
  keyPrefix: string,
  signal: AbortSignal | undefined,
  acceptName?: (name: string) => boolean,
): AsyncGenerator<string> {
  throwIfAborted(signal);
  for (const entry of await sortedEntries(dir)) {
    throwIfAborted(signal);
    if (acceptName !== undefined && !acceptName(entry.name)) continue;
    const fullPath = nodePath.join(dir.path, entry.name);
    const kind = await entryKind(dir, entry, fullPath);
    if (kind === "key") {
      yield keyPrefix + entry.name;
    } else if (kind === "dir") {
      const child = await childDir(dir, entry, fullPath);
      if (child !== undefined) yield* walkKeys(child, `${keyPrefix}${entry.name}/`, signal);
    }
  }
}

/** True when at least one key exists somewhere below `dir` (stops at the first one found). */
async function holdsAnyKey(dir: WalkDir, signal: AbortSignal | undefined): Promise<boolean> {
  throwIfAborted(signal);
  let handle: Awaited<ReturnType<DirCalls["opendir"]>>;
  try {
    handle = await dir.scope.calls.opendir(dir.path);
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  // Breaking out of (or returning from) the loop closes the directory handle.
  for await (const entry of handle) {
    const fullPath = nodePath.join(dir.path, entry.name);
    const kind = await entryKind(dir, entry, fullPath);
    if (kind === "key") return true;
    if (kind === "dir") {
      const child = await childDir(dir, entry, fullPath);
      if (child !== undefined && (await holdsAnyKey(child, signal))) return true;
    }
  }
  return false;
}

/**
 * One level of `dir`: the keys directly in it and the sub-directories that hold at least
 * one key (directories left empty by deletes are not reported), both sorted. With
 * `uncheckedPrefixes` every sub-directory is reported without opening it.
 */
export async function listOneLevel(
  dir: WalkDir,
  signal: AbortSignal | undefined,
  uncheckedPrefixes = false,
): Promise<{ keys: string[]; prefixes: string[] }> {
  throwIfAborted(signal);
  const keys: string[] = [];
  const candidates: WalkDir[] = [];
  const candidateNames: string[] = [];
  for (const entry of await sortedEntries(dir)) {
    const fullPath = nodePath.join(dir.path, entry.name);
    const kind = await entryKind(dir, entry, fullPath);
    if (kind === "key") {
      keys.push(entry.name);
    } else if (kind === "dir") {
      const child = await childDir(dir, entry, fullPath);
      if (child !== undefined) {
        candidates.push(child);
        candidateNames.push(entry.name);
      }
    }
  }
  if (uncheckedPrefixes) return { keys, prefixes: candidateNames };
  const nonEmpty = await mapConcurrent(candidates, PROBE_CONCURRENCY, (child) => holdsAnyKey(child, signal), {
    signal,
  });
  const prefixes = candidateNames.filter((_, i) => nonEmpty[i]);
  return { keys, prefixes };
}
