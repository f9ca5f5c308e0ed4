/** Where store keys live in the bucket: every key is `prefix + key`. */
import { validatePrefix, ZarrError } from "@zarr/spec";

/**
 * Normalises a store prefix inside the bucket: no leading `/`, one trailing `/` unless
 * empty (`"a/b"` and `"/a/b/"` → `"a/b/"`). Throws `KEY_INVALID` for empty, `.` or `..`
 * segments, backslashes and NUL bytes.
 */
export function normalizeBucketPrefix(prefix: string | undefined): string {
  if (prefix === undefined) return "";
  if (typeof prefix !== "string") throw new ZarrError("INVALID_ARGUMENT", "The S3 prefix must be a string");
  const trimmed = prefix.replace(/^\/+/, "").replace(/\/+$/, "");
  if (trimmed === "") return "";
  const normalized = `${trimmed}/`;
  validatePrefix(normalized);
  return normalized;
}

/** Checks a bucket name: non-empty printable ASCII without spaces or `/` (ARNs may hold `/`). */
export function checkBucket(bucket: unknown): string {
  // Access point ARNs (`arn:aws:s3:...:accesspoint/name`) are valid `Bucket` values, so only
  // what can never work is refused here; S3 itself judges the rest.
  if (typeof bucket !== "string" || !/^[\x21-\x7e]+$/.test(bucket)) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid S3 bucket name ${JSON.stringify(bucket)}`);
  }
  if (bucket.includes("/") && !bucket.startsWith("arn:")) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid S3 bucket name ${JSON.stringify(bucket)}: contains "/"`);
  }
  return bucket;
}
