/** Compact JSON text for command output. */
import { type JsonValue, jsonNumberText, jsonText } from "@zarr/spec";

/** A finite number as the CLI writes it: negative zero as `-0.0`, so its sign survives the trip through text. */
export function cliNumberText(n: number): string {
  return Object.is(n, -0) ? "-0.0" : jsonNumberText(n);
}

/**
 * Serialises `value` as compact JSON. Unlike `JSON.stringify` it writes `bigint`s as
 * exact integers, keeps the sign of negative zero (`-0.0`), so a float's canonical
 * value survives the trip through text, and works at any nesting depth (@zarr/spec's
 * `jsonText`, which uses no recursion).
 */
export function compactJson(value: JsonValue): string {
  return jsonText(value, { numberText: cliNumberText });
}
