/**
 * Paths holding the marker of an interrupted metadata-last write. Loaded by `open` only
 * when a path has no metadata, so opening ordinary nodes never loads it (exported by
 * `@zarr/core/extensions`).
 */
import { type Store, ZarrError } from "@zarr/spec";
import { readFailed } from "./up-front.js";

/**
 * Name of the marker a writer that puts metadata last (`zarr put`) keeps next to an
 * array's chunks until its metadata is written: a node path holding it and no metadata is
 * an interrupted write, never an array of fill values or an implicit group.
 */
export const INCOMPLETE_MARKER = "zarr.incomplete.json";

/** The key of the {@link INCOMPLETE_MARKER} of the node at `path`. */
export function incompleteMarkerKey(path: string): string {
  return path === "" ? INCOMPLETE_MARKER : `${path}/${INCOMPLETE_MARKER}`;
}

/** True when the node path holds the marker of an interrupted metadata-last write. */
export async function isIncompleteWrite(store: Store, path: string, signal?: AbortSignal): Promise<boolean> {
  const key = incompleteMarkerKey(path);
  try {
    return store.getSize ? (await store.getSize(key, { signal })) !== undefined : (await store.get(key, { signal })) !== undefined;
  } catch (error) {
    throw readFailed(error, key);
  }
}

/** `NODE_NOT_FOUND` for a path holding an interrupted write. */
export function incompleteWriteError(path: string): ZarrError {
  return new ZarrError(
    "NODE_NOT_FOUND",
    `No Zarr node at "${path || "/"}": an array write was interrupted there before its metadata was written ` +
      `("${incompleteMarkerKey(path)}" marks it incomplete); finish it with "zarr put --resume" or delete it`,
    { key: incompleteMarkerKey(path) },
  );
}
