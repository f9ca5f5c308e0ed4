/** Implicit groups: paths without a `zarr.json` that exist because keys lie below them. */
import { type GroupMetadata, isListable, type Store } from "@zarr/spec";

/** True when the store lists at least one key starting with `prefix` (false for stores that cannot list). */
export async function hasKeysUnder(store: Store, prefix: string, signal?: AbortSignal): Promise<boolean> {
  if (!isListable(store)) return false;
  for await (const _ of store.listPrefix(prefix, { signal })) return true;
  return false;
}

/** The metadata of a group without a `zarr.json` (an implicit group). */
export const IMPLICIT_GROUP: GroupMetadata = { zarr_format: 3, node_type: "group", attributes: {} };
