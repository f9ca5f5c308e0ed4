/** The registry entry that opens `reference+<url>` locations as a ReferenceStore. */
import { type StoreEntry, ZarrError } from "@zarr/spec";
import { openReferences } from "./open-references.js";
import { splitTarget } from "./targets.js";

/**
 * Serves `reference+file`, `reference+http`, `reference+https`, `reference+s3`,
 * `reference+gs` and `reference+az` in `openStore` (from @zarr/core): the URL after
 * `reference+` names a kerchunk JSON document; it and every target it points into are
 * opened through the registry (`options.openInner`), targets relative to the document's
 * folder. `reference://<path>` is the same as `reference+file://<path>`.
 *
 * @example
 * ```ts
 * const registry = createRegistry([fileStoreEntry, referenceStoreEntry]);
 * const store = await openStore("reference+file:///data/refs.json", { registry });
 * ```
 */
export const referenceStoreEntry: StoreEntry = {
  type: "store",
  name: "reference",
  schemes: ["reference", "reference+file", "reference+http", "reference+https", "reference+s3", "reference+gs", "reference+az"],
  package: "@zarr/store-references",
  async open(url, options) {
    const openInner = options.openInner;
    if (typeof openInner !== "function") {
      throw new ZarrError("INVALID_ARGUMENT", `Opening ${JSON.stringify(url)} needs options.openInner (use openStore from @zarr/core)`);
    }
    const inner = url.startsWith("reference://") ? url.slice("reference://".length) : url.slice("reference+".length);
    const document = inner.startsWith("file://") ? decodeURIComponent(new URL(inner).pathname) : inner;
    const { folder, key } = splitTarget(document);
    return openReferences(await openInner(folder), key, { openTarget: openInner, base: folder, signal: options.signal });
  },
};
