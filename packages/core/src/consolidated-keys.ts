/**
 * Keys of consolidated metadata come from a document anyone can write: a key such as
 * `"../evil"`, `""` or `"/abs"` names no descendant, and must neither break listing the
 * whole group nor make a listing yield `""` or `".."`. Such keys are skipped with a
 * warning; the valid rest of the document is still used.
 */

/** True when `rel` is a relative node path below a group: non-empty segments, none `.` or `..`, no NUL or backslash. */
export function isDescendantPath(rel: string): boolean {
  if (typeof rel !== "string" || rel === "") return false;
  for (const segment of rel.split("/")) {
    if (segment === "" || segment === "." || segment === ".." || segment.includes("\0") || segment.includes("\\")) return false;
  }
  return true;
}

/**
 * The entries whose keys are descendant paths (see {@link isDescendantPath}), in order;
 * each other key is reported once through `console.warn`, naming `where` (the document).
 *
 * @example
 * ```ts
 * validConsolidatedEntries(Object.entries({ a: m, "../evil": m }), "zarr.json"); // Map { "a" => m }, one warning
 * ```
 */
export function validConsolidatedEntries<T>(entries: Iterable<[string, T]>, where: string): Map<string, T> {
  const out = new Map<string, T>();
  for (const [key, value] of entries) {
    if (isDescendantPath(key)) out.set(key, value);
    else console.warn(`zarr: skipping the consolidated metadata entry ${JSON.stringify(key)} in "${where}": not a relative node path`);
  }
  return out;
}
