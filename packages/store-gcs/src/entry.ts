/** The registry entry that opens `gs://` URLs as a GcsStore. */
import { type StoreEntry, type StoreOpenOptions, storeSettings } from "@zarr/spec";
import { GcsStore, type GcsStoreOptions } from "./gcs-store.js";
import { parseGcsUrl } from "./gcs-url.js";

// The openStore settings handed on to GcsStore, with the types they must have.
const EXPECTED: Record<string, string> = {
  endpoint: "string",
  hmac: "object",
  token: "string|function",
  anonymous: "boolean",
  forbiddenAsMissing: "boolean",
  retries: "number",
  timeout: "number",
  fetch: "function",
  maxMetadataBytes: "number",
  maxValueBytes: "number",
  env: "object",
};

/** The GCS settings in `openStore`'s options bag, type-checked (it is untyped). */
function settingsFrom(options: StoreOpenOptions): Partial<GcsStoreOptions> {
  return storeSettings(options, EXPECTED, "GCS") as Partial<GcsStoreOptions>;
}

/**
 * Serves the `gs` scheme in `openStore` (from @zarr/core):
 * `gs://bucket/prefix?endpoint=http://127.0.0.1:4443&anonymous=true&forbiddenAsMissing=true`.
 * Settings in the options (`hmac`, `token`, `anonymous`, `endpoint`, `forbiddenAsMissing`,
 * `retries`, `timeout`, `fetch`, `maxMetadataBytes`, `maxValueBytes`, `env`, `readOnly`)
 * override the URL's; credentials come from the options or the environment, never the URL.
 *
 * @example
 * ```ts
 * import { createRegistry, openStore } from "@zarr/core";
 * const store = await openStore("gs://public-data/era5.zarr", { registry: createRegistry([gcsStoreEntry]) });
 * ```
 */
export const gcsStoreEntry: StoreEntry = {
  type: "store",
  name: "gs",
  schemes: ["gs"],
  package: "@zarr/store-gcs",
  open(url, options) {
    const settings = settingsFrom(options);
    const { bucket, prefix, ...fromUrl } = parseGcsUrl(url);
    // A URL's `anonymous` yields to credentials in the options.
    if (settings.hmac !== undefined || settings.token !== undefined) delete fromUrl.anonymous;
    const readOnly = options.readOnly === true ? { readOnly: true } : {};
    return new GcsStore({ ...fromUrl, ...settings, ...readOnly, bucket, prefix });
  },
};
