/**
 * What the object-store adapters (S3, Google Cloud Storage, ...) share when `openStore`
 * hands them a URL and an options bag: splitting `scheme://bucket/prefix?query`, reading
 * boolean query flags, and type-checking the untyped settings.
 */
import { ZarrError } from "./errors.js";
import type { StoreOpenOptions } from "./store.js";

/**
 * `scheme://bucket/some/prefix?query`: the bucket, the percent-decoded prefix (without
 * leading `/`) and the query. `fail(why)` reports what is wrong (it throws).
 *
 * @example
 * ```ts
 * const { bucket, prefix, query } = splitBucketUrl("s3://data/climate%20x.zarr?region=eu", "s3", fail);
 * // "data", "climate x.zarr", URLSearchParams { region: "eu" }
 * ```
 */
export function splitBucketUrl(url: string, scheme: string, fail: (why: string) => never): { bucket: string; prefix: string; query: URLSearchParams } {
  const m = new RegExp(`^${scheme}://([^/?#]*)([^?#]*)(?:\\?([^#]*))?(?:#.*)?$`, "i").exec(url);
  if (m === null) return fail(`expected ${scheme}://bucket/prefix`);
  const [, bucket, path, query] = m;
  if (bucket === "") fail("no bucket");
  let prefix: string;
  try {
    prefix = decodeURIComponent(path).replace(/^\/+/, "");
  } catch {
    return fail("bad percent-encoding in the path");
  }
  return { bucket, prefix, query: new URLSearchParams(query ?? "") };
}

/**
 * A boolean query flag: `""`, `"true"` and `"1"` are true, `"false"` and `"0"` false;
 * anything else is reported through `fail`.
 *
 * @example
 * ```ts
 * queryFlag("anonymous", "1", fail); // true
 * ```
 */
export function queryFlag(name: string, value: string, fail: (why: string) => never): boolean {
  if (value === "" || value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  return fail(`${name} must be true or false, not ${JSON.stringify(value)}`);
}

/**
 * The settings named in `expected` taken from `openStore`'s (untyped) options bag, each
 * checked to be of one of the `typeof`s listed (`"string|function"`; `"null"` for null):
 * `INVALID_ARGUMENT` naming the setting and `store` otherwise. Settings not given are left out.
 *
 * @example
 * ```ts
 * storeSettings({ region: "eu-west-1" }, { region: "string", anonymous: "boolean" }, "S3"); // { region: "eu-west-1" }
 * ```
 */
export function storeSettings(options: StoreOpenOptions, expected: Readonly<Record<string, string>>, store: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, types] of Object.entries(expected)) {
    const value = options[name];
    if (value === undefined) continue;
    const type = value === null ? "null" : typeof value;
    if (!types.split("|").includes(type)) {
      throw new ZarrError("INVALID_ARGUMENT", `${store} store option "${name}" must be ${types.replace("|", " or ")}, not ${type}`);
    }
    out[name] = value;
  }
  return out;
}
