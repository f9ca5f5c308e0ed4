/**
 * Whether keys lie below a path (an implicit group's test): for the modules that look for
 * implicit groups (node-not-found.ts, listing.ts, `exists`), loaded with them, so opening an
 * ordinary node does not load it (bundle size).
 */
import type { Store } from "@zarr/spec";
import { isListable } from "./up-front.js";

/** True when the store lists at least one key starting with `prefix` (false for stores that cannot list). */
export async function hasKeysUnder(store: Store, prefix: string, signal?: AbortSignal): Promise<boolean> {
  if (!isListable(store)) return false;
  for await (const _ of store.listPrefix(prefix, { signal })) return true;
  return false;
}
