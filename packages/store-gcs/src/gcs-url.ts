/** Parsing `gs://bucket/prefix?endpoint=…&anonymous=true` store URLs. */
import { ZarrError } from "@zarr/spec";

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

function parseBoolean(url: string, name: string, value: string): boolean {
  if (value === "" || value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  return invalid(url, `${name} must be true or false, not ${JSON.stringify(value)}`);
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
  const m = /^gs:\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?$/i.exec(url);
  if (m === null) return invalid(url, "expected gs://bucket/prefix");
  const [, bucket, path, query] = m;
  if (bucket === "") invalid(url, "no bucket");
  let prefix: string;
  try {
    prefix = decodeURIComponent(path).replace(/^\/+/, "");
  } catch {
    return invalid(url, "bad percent-encoding in the path");
  }
  const parsed: ParsedGcsUrl = { bucket, prefix };
  for (const [name, value] of new URLSearchParams(query ?? "")) {
    if (name === "endpoint") parsed.endpoint = value;
    else if (name === "anonymous" || name === "forbiddenAsMissing") parsed[name] = parseBoolean(url, name, value);
    else invalid(url, `unknown option ${JSON.stringify(name)} (known: endpoint, anonymous, forbiddenAsMissing)`);
  }
  return parsed;
}
