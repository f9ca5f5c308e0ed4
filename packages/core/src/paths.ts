/** Node paths and node names (the spec's naming rules). */
import { ZarrError } from "@zarr/spec";

/**
 * Normalises a node path: leading and trailing `/` removed, `""` for the root.
 * Throws `INVALID_ARGUMENT` for empty, `.` or `..` segments.
 */
export function normalizePath(path: string | undefined): string {
  if (path === undefined) return "";
  if (typeof path !== "string") throw new ZarrError("INVALID_ARGUMENT", `A node path must be a string, got ${typeof path}`);
  const trimmed = path.replace(/^\/+/, "").replace(/\/+$/, "");
  if (trimmed === "") return "";
  for (const segment of trimmed.split("/")) {
    if (segment === "" || segment === "." || segment === "..") {
      throw new ZarrError("INVALID_ARGUMENT", `Invalid node path ${JSON.stringify(path)}: segment ${JSON.stringify(segment)}`);
    }
    if (segment.includes("\0")) throw new ZarrError("INVALID_ARGUMENT", `Invalid node path ${JSON.stringify(path)}: NUL byte`);
  }
  return trimmed;
}

/**
 * Checks the spec's rules for the name of a new node: not empty, no `/`, not only
 * periods, not starting with the reserved `__`. Throws `INVALID_ARGUMENT`.
 */
export function validateNodeName(name: string): void {
  const bad = (why: string): never => {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid node name ${JSON.stringify(name)}: ${why}`);
  };
  if (name === "") bad("must not be empty");
  if (name.includes("/")) bad('must not contain "/"');
  if (/^\.+$/.test(name)) bad("must not consist only of periods");
  if (name.startsWith("__")) bad('names starting with "__" are reserved');
}

/** Every segment of a path for a new node must be a valid node name. */
export function validateNewNodePath(path: string): void {
  if (path === "") return;
  for (const segment of path.split("/")) validateNodeName(segment);
}

/** `a/b` + `c` → `a/b/c`; `""` + `c` → `c`. */
export function joinPath(parent: string, child: string): string {
  return parent === "" ? child : child === "" ? parent : `${parent}/${child}`;
}

/** The parent path (`""` for top-level nodes); undefined for the root. */
export function parentPath(path: string): string | undefined {
  if (path === "") return undefined;
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** The store key of a node's `zarr.json`. */
export function metadataKey(path: string): string {
  return path === "" ? "zarr.json" : `${path}/zarr.json`;
}

/** The store prefix holding a node's keys (`""` for the root, else `path/`). */
export function nodePrefix(path: string): string {
  return path === "" ? "" : `${path}/`;
}
