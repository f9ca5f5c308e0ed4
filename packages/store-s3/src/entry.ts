/** The registry entry that opens `s3://` URLs as an S3Store. */
import { type StoreEntry, type StoreOpenOptions, storeSettings } from "@zarr/spec";
import { S3Store, type S3StoreOptions } from "./s3-store.js";
import { parseS3Url } from "./s3-url.js";

type Setting =
  | "client"
  | "credentials"
  | "region"
  | "endpoint"
  | "forcePathStyle"
  | "anonymous"
  | "forbiddenAsMissing"
  | "maxAttempts"
  | "clientConfig"
  | "maxMetadataBytes"
  | "maxValueBytes";

const EXPECTED: Record<Setting, string> = {
  client: "object",
  credentials: "object|function",
  region: "string",
  endpoint: "string",
  forcePathStyle: "boolean",
  anonymous: "boolean",
  forbiddenAsMissing: "boolean",
  maxAttempts: "number",
  clientConfig: "object",
  maxMetadataBytes: "number",
  maxValueBytes: "number",
};

/** The S3 settings in `openStore`'s options bag, type-checked (it is untyped). */
function settingsFrom(options: StoreOpenOptions): Partial<S3StoreOptions> {
  return storeSettings(options, EXPECTED, "S3") as Partial<S3StoreOptions>;
}

/**
 * Serves the `s3` scheme in `openStore` (from @zarr/core):
 * `s3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=true&anonymous=true`.
 * Settings in the options (`client`, `credentials`, `region`, `endpoint`,
 * `forcePathStyle`, `anonymous`, `forbiddenAsMissing`, `maxAttempts`, `clientConfig`,
 * `maxMetadataBytes`, `maxValueBytes`, `readOnly`) override the URL's; with `client` the URL's client settings are dropped.
 *
 * @example
 * ```ts
 * import { createRegistry, openStore } from "@zarr/core";
 * const store = await openStore("s3://my-bucket/data.zarr?region=eu-west-1", {
 *   registry: createRegistry([s3StoreEntry]),
 * });
 * ```
 */
export const s3StoreEntry: StoreEntry = {
  type: "store",
  name: "s3",
  schemes: ["s3"],
  package: "@zarr/store-s3",
  open(url, options) {
    const { bucket, prefix, ...fromUrl } = parseS3Url(url);
    const settings = settingsFrom(options);
    const { forbiddenAsMissing, ...clientFromUrl } = fromUrl;
    const base = settings.client !== undefined ? { forbiddenAsMissing } : { forbiddenAsMissing, ...clientFromUrl };
    return new S3Store({ ...base, ...settings, bucket, prefix, readOnly: options.readOnly === true });
  },
};
