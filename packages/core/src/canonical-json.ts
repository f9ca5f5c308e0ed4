/**
 * The canonical JSON form of array values used by the test fixtures and by
 * `zarr get --format json`: `{"shape", "data_type", "values"}`, values flattened in C
 * order; integers (every width) and datetimes as decimal strings; floats as numbers or
 * "NaN"/"Infinity"/"-Infinity"; complex as [re, im]; fixed-size bytes and variable
 * bytes as lowercase hex (fixed ones without trailing NUL bytes); strings as strings.
 */
import { type DataType, isJsonObject, type JsonObject, type JsonValue, type Scalar, ZarrError } from "@zarr/spec";
import type { ArrayData } from "./read.js";

/** What canonical JSON needs of a struct field (see `StructDataType.fields`). */
interface StructFieldLike {
  name: string;
  dataType: DataType;
  shape: readonly number[];
}

function floatJson(x: number): JsonValue {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return x;
}

function hex(bytes: Uint8Array, stripTrailingNul: boolean): string {
  let end = bytes.length;
  if (stripTrailingNul) while (end > 0 && bytes[end - 1] === 0) end--;
  let s = "";
  for (let i = 0; i < end; i++) s += bytes[i].toString(16).padStart(2, "0");
  return s;
}

/** Converts one element to its canonical JSON form. */
export function scalarToCanonicalJson(value: Scalar, dataType: DataType): JsonValue {
  switch (dataType.kind) {
    case "optional": {
      // The inner type's form, or null where the element is missing.
      const inner = (dataType as { inner?: DataType }).inner;
      return value === null || inner === undefined ? null : scalarToCanonicalJson(value, inner);
    }
    case "bool":
      return Boolean(value);
    case "int":
    case "uint":
    case "datetime":
    case "timedelta":
      return String(value);
    case "float":
      return floatJson(value as number);
    case "complex": {
      const [re, im] = value as readonly [number, number];
      return [floatJson(re), floatJson(im)];
    }
    case "raw":
      return hex(value as Uint8Array, true);
    case "bytes":
      return hex(value as Uint8Array, dataType.byteSize !== undefined);
    case "string":
      return (value as string).replace(/\0+$/, "");
    case "struct": {
      // Fields in their own canonical forms; sub-array fields as flat lists (see StructDataType).
      const fields = (dataType as { fields?: readonly StructFieldLike[] }).fields;
      if (!isJsonObject(value) || fields === undefined) return value as JsonValue;
      const out: JsonObject = {};
      for (const f of fields) {
        if (f.name === "") continue;
        const v = (value as Record<string, Scalar>)[f.name];
        out[f.name] = f.shape.length === 0 ? scalarToCanonicalJson(v, f.dataType) : (v as unknown as Scalar[]).map((x) => scalarToCanonicalJson(x, f.dataType));
      }
      return out;
    }
    default:
      return value as JsonValue;
  }
}

/**
 * Converts a `get` result to canonical JSON.
 *
 * @example
 * ```ts
 * const json = toCanonicalJson(await get(arr));
 * // { shape: [4], data_type: "int16", values: ["1", "2", "3", "4"] }
 * ```
 */
export function toCanonicalJson(result: ArrayData): JsonObject {
  const { dataType } = result;
  const n = result.shape.reduce((a, b) => a * b, 1);
  if (result.stride.some((s, d) => result.shape[d] > 1 && s !== result.shape.slice(d + 1).reduce((a, b) => a * b, 1))) {
    throw new ZarrError("INVALID_ARGUMENT", "toCanonicalJson expects a C-contiguous array (as get returns)");
  }
  const values: JsonValue[] = new Array(n);
  for (let i = 0; i < n; i++) values[i] = scalarToCanonicalJson(dataType.getItem(result.data, (result.offset ?? 0) + i), dataType);
  const dt = dataType.toJSON();
  return { shape: result.shape.slice(), data_type: dt as JsonValue, values };
}
