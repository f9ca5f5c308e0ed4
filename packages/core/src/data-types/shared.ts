/** Pieces the built-in data types share: error helpers, configuration checks, 64-bit integer JSON. */
import { describeJson, type JsonObject, type JsonPath, type JsonValue, MetadataError, ZarrError } from "@zarr/spec";

export { CORE_PACKAGE } from "../up-front.js";

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

/** Throws a `MetadataError` when a data type without configuration got one with fields. */
export function expectNoConfiguration(name: string, configuration: JsonObject, path: JsonPath): void {
  for (const key of Object.keys(configuration)) {
    throw new MetadataError([...path, "configuration", key], `the data type ${name} takes no configuration`);
  }
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
