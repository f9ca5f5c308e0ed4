/**
 * Mapping store keys onto file-system paths, and the checks that keep every path inside
 * the store's root. Pure functions over a `path` implementation, so the Windows rules can
 * be exercised on any platform with `path.win32`.
 */
import nodePath from "node:path";
import { validateKey, validatePrefix, ZarrError } from "@zarr/spec";

/** The subset of `node:path` used here (`path.posix` and `path.win32` both fit). */
export type PathApi = Pick<typeof nodePath, "join" | "relative" | "isAbsolute" | "sep">;

/** Suffix of temporary files written by `set` before they are renamed into place. */
export const TEMP_SUFFIX = ".zarr-tmp";

/** True for a file name of the form `.<name>.<random>.zarr-tmp` (an in-progress or abandoned write). */
export function isTempName(name: string): boolean {
  return name.length > 1 + TEMP_SUFFIX.length && name.startsWith(".") && name.endsWith(TEMP_SUFFIX);
}

/** Suffix of the lock files `lock` creates next to a key's file (`.<name>.zarr-lock`). */
export const LOCK_SUFFIX = ".zarr-lock";

/** True for a file name of the form `.<name>.zarr-lock` (a held, released-meanwhile or abandoned lock). */
export function isLockName(name: string): boolean {
  return name.length > 1 + LOCK_SUFFIX.length && name.startsWith(".") && name.endsWith(LOCK_SUFFIX);
}

/** True for names listings skip and keys may not end in: temporary files and lock files. */
export function isReservedName(name: string): boolean {
  return isTempName(name) || isLockName(name);
}

/**
 * True when a directory entry name can be a key segment. Listings skip other names
 * (possible on POSIX, e.g. a backslash) because `get` would refuse the key they form.
 */
export function isKeySegment(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !name.includes("\\") && !name.includes("\0");
}

/**
 * True when `child` is `parent` or lies below it. Uses `relative` rather than a string
 * prefix test so `/data/store-2` is not "inside" `/data/store`, a root of `/` works, and
 * Windows drive letters compare case-insensitively.
 */
export function isInside(parent: string, child: string, path: PathApi = nodePath): boolean {
  const rel = path.relative(parent, child);
  if (rel === "") return true;
  if (path.isAbsolute(rel)) return false; // another drive on Windows
  const first = rel.split(path.sep, 1)[0];
  return first !== "..";
}

function escapes(key: string, why: string): ZarrError {
  return new ZarrError("KEY_INVALID", `Invalid store key ${JSON.stringify(key)}: ${why}`, { key });
}

/**
 * The path of `key` under `root`. Validates the key with the contract's rules, refuses
 * names reserved for temporary files, and checks lexically that the result stays under
 * `root` (a second line of defence behind `validateKey`). `root` must be normalised
 * (`path.resolve`d). Throws `KEY_INVALID`.
 */
export function keyToPath(root: string, key: string, path: PathApi = nodePath): string {
  validateKey(key);
  const segments = key.split("/");
  const last = segments[segments.length - 1];
  if (isTempName(last)) {
    throw escapes(key, `names of the form ".<name>.<random>${TEMP_SUFFIX}" are reserved for temporary files`);
  }
  if (isLockName(last)) {
    throw escapes(key, `names of the form ".<name>${LOCK_SUFFIX}" are reserved for lock files`);
  }
  return checkedJoin(root, key, segments, path);
}

/** The directory of a prefix (`""` → root, `"a/b/"` → `<root>/a/b`). Throws `KEY_INVALID`. */
export function prefixToPath(root: string, prefix: string, path: PathApi = nodePath): string {
  validatePrefix(prefix);
  if (prefix === "") return root;
  return checkedJoin(root, prefix, prefix.slice(0, -1).split("/"), path);
}

function checkedJoin(root: string, key: string, segments: string[], path: PathApi): string {
  for (const segment of segments) {
    // On Windows `/` also separates paths, and `:` opens an alternate data stream.
    if (path.sep === "\\" && (segment.includes(":") || segment.includes("/"))) {
      throw escapes(key, "contains a character Windows treats as a path separator or stream name");
    }
  }
  const full = path.join(root, ...segments);
  // A plain prefix test (join keeps a normalised root verbatim): `isInside` would call
  // path.relative, several times slower, on the hot read path.
  const rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (full.length <= rootPrefix.length || !full.startsWith(rootPrefix)) {
    throw escapes(key, "resolves outside the store");
  }
  return full;
}

/**
 * Splits a `listPrefix` string prefix into the directory to walk (a valid prefix ending in
 * `/`, or `""`) and the start of the names wanted in it: `"a/bc"` → `["a/", "bc"]`.
 */
export function splitStringPrefix(prefix: string): [dirPrefix: string, namePrefix: string] {
  const cut = prefix.lastIndexOf("/") + 1;
  const dirPrefix = prefix.slice(0, cut);
  const namePrefix = prefix.slice(cut);
  validatePrefix(dirPrefix);
  if (namePrefix.includes("\\") || namePrefix.includes("\0")) {
    throw escapes(prefix, "contains a backslash or NUL byte");
  }
  return [dirPrefix, namePrefix];
}
