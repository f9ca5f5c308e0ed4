/** Opening a reference set stored in a store: a kerchunk JSON document (versions 0 and 1), or a Parquet reference set. */
import { type Store, ZarrError } from "@zarr/spec";
import type { ReferenceDocumentOptions } from "./document.js";
import { parseReferenceBytes } from "./document-bytes.js";
import { ReferenceStore, type ReferenceStoreOptions, tableSource } from "./reference-store.js";

/** Options of {@link openReferences}. */
export type OpenReferencesOptions = ReferenceStoreOptions & Omit<ReferenceDocumentOptions, "where"> & { signal?: AbortSignal };

/**
 * Reads the reference document `key` of `source` (e.g. `refs.json`, written by kerchunk or
 * VirtualiZarr), or the Parquet reference set in the folder `key` (holding `.zmetadata`
 * and `<array>/refs.<n>.parq`; its files load as keys in them are read), and returns the
 * reference set as a read-only store. Open it with
 * `open` from @zarr/core (Zarr v3 sets) or from @zarr/v2-compat / @zarr/all (Zarr v2 sets,
 * what kerchunk writes).
 *
 * @example
 * ```ts
 * const refs = await openReferences(new FileSystemStore("/data"), "refs.json", {
 *   openTarget: (folder) => openStore(folder, { registry }),
 *   base: "/data",
 * });
 * const array = await open(refs, "temperature");
 * ```
 */
export async function openReferences(source: Store, key: string, options: OpenReferencesOptions): Promise<ReferenceStore> {
  const bytes = await source.get(key, { signal: options.signal });
  if (bytes === undefined) {
    const folder = key.replace(/\/+$/, "");
    if ((await source.getSize?.(`${folder}/.zmetadata`, { signal: options.signal })) !== undefined || (await source.get(`${folder}/.zmetadata`)) !== undefined) {
      const { parquetReferenceSource } = await import("./parquet.js");
      return new ReferenceStore(await parquetReferenceSource(source, folder, { signal: options.signal }), options);
    }
    throw new ZarrError("NODE_NOT_FOUND", `No reference document "${key}" (nor a Parquet reference set with ${folder}/.zmetadata)`, { key });
  }
  // Read from the bytes in place: the document is never held as text or as JSON values.
  const table = parseReferenceBytes(bytes, { ...options, where: key });
  return new ReferenceStore(tableSource(table), options);
}
