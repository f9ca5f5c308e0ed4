/** Human-readable pieces shared by `info` and `tree`. */
import type { JsonObject, JsonValue } from "@zarr/spec";
import { compactJson } from "./json-text.js";

/**
 * The data type @zarr/v2-compat gives a Zarr v2 array that has no Zarr v3 model (its
 * `UNREADABLE_V2_DATA_TYPE`; spelled out here so that `info` and `tree` need not load
 * that package): shown as the v2 dtype it holds.
 */
export const UNREADABLE_V2_DATA_TYPE = "zarr-v2.unreadable";

/** A data type as text: its name, then its configuration as JSON when it has one. */
export function dataTypeText(dt: { name: string; configuration: JsonObject }): string {
  if (dt.name === UNREADABLE_V2_DATA_TYPE) return `${compactJson(dt.configuration.dtype ?? null)} (NumPy dtype, not readable)`;
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
