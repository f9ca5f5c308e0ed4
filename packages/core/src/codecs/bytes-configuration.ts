/**
 * The error for a `bytes` codec configuration that does not fit its data type. Loaded
 * only when one has a problem.
 */
import type { DataType, JsonObject, JsonPath } from "@zarr/spec";
import { describeJson, MetadataError } from "../up-front.js";

/**
 * The first problem of `configuration` (at `path`) for chunks of `dataType`: an unknown
 * field, a data type without a fixed size, an `endian` other than `"little"`/`"big"`, or
 * no `endian` for a multi-byte type.
 */
export function configurationError(configuration: JsonObject, dataType: DataType, path: JsonPath): MetadataError {
  for (const k of Object.keys(configuration)) {
    if (k !== "endian") return new MetadataError([...path, "configuration", k], `unknown configuration field "${k}"`);
  }
  if (dataType.byteSize === undefined || dataType.fromBytes === undefined || dataType.toBytes === undefined) {
    const hint = dataType.kind === "string" ? " (use vlen-utf8)" : dataType.kind === "bytes" ? " (use vlen-bytes)" : "";
    return new MetadataError(
      path,
      `the bytes codec needs a fixed-size data type, but "${dataType.name}" has variable-size elements${hint}`,
    );
  }
  const endian = configuration.endian;
  if (endian !== undefined) {
    return new MetadataError([...path, "configuration", "endian"], `expected "little" or "big", got ${describeJson(endian)}`);
  }
  return new MetadataError(
    [...path, "configuration", "endian"],
    `required for the multi-byte data type "${dataType.name}" ("little" or "big")`,
  );
}
