/**
 * @zarr/store-s3: a Zarr store on Amazon S3 and S3-compatible servers (MinIO, R2, Ceph,
 * s3rver), on the AWS SDK v3 (`@aws-sdk/client-s3`). Depends on @zarr/spec and the SDK.
 */
export { DEFAULT_MAX_VALUE_BYTES, S3Store, type S3StoreOptions } from "./s3-store.js";
export { type S3ClientSettings, buildS3Client } from "./client.js";
export { s3StoreEntry } from "./entry.js";
export { parseS3Url, type ParsedS3Url } from "./s3-url.js";
