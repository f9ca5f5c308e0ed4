/**
 * Conditional writes (`S3Store.setIfVersion`): a PutObject with `If-Match: <ETag>`, or
 * `If-None-Match: *` for an object that must not exist yet. S3 checks and writes in one
 * step and answers 412 Precondition Failed (or 409 ConditionalRequestConflict while another
 * conditional write of the key is in flight) when the condition does not hold.
 */
import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { storeChanged, type ZarrError } from "@zarr/spec";
import { awsHttpStatus, storeError } from "./aws-errors.js";

/** Where and what to put. */
export interface ConditionalPut {
  client: S3Client;
  bucket: string;
  /** The object key (the store's prefix included). */
  objectKey: string;
  /** The store key, for errors. */
  key: string;
  value: Uint8Array;
  contentType: string;
  /** The ETag the object must still have, or `null`: it must not exist. */
  expected: string | null;
  /** Where the object is, for error messages. */
  where: string;
  signal: AbortSignal | undefined;
}

/** Statuses meaning "the condition failed": nothing was written. */
const CONDITION_FAILED = new Set([412, 409]);

/** Puts the value if the condition holds; rejects with `STORE_CHANGED` if not. */
export async function putIfVersion(put: ConditionalPut): Promise<void> {
  const { client, bucket, objectKey, key, value, expected, signal } = put;
  try {
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: objectKey,
        Body: value,
        ContentLength: value.byteLength,
        ContentType: put.contentType,
        ...(expected === null ? { IfNoneMatch: "*" } : { IfMatch: expected }),
      }),
      { abortSignal: signal },
    );
  } catch (error) {
    const status = awsHttpStatus(error);
    if (status !== undefined && CONDITION_FAILED.has(status)) throw changed(key, expected);
    throw storeError(error, `Failed to write key ${JSON.stringify(key)} conditionally to ${put.where}`, key, signal);
  }
}

function changed(key: string, expected: string | null): ZarrError {
  return storeChanged(key, expected ?? "(absent)");
}
