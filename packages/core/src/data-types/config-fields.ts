/** Checks of data type configurations with fields (the parametrised, lazily loaded types). */
import { describeJson, type JsonObject, type JsonPath, MetadataError } from "@zarr/spec";

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
