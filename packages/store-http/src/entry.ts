/** The registry entry that opens http: and https: URLs as an HttpStore. */
import type { StoreEntry, StoreOpenOptions } from "@zarr/spec";
import { HttpStore } from "./http-store.js";
import type { HttpStoreOptions } from "./options.js";

// The StoreOpenOptions settings handed on to HttpStore (validated by its constructor).
const PASSED_ON = [
  "headers",
  "fetch",
  "requestInit",
  "timeout",
  "idleTimeout",
  "retries",
  "retryDelay",
  "maxRetryDelay",
  "missingStatuses",
  "maxMetadataBytes",
  "maxValueBytes",
] as const satisfies readonly (keyof HttpStoreOptions)[];

/**
 * Serves the `http` and `https` schemes in `openStore` (from @zarr/core). The store is
 * read-only unless `readOnly: false` is passed; the settings `headers`, `fetch`,
 * `requestInit`, `timeout`, `idleTimeout`, `retries`, `retryDelay`, `maxRetryDelay`,
 * `missingStatuses`, `maxMetadataBytes` and `maxValueBytes` are passed on to `HttpStore`.
 *
 * @example
 * ```ts
 * import { createRegistry, openStore } from "@zarr/core";
 * const store = await openStore("https://example.com/data.zarr", {
 *   registry: createRegistry([httpStoreEntry]),
 *   headers: { authorization: "Bearer …" },
 * });
 * ```
 */
export const httpStoreEntry: StoreEntry = {
  type: "store",
  name: "http",
  schemes: ["http", "https"],
  package: "@zarr/store-http",
  open(url: string, options: StoreOpenOptions): HttpStore {
    const settings: Record<string, unknown> = { readOnly: options.readOnly !== false };
    for (const name of PASSED_ON) if (options[name] !== undefined) settings[name] = options[name];
    return new HttpStore(url, settings as HttpStoreOptions);
  },
};
