/** Human-readable pieces shared by `info` and `tree`. */
import type { JsonObject, JsonValue } from "@zarr/spec";
import { compactJson } from "./json-text.js";

/** A data type as text: its name, then its configuration as JSON when it has one. */
export function dataTypeText(dt: { name: string; configuration: JsonObject }): string {
  return Object.keys(dt.configuration).length === 0 ? dt.name : `${dt.name} ${compactJson(dt.configuration)}`;
}

/** A shape as `[10, 20]`. */
export function shapeText(shape: readonly JsonValue[]): string {
  return `[${shape.join(", ")}]`;
}

/** A byte count with a binary-prefixed approximation: `1536 bytes (1.5 KiB)`. */
export function bytesText(n: number): string {
  const units = ["KiB", "MiB", "GiB", "TiB", "PiB"];
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u < 0 ? `${n} bytes` : `${n} bytes (${v.toFixed(1)} ${units[u]})`;
}
