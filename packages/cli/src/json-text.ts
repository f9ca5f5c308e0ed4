/** Compact JSON text for command output. */
import { type JsonValue, ZarrError } from "@zarr/spec";

/**
 * Serialises `value` as compact JSON. Unlike `JSON.stringify` it writes `bigint`s as
 * exact integers and keeps the sign of negative zero (`-0.0`), so a float's canonical
 * value survives the trip through text.
 */
export function compactJson(value: JsonValue): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join("");
}

function write(v: JsonValue, out: string[]): void {
  if (v === null) {
    out.push("null");
    return;
  }
  switch (typeof v) {
    case "number":
      if (!Number.isFinite(v)) throw new ZarrError("INVALID_ARGUMENT", `Cannot write the non-finite number ${v} as JSON`);
      out.push(Object.is(v, -0) ? "-0.0" : JSON.stringify(v));
      return;
    case "bigint":
      out.push(v.toString());
      return;
    case "string":
    case "boolean":
      out.push(JSON.stringify(v));
      return;
  }
  if (Array.isArray(v)) {
    out.push("[");
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(",");
      write(v[i], out);
    }
    out.push("]");
    return;
  }
  out.push("{");
  let first = true;
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    if (!first) out.push(",");
    first = false;
    out.push(JSON.stringify(k), ":");
    write(x, out);
  }
  out.push("}");
}
