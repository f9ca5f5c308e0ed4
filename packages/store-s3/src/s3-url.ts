/** Parsing `s3://bucket/prefix?endpoint=...&region=...` store URLs. */
import { queryFlag, splitBucketUrl, ZarrError } from "@zarr/spec";
import type { S3StoreOptions } from "./s3-store.js";

/** What an `s3://` URL says: the bucket, the prefix and the client settings in its query. */
export type ParsedS3Url = Pick<
  S3StoreOptions,
  "bucket" | "prefix" | "endpoint" | "region" | "forcePathStyle" | "anonymous" | "forbiddenAsMissing" | "maxAttempts"
>;

function invalid(url: string, why: string): never {
  throw new ZarrError("INVALID_ARGUMENT", `Invalid S3 URL ${JSON.stringify(url)}: ${why}`);
}

/**
 * Parses `s3://bucket/some/prefix?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=true&anonymous=true&forbiddenAsMissing=true&maxAttempts=5`.
 * The path is percent-decoded; query names are case-sensitive; an unknown query name is an
 * error (a typo must not silently talk to AWS instead of a local server).
 *
 * @example
 * ```ts
 * parseS3Url("s3://data/climate.zarr?region=eu-west-1");
 * // { bucket: "data", prefix: "climate.zarr", region: "eu-west-1" }
 * ```
 */
export function parseS3Url(url: string): ParsedS3Url {
  const { bucket, prefix, query } = splitBucketUrl(url, "s3", (why) => invalid(url, why));
  const parsed: ParsedS3Url = { bucket, prefix };
  for (const [name, value] of query) {
    switch (name) {
      case "endpoint":
        parsed.endpoint = value;
        break;
      case "region":
        parsed.region = value;
        break;
      case "forcePathStyle":
        parsed.forcePathStyle = queryFlag(name, value, (why) => invalid(url, why));
        break;
      case "anonymous":
        parsed.anonymous = queryFlag(name, value, (why) => invalid(url, why));
        break;
      case "forbiddenAsMissing":
        parsed.forbiddenAsMissing = queryFlag(name, value, (why) => invalid(url, why));
        break;
      case "maxAttempts": {
        const n = Number(value);
        if (!Number.isSafeInteger(n) || n < 1) invalid(url, `maxAttempts must be an integer >= 1, not ${JSON.stringify(value)}`);
        parsed.maxAttempts = n;
        break;
      }
      default:
        invalid(url, `unknown option ${JSON.stringify(name)} (known: endpoint, region, forcePathStyle, anonymous, forbiddenAsMissing, maxAttempts)`);
    }
  }
  return parsed;
}
