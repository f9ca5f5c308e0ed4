/**
 * What a path without metadata (in any registered format) is: an interrupted write, an
 * implicit group, or nothing (`NODE_NOT_FOUND`). Loaded by `openEntry` only on that way,
 * so opening ordinary nodes never loads it.
 */
import type { Store } from "@zarr/spec";
import { incompleteWriteError, isIncompleteWrite } from "./incomplete-write.js";
import { hasKeysUnder } from "./keys-under.js";
import type { NodeEntry } from "./node-format.js";
import { IMPLICIT_GROUP, isListable, metadataKey, nodePrefix, ZarrError } from "./up-front.js";

/**
 * The entry of node path `path` (normalised), which has no metadata: an implicit group
 * when keys lie below it; `NODE_NOT_FOUND` when it holds an interrupted metadata-last
 * write or nothing at all.
 */
export async function entryWithoutMetadata(store: Store, path: string, signal?: AbortSignal): Promise<NodeEntry> {
  if (await isIncompleteWrite(store, path, signal)) throw incompleteWriteError(path);
  if (await hasKeysUnder(store, nodePrefix(path), signal)) {
    return { path, name: path.slice(path.lastIndexOf("/") + 1), kind: "group", metadata: IMPLICIT_GROUP, implicit: true };
  }
  const listable = isListable(store) ? "" : " (the store cannot list keys, so implicit groups cannot be detected)";
  throw new ZarrError("NODE_NOT_FOUND", `No Zarr node at "${path || "/"}": "${metadataKey(path)}" does not exist${listable}`, {
    key: metadataKey(path),
  });
}
