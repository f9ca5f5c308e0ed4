/**
 * The `chunkKeyEncoding` option of `createArray`, in either form a user may write: the
 * short one (`{ name: "v2", separator: "/" }`) or the metadata one, as it appears in
 * `zarr.json` (`{ name: "v2", configuration: { separator: "/" } }`). Anything else is an
 * `INVALID_ARGUMENT` naming the option, never silently replaced by the default.
 */
import { ZarrError } from "@zarr/spec";

/** A chunk key encoding as `createArray` takes it. */
export type ChunkKeyEncodingInput =
  | { name: "default" | "v2"; separator?: "/" | "." }
  | { name: "default" | "v2"; configuration?: { separator?: "/" | "." } };

/** The encoding, normalised to the short form. */
export interface ChunkKeyEncodingChoice {
  name: "default" | "v2";
  separator?: "/" | ".";
}

const fail = (what: string): never => {
  throw new ZarrError("INVALID_ARGUMENT", `options.chunkKeyEncoding ${what}`);
};

/**
 * Normalises a `chunkKeyEncoding` option (either form) to `{ name, separator? }`.
 *
 * @example
 * ```ts
 * chunkKeyEncodingOption({ name: "default", configuration: { separator: "." } }); // { name: "default", separator: "." }
 * ```
 */
export function chunkKeyEncodingOption(input: unknown): ChunkKeyEncodingChoice | undefined {
  if (input === undefined) return undefined;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return fail(`must be an object like { name: "default", separator: "/" }, not ${JSON.stringify(input)}`);
  const { name, separator, configuration, ...rest } = input as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) fail(`has unknown field(s) ${extra.map((k) => JSON.stringify(k)).join(", ")} (it takes name and separator, or name and configuration)`);
  if (name !== "default" && name !== "v2") fail(`.name must be "default" or "v2", not ${JSON.stringify(name)}`);
  if (separator !== undefined && configuration !== undefined) fail("gives both separator and configuration: use one form");
  let sep = separator;
  if (configuration !== undefined) {
    if (typeof configuration !== "object" || configuration === null || Array.isArray(configuration)) fail(".configuration must be an object");
    const { separator: s, ...others } = configuration as Record<string, unknown>;
    const unknown = Object.keys(others);
    if (unknown.length > 0) fail(`.configuration has unknown field(s) ${unknown.map((k) => JSON.stringify(k)).join(", ")}`);
    sep = s;
  }
  if (sep !== undefined && sep !== "/" && sep !== ".") fail(`separator must be "/" or ".", not ${JSON.stringify(sep)}`);
  return sep === undefined ? { name: name as "default" | "v2" } : { name: name as "default" | "v2", separator: sep as "/" | "." };
}
