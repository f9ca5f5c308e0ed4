/** Listing a sorted set of keys: by prefix (binary search) and one folder level at a time. */
import type { DirListing } from "@zarr/spec";

/** One folder level of a listing: the keys in it and the names of its child folders. */
export type DirLevels = Map<string, { keys: string[]; prefixes: Set<string> }>;

/** The keys of `sorted` that start with `prefix`, found by binary search (they are contiguous). */
export function* keysWithPrefix(sorted: readonly string[], prefix: string): Generator<string> {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sorted.length && sorted[i].startsWith(prefix); i++) yield sorted[i];
}

/** One listing level per folder, from the sorted keys (so every list comes out sorted). */
export function buildDirs(sorted: readonly string[]): DirLevels {
  const dirs: DirLevels = new Map();
  const level = (p: string) => {
    let l = dirs.get(p);
    if (l === undefined) {
      l = { keys: [], prefixes: new Set() };
      dirs.set(p, l);
    }
    return l;
  };
  level("");
  for (const key of sorted) {
    let start = 0;
    let slash = key.indexOf("/");
    while (slash >= 0) {
      level(key.slice(0, start)).prefixes.add(key.slice(start, slash));
      start = slash + 1;
      slash = key.indexOf("/", start);
    }
    level(key.slice(0, start)).keys.push(key.slice(start));
  }
  return dirs;
}

/** The listing of folder `prefix` (`""` or ending in `/`) from the levels; empty when there is no such folder. */
export function dirListing(dirs: DirLevels, prefix: string): DirListing {
  const level = dirs.get(prefix);
  return level === undefined ? { keys: [], prefixes: [] } : { keys: level.keys.slice(), prefixes: [...level.prefixes].sort() };
}
