/** Parsing `gs://bucket/prefix?endpoint=…&anonymous=true` store URLs. */
import { queryFlag, splitBucketUrl, ZarrError } from "@zarr/spec";

/** What a `gs://` URL says: the bucket, the prefix and the settings in its query. */
export interface ParsedGcsUrl {
  bucket: string;
  prefix: string;
  endpoint?: string;
  anonymous?: boolean;
  forbiddenAsMissing?: boolean;
}

function invalid(url: string, why: string): never {
  throw new ZarrError("INVALID_ARGUMENT", `Invalid GCS URL ${JSON.stringify(url)}: ${why}`);
}

/**
 * Parses `gs://bucket/some/prefix?endpoint=http://127.0.0.1:4443&anonymous=true&forbiddenAsMissing=true`.
 * The path is percent-decoded; an unknown query name is an error (a typo must not send
 * requests to Google instead of a local server). Credentials never go in the URL.
 *
 * @example
 * ```ts
 * parseGcsUrl("gs://public-data/era5.zarr?anonymous=true");
 * // { bucket: "public-data", prefix: "era5.zarr", anonymous: true }
 * ```
 */
export function parseGcsUrl(url: string): ParsedGcsUrl {
  const { bucket, prefix, query } = splitBucketUrl(url, "gs", (why) => invalid(url, why));
  const parsed: ParsedGcsUrl = { bucket, prefix };
  for (const [name, value] of query) {
    if (name === "endpoint") parsed.endpoint = value;
    else if (name === "anonymous" || name === "forbiddenAsMissing") parsed[name] = queryFlag(name, value, (why) => invalid(url, why));
    else invalid(url, `unknown option ${JSON.stringify(name)} (known: endpoint, anonymous, forbiddenAsMissing)`);
  }
  return parsed;
}
