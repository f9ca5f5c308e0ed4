/**
 * @zarr/store-gcs: a Zarr store on Google Cloud Storage. Public buckets are read
 * anonymously over HTTPS and private ones with an OAuth bearer token (both through
 * @zarr/store-http), or with HMAC keys through GCS's S3-compatible XML API (@zarr/store-s3,
 * loaded only then). Registers the `gs://` URL scheme.
 */
export { gcsStoreEntry } from "./entry.js";
export { GcsStore, type GcsStoreOptions } from "./gcs-store.js";
export { type ParsedGcsUrl, parseGcsUrl } from "./gcs-url.js";
export { type GcsHmacKey, type GcsToken, GOOGLE_ENDPOINT } from "./settings.js";
