/**
 * Writing an object that every process of a job computes identically (a setup document,
 * a part marker): conditionally where the store can (`setIfVersion`), so that of two
 * writers with different bytes exactly one wins and the other fails naming the key.
 */
import { asZarrError, isWritable, type Store, supportsConditionalWrites, ZarrError } from "@zarr/spec";

/** What `writeOnce` found: `"created"`, `"replaced"` (different bytes were there) or `"same"`. */
export type WriteOnceOutcome = "created" | "replaced" | "same";

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isChanged(error: unknown): boolean {
  return error instanceof ZarrError && error.code === "STORE_CHANGED";
}

/**
 * Stores `value` at `key` unless it is already there byte for byte. With conditional
 * writes: create-if-absent, else replace only the version just read; when another writer
 * changes the key in between and its bytes differ from `value`, rejects with
 * `STORE_CHANGED` naming the key (two finalizers of different jobs cannot both win).
 * Without them: read, compare, `set` (the last writer wins; writers of one job write the
 * same bytes).
 */
export async function writeOnce(store: Store, key: string, value: Uint8Array, signal?: AbortSignal): Promise<WriteOnceOutcome> {
  try {
    if (supportsConditionalWrites(store)) {
      try {
        await store.setIfVersion(key, value, null, { signal });
        return "created";
      } catch (error) {
        if (!isChanged(error)) throw error;
      }
      const existing = await store.getVersioned(key, undefined, { signal });
      if (existing !== undefined && sameBytes(existing.bytes, value)) return "same";
      if (existing !== undefined && existing.version === undefined) {
        // The store could not tell the version this time: nothing to condition on.
        await store.set(key, value, { signal });
        return "replaced";
      }
      try {
        await store.setIfVersion(key, value, existing?.version ?? null, { signal });
        return "replaced";
      } catch (error) {
        if (!isChanged(error)) throw error;
        const now = await store.get(key, { signal });
        if (now !== undefined && sameBytes(now, value)) return "same";
        throw new ZarrError("STORE_CHANGED", `Another writer wrote different bytes to "${key}" at the same time (another job with other options?)`, { key, cause: error });
      }
    }
    if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", `Cannot write "${key}": the store is read-only`, { key });
    const existing = await store.get(key, { signal });
    if (existing !== undefined && sameBytes(existing, value)) return "same";
    await store.set(key, value, { signal });
    return existing === undefined ? "created" : "replaced";
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Writing "${key}" failed`, key);
  }
}

/** True when `store` holds exactly `value` at `key`. */
export async function holds(store: Store, key: string, value: Uint8Array, signal?: AbortSignal): Promise<boolean> {
  const existing = await store.get(key, { signal });
  return existing !== undefined && sameBytes(existing, value);
}
