/** The one place a `MetadataError` raised without its document's key gets it. */
import { MetadataError } from "@zarr/spec";

/**
 * `error` with the document `key` when it is a `MetadataError` that names no document
 * (parts such as data types and codecs validate configurations without knowing where
 * they come from); any other error as it is.
 */
export function withDocumentKey(error: unknown, key: string | undefined): unknown {
  return error instanceof MetadataError && error.key === undefined && key !== undefined
    ? new MetadataError(error.path, error.problem, { key, cause: error })
    : error;
}
