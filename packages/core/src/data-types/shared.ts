/** Pieces every built-in data type shares: metadata form, error helpers, configuration checks. */
import {
  describeJson,
  type ExtensionObject,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
  ZarrError,
} from "@zarr/spec";

/** The npm package that provides the built-in data types (named in registry errors). */
export const CORE_PACKAGE = "@zarr/core";

/** Describes a user-supplied value briefly for error messages. */
export function describeValue(value: unknown): string {
  if (value instanceof Uint8Array) return `a Uint8Array of length ${value.length}`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  return describeJson(value);
}

/** The `INVALID_ARGUMENT` error for a value a data type cannot hold. */
export function cannotHold(typeName: string, value: unknown, why: string): ZarrError {
  return new ZarrError("INVALID_ARGUMENT", `Cannot store ${describeValue(value)} in a ${typeName} array: ${why}`);
}

/** The metadata form of a data type: its bare name when it has no configuration. */
export function dataTypeToJSON(name: string, configuration: JsonObject): string | ExtensionObject {
  if (Object.keys(configuration).length === 0) return name;
  return { name, configuration: { ...configuration } };
}

/** Throws a `MetadataError` when a data type without configuration got one with fields. */
export function expectNoConfiguration(name: string, configuration: JsonObject, path: JsonPath): void {
  for (const key of Object.keys(configuration)) {
    throw new MetadataError([...path, "configuration", key], `the data type ${name} takes no configuration`);
  }
}

/** Throws a `MetadataError` for fields of a configuration that are not in `allowed`. */
export function expectOnlyFields(
  name: string,
  configuration: JsonObject,
  allowed: readonly string[],
  path: JsonPath,
): void {
  for (const key of Object.keys(configuration)) {
    if (!allowed.includes(key)) {
      throw new MetadataError(
        [...path, "configuration", key],
        `unknown field for the data type ${name} (expected only ${allowed.map((k) => `"${k}"`).join(", ")})`,
      );
    }
  }
}

/** Reads a required integer field of a configuration in `[min, max]`. */
export function requireIntegerField(
  configuration: JsonObject,
  field: string,
  min: number,
  max: number,
  path: JsonPath,
): number {
  const where = [...path, "configuration", field];
  if (!(field in configuration)) throw new MetadataError(where, "this field is required");
  const v = configuration[field];
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw new MetadataError(where, `expected an integer from ${min} to ${max}, got ${describeJson(v)}`);
  }
  return v;
}

/** Converts a JSON integer (number or bigint) to a bigint, or undefined when it is not an integer. */
export function jsonIntegerToBigInt(json: JsonValue): bigint | undefined {
  if (typeof json === "bigint") return json;
  if (typeof json === "number" && Number.isInteger(json)) return BigInt(json);
  return undefined;
}

/** The JSON form of a 64-bit integer: a number when exact as one, else a bigint. */
export function bigIntToJson(value: bigint): JsonValue {
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}

/**
 * A `[re, im]` pair whose elements keep their exact bits. Array literals of doubles
 * quiet signalling NaNs in V8; an array that starts out holding non-numbers keeps
 * each number as it is.
 */
export function exactPair(re: number, im: number): readonly [number, number] {
  const pair: unknown[] = [undefined, undefined];
  pair[0] = re;
  pair[1] = im;
  return pair as unknown as readonly [number, number];
}
