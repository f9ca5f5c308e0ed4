/**
 * The record of a `zarr put` in progress. `put` writes an array's metadata last (see
 * metadata-last.ts); while its chunks are being written, the array's prefix holds a marker
 * (`zarr.incomplete.json`, see `INCOMPLETE_MARKER` in @zarr/core) naming the input (its
 * SHA-256) and the metadata documents still to be written. Readers report the path as an
 * interrupted write; `zarr put --resume` checks that it is given the same input and
 * options, writes the chunks that are missing or differ, then the metadata, then removes
 * the marker.
 */
import { incompleteMarkerKey } from "@zarr/core/extensions";
import { asZarrError, isJsonObject, jsonToBytes, parseJsonBytes, type Store, type WritableStore, ZarrError } from "@zarr/spec";

/** What the marker records. */
export interface PutRecord {
  /** Hex SHA-256 of the `.npy` input (header and data). */
  sha256: string;
  /** The metadata documents the put will write, by key, as text. */
  metadata: Record<string, string>;
}

const FORMAT = "zarr put, metadata last";

/** The record of an interrupted put at `path`, or `undefined` when there is none. */
export async function readPutRecord(store: Store, path: string): Promise<PutRecord | undefined> {
  const key = incompleteMarkerKey(path);
  let bytes: Uint8Array | undefined;
  try {
    bytes = await store.get(key);
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
  }
  if (bytes === undefined) return undefined;
  const doc = parseJsonBytes(bytes, key);
  const metadata = isJsonObject(doc) ? doc.metadata : undefined;
  if (
    !isJsonObject(doc) ||
    doc.format !== FORMAT ||
    typeof doc.sha256 !== "string" ||
    !isJsonObject(metadata) ||
    !Object.values(metadata).every((v) => typeof v === "string")
  ) {
    throw new ZarrError("METADATA_INVALID", `"${key}" is not a record of an interrupted zarr put: delete it, or put again with --overwrite`, { key });
  }
  return { sha256: doc.sha256, metadata: metadata as Record<string, string> };
}

/** Writes the marker of a put about to write its chunks. */
export async function writePutRecord(store: Store, path: string, record: PutRecord): Promise<void> {
  const key = incompleteMarkerKey(path);
  try {
    await (store as WritableStore).set(key, jsonToBytes({ format: FORMAT, sha256: record.sha256, metadata: record.metadata }));
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not write "${key}"`, key);
  }
}

/** Removes the marker once the metadata is written. */
export async function removePutRecord(store: Store, path: string): Promise<void> {
  const key = incompleteMarkerKey(path);
  try {
    await (store as WritableStore).delete(key);
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not delete "${key}"`, key);
  }
}

/** The held metadata documents as the text a record stores. */
export function metadataTexts(held: ReadonlyMap<string, Uint8Array>): Record<string, string> {
  const decoder = new TextDecoder();
  const out: Record<string, string> = {};
  for (const [key, value] of [...held].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[key] = decoder.decode(value);
  return out;
}

/** True when two records describe the same array (same keys, same documents). */
export function sameMetadata(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** The sweep of stores that keep temporary files (the file-system store). */
type Sweep = (prefix: string, options: { recursive: boolean }) => Promise<number>;

/**
 * Removes the temporary files killed writers left for the node at `path`: everywhere
 * below it, and in the directories of its ancestors (their group documents), not in the
 * rest of the store. Stores without temporary files are left alone. Resolves how many
 * were removed.
 */
export async function removeStaleTempFiles(store: Store, path: string): Promise<number> {
  const sweep = (store as { removeStaleTempFiles?: Sweep }).removeStaleTempFiles;
  if (typeof sweep !== "function") return 0;
  let removed = await sweep.call(store, path === "" ? "" : `${path}/`, { recursive: true });
  const segments = path === "" ? [] : path.split("/");
  for (let depth = segments.length - 1; depth >= 0; depth--) {
    const ancestor = segments.slice(0, depth).join("/");
    removed += await sweep.call(store, ancestor === "" ? "" : `${ancestor}/`, { recursive: false });
  }
  return removed;
}
