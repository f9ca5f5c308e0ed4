/**
 * Float helpers by bit width (16, 32 or 64), for code that has a width rather than a
 * {@link FloatFormat}: rounding, hex spelling, and fill values in metadata.
 */
import type { JsonPath, JsonValue } from "@zarr/spec";
import { FLOAT16 } from "./float16-bits.js";
import { FLOAT32, FLOAT64, type FloatFormat, floatFillToJson, parseFloatFill } from "./numeric-parts.js";

/** The format of a float width. */
export function floatFormat(bits: 16 | 32 | 64): FloatFormat {
  return bits === 16 ? FLOAT16 : bits === 32 ? FLOAT32 : FLOAT64;
}

/** Rounds `x` to the nearest value of the float type (`bits` 16, 32 or 64). */
export function roundToFloat(x: number, bits: 16 | 32 | 64): number {
  return floatFormat(bits).round(x);
}

/** The raw bits of `x` as the float type, as lowercase hex digits (4, 8 or 16). */
export function floatToHex(x: number, bits: 16 | 32 | 64): string {
  return floatFormat(bits).toHex(x);
}

/** The number whose raw bits, as the float type, are the given hex digits (already validated). */
export function floatFromHex(hex: string, bits: 16 | 32 | 64): number {
  return floatFormat(bits).fromHex(hex);
}

/**
 * Parses a float fill value: a JSON number (rounded to the nearest value of the type),
 * `"NaN"`, `"Infinity"`, `"-Infinity"`, or `"0x…"` with exactly `bits / 4` hex digits
 * holding the raw bits (the only way to carry a NaN payload, a signalling NaN or a
 * negative NaN). Throws a `MetadataError` at `path` otherwise.
 *
 * @example
 * ```ts
 * parseFloatFillValue("0x7e00", 16, ["fill_value"]) // NaN
 * parseFloatFillValue(0.1, 32, ["fill_value"])      // 0.10000000149011612
 * ```
 */
export function parseFloatFillValue(json: JsonValue, bits: 16 | 32 | 64, path: JsonPath): number {
  return parseFloatFill(json, floatFormat(bits), path);
}

/**
 * The metadata form of a float fill value, as zarr-python 3 writes it: a number,
 * `"NaN"` (the canonical quiet NaN), `"Infinity"`, `"-Infinity"`; and `"0x…"` hex for
 * what a JSON number or `"NaN"` cannot say exactly (other NaNs, and -0, which JSON
 * writers print as 0).
 */
export function floatFillValueToJson(value: number, bits: 16 | 32 | 64): JsonValue {
  return floatFillToJson(value, floatFormat(bits));
}
