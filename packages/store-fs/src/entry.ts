/** The registry entry that opens `file:` URLs and plain paths as a FileSystemStore. */
import { fileURLToPath } from "node:url";
import type { StoreEntry } from "@zarr/spec";
import { FileSystemStore } from "./file-system-store.js";

/**
 * Serves the `file` scheme in `openStore` (from @zarr/core): `file:///abs/data.zarr` and
 * plain paths (`data.zarr`, `/abs/data.zarr`).
 *
 * @example
 * ```ts
 * import { createRegistry, openStore } from "@zarr/core";
 * const store = await openStore("data.zarr", { registry: createRegistry([fileStoreEntry]) });
 * ```
 */
export const fileStoreEntry: StoreEntry = {
  type: "store",
  name: "file",
  schemes: ["file"],
  package: "@zarr/store-fs",
  open(url, options) {
    const path = url.startsWith("file://") ? fileURLToPath(url) : url;
    return new FileSystemStore(path, { readOnly: options.readOnly === true });
  },
};
