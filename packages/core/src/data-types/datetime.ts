/**
 * `numpy.datetime64` and `numpy.timedelta64` (aliases `datetime64`, `timedelta64`):
 * int64 counts of `scale_factor × unit` since the Unix epoch (datetime) or as a
 * duration (timedelta). `NaT` ("not a time") is -2^63. Storage: `BigInt64Array`.
 */
import { describeJson, type ExtensionObject, type JsonObject, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";
import { expectOnlyFields, requireIntegerField } from "./config-fields.js";
import { BigIntDataType } from "./integer.js";
import { cannotHold, jsonIntegerToBigInt } from "./numeric-parts.js";

/** The value NumPy uses for "not a time": the smallest int64. */
export const NAT = -(2n ** 63n);

/** Units NumPy accepts ("us" and "μs" are the same; "generic" is unitless). */
export const TIME_UNITS: readonly string[] = [
  "Y",
  "M",
  "W",
  "D",
  "h",
  "m",
  "s",
  "ms",
  "us",
  "μs",
  "ns",
  "ps",
  "fs",
  "as",
  "generic",
];

/** A NumPy time data type. */
export class TimeDataType extends BigIntDataType<BigInt64Array> {
  override readonly configuration: { readonly unit: string; readonly scale_factor: number };

  constructor(
    name: string,
    kind: "datetime" | "timedelta",
    readonly unit: string,
    readonly scaleFactor: number,
  ) {
    super(name, BigInt64Array, true, kind);
    this.configuration = { unit, scale_factor: scaleFactor };
  }

  /** bigints and integer numbers in the int64 range, or `"NaT"`. */
  override coerce(value: unknown): bigint {
    if (value === "NaT") return NAT;
    if (typeof value === "bigint" || typeof value === "number") return super.coerce(value);
    throw cannotHold(this.name, value, 'expected an integer (number or bigint) or "NaT"');
  }

  /** An integer in the int64 range, or `"NaT"`. */
  override parseFillValue(json: JsonValue, path: JsonPath): bigint {
    if (json === "NaT") return NAT;
    const n = jsonIntegerToBigInt(json);
    if (n === undefined || n < this.min || n > this.max) {
      throw new MetadataError(
        path,
        `expected an integer from ${this.min} to ${this.max} or "NaT" for a ${this.name} fill value, got ${describeJson(json)}`,
      );
    }
    return n;
  }

  // fillValueToJson: the integer (NaT as -9223372036854775808), as zarr-python writes it.

  override toJSON(): string | ExtensionObject {
    return { name: this.name, configuration: { unit: this.unit, scale_factor: this.scaleFactor } };
  }
}

/** Validates a time type configuration and builds the type. */
export function timeDataTypeFromConfig(
  name: string,
  kind: "datetime" | "timedelta",
  configuration: JsonObject,
  path: JsonPath,
): TimeDataType {
  expectOnlyFields(name, configuration, ["unit", "scale_factor"], path);
  const unit = configuration.unit;
  if (typeof unit !== "string" || !TIME_UNITS.includes(unit)) {
    throw new MetadataError(
      [...path, "configuration", "unit"],
      `expected one of ${TIME_UNITS.map((u) => `"${u}"`).join(", ")}, got ${describeJson(unit)}`,
    );
  }
  const scaleFactor = requireIntegerField(configuration, "scale_factor", 1, 2 ** 31 - 1, path);
  return new TimeDataType(name, kind, unit, scaleFactor);
}
