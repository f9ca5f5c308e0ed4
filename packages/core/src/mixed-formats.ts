/**
 * Keeping one Zarr version per hierarchy. A Zarr v3 node below a Zarr v2 group (or the
 * reverse) is invisible to readers of the other version and leaves two root documents
 * side by side (`zarr.json` next to `.zgroup`), so creating one is refused unless the
 * caller opts in (`allowMixedFormats: true`).
 *
 * Core writes Zarr v3 itself and knows Zarr v2 only through registered formats, but it
 * must find v2 ancestors even when no v2 format is registered: it looks for the two v2
 * node documents by name (cheap size probes, only for ancestors without a `zarr.json`).
 */
import { asZarrError, type Store, ZarrError } from "@zarr/spec";
import { nodePrefix } from "./paths.js";

/** Zarr v2's node documents, by the kind of node each makes. */
const V2_DOCUMENTS = [
  { name: ".zgroup", kind: "group" },
  { name: ".zarray", kind: "array" },
] as const;

async function keyExists(store: Store, key: string, signal?: AbortSignal): Promise<boolean> {
  try {
    return store.getSize ? (await store.getSize(key, { signal })) !== undefined : (await store.get(key, { signal })) !== undefined;
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
  }
}

/** The Zarr v2 node at `path` (its kind and document key), or `undefined` when there is none. */
export async function v2NodeAt(store: Store, path: string, signal?: AbortSignal): Promise<{ kind: "group" | "array"; key: string } | undefined> {
  for (const doc of V2_DOCUMENTS) {
    const key = nodePrefix(path) + doc.name;
    if (await keyExists(store, key, signal)) return { kind: doc.kind, key };
  }
  return undefined;
}

/**
 * The `INVALID_ARGUMENT` error for creating a node of one Zarr version below a node of the
 * other: it names the new node, the ancestor, both versions and the ways out
 * (@zarr/v2-compat words its own the same way for the reverse case).
 */
export function mixedFormatsError(
  created: { path: string; kind: "array" | "group"; zarrFormat: 2 | 3 },
  ancestor: { path: string; kind: "array" | "group"; zarrFormat: 2 | 3; key: string },
): ZarrError {
  const other = created.zarrFormat === 3 ? 2 : 3;
  return new ZarrError(
    "INVALID_ARGUMENT",
    `Cannot create the Zarr v${created.zarrFormat} ${created.kind} "${created.path || "/"}": its ancestor "${ancestor.path || "/"}" is a ` +
      `Zarr v${ancestor.zarrFormat} ${ancestor.kind} ("${ancestor.key}"), and one hierarchy does not mix Zarr v2 and v3 (readers of either ` +
      `would not see the other's nodes). Create it with zarrFormat: ${other}, convert the hierarchy first, or pass allowMixedFormats: true.`,
    { key: ancestor.key },
  );
}
