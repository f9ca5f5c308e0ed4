/** Reading and writing JSON documents in a store, with errors that name the key. */
import {
  asZarrError,
  isWritable,
  type JsonValue,
  jsonToBytes,
  parseJsonBytes,
  type Store,
  ZarrError,
} from "@zarr/spec";

/** Reads the bytes at `key`; `undefined` when there are none. */
export async function readBytes(store: Store, key: string, signal?: AbortSignal): Promise<Uint8Array | undefined> {
  try {
    return await store.get(key, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
  }
}

/** Reads and parses the JSON document at `key`; `undefined` when there is none. */
export async function readJson(store: Store, key: string, signal?: AbortSignal): Promise<JsonValue | undefined> {
  const bytes = await readBytes(store, key, signal);
  return bytes === undefined ? undefined : parseJsonBytes(bytes, key);
}

/** Writes `value` as JSON (indented by 4, as zarr-python 2 writes its documents) to `key`. */
export async function writeJson(store: Store, key: string, value: JsonValue, signal?: AbortSignal): Promise<void> {
  if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", `Cannot write "${key}": the store is not writable`, { key });
  try {
    await store.set(key, jsonToBytes(value, 4), { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not write "${key}"`, key);
  }
}

/** Deletes `key` (missing keys are fine). */
export async function deleteKey(store: Store, key: string, signal?: AbortSignal): Promise<void> {
  if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", `Cannot delete "${key}": the store is not writable`, { key });
  try {
    await store.delete(key, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not delete "${key}"`, key);
  }
}

/** `path/` for a node path, `""` for the root. */
export function prefixOf(path: string): string {
  return path === "" ? "" : `${path}/`;
}

/** `a/b` + `c` → `a/b/c`. */
export function join(parent: string, child: string): string {
  return parent === "" ? child : child === "" ? parent : `${parent}/${child}`;
}
