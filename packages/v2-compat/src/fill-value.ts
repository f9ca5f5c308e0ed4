/**
 * Zarr v2 `fill_value` encodings and their Zarr v3 forms. v2 writes floats as numbers or
 * `"NaN"`/`"Infinity"`/`"-Infinity"`, complex as `[re, im]`, datetimes as int64 counts,
 * `S`/`V`/structured values as base64 of their bytes, `U` as a string, object arrays as any
 * JSON value, and `null` for "no fill value" (read here as the type's zero).
 */

import { decodeBase64, encodeBase64, StructDataType } from "@zarr/core/extensions";
import {
  type DataType,
  describeJson,
  type JsonPath,
  type JsonValue,
  MetadataError,
  type Scalar,
  type StructValue,
} from "@zarr/spec";
import type { Dtype } from "./dtype.js";
import { byteOrderOf } from "./dtype.js";

const utf8 = new TextEncoder();

/**
 * Reverses the byte order of every component of the packed record of `type` at `offset`
 * of `bytes` (big- to little-endian or back), field by field, nested structs included.
 */
function swapRecord(type: StructDataType, bytes: Uint8Array, offset: number): void {
  for (const f of type.fields) {
    const start = offset + f.offset;
    const dt = f.dataType;
    if (dt instanceof StructDataType) {
      for (let k = 0; k < f.count; k++) swapRecord(dt, bytes, start + k * (dt.byteSize as number));
      continue;
    }
    const unit = dt.componentSize;
    if (unit <= 1) continue;
    for (let at = start; at + unit <= start + f.byteSize; at += unit) bytes.subarray(at, at + unit).reverse();
  }
}

/** The zero of a data type, in metadata form. */
export function zeroFillJson(dataType: DataType): JsonValue {
  return dataType.fillValueToJson(dataType.getItem(dataType.allocate(1), 0));
}

/**
 * The v3 metadata form of a v2 `fill_value` for an array of `dtype` read as `dataType`.
 * Throws a `MetadataError` at `path` for a value that does not fit.
 */
export function v2FillToV3(fill: JsonValue, dtype: Dtype, dataType: DataType, path: JsonPath): JsonValue {
  // A struct's zero is `{}` (missing fields are zero): materialising it would build one
  // JavaScript slot per sub-array element before anything has checked its size.
  if (fill === null) return dataType instanceof StructDataType ? {} : zeroFillJson(dataType);
  switch (dataType.kind) {
    case "bool":
      return typeof fill === "number" ? fill !== 0 : fill;
    case "struct": {
      if (typeof fill !== "string") return fill;
      const bytes = decodeBase64(fill);
      if (bytes === undefined || bytes.length !== dataType.byteSize) {
        throw new MetadataError(path, `expected base64 of ${dataType.byteSize} bytes for a structured fill value, got ${describeJson(fill)}`);
      }
      // v3 reads base64 as the little-endian packed record: swap a big-endian one in place
      // of decoding it (which would materialise every sub-array element).
      if (byteOrderOf(dtype) === ">" && dataType instanceof StructDataType) swapRecord(dataType, bytes, 0);
      return encodeBase64(bytes);
    }
    case "string":
      // zarr-python 2 writes 0 (or "0") for str arrays created with the default fill value
      return typeof fill === "number" || typeof fill === "bigint" || typeof fill === "boolean" ? String(fill) : fill;
    case "raw":
      return fixedBytesFill(fill, dataType.byteSize ?? 0, true);
    case "bytes":
      if (dataType.byteSize !== undefined) return fixedBytesFill(fill, dataType.byteSize, false); // S<n>
      // vlen-bytes: v2 does not say how; a string is taken as its UTF-8 bytes, anything else as empty
      return typeof fill === "string" ? encodeBase64(utf8.encode(fill)) : "";
    case "object":
      return fill;
    default:
      return fill;
  }
}

/**
 * A fill value of `S<n>`/`V<n>` in v3 form (base64 of the bytes). v2 says base64; text
 * that is not base64 (some writers put the characters themselves) is taken as Latin-1
 * bytes. `V` needs exactly `n` bytes, so shorter values are padded with NULs.
 */
function fixedBytesFill(fill: JsonValue, size: number, exact: boolean): JsonValue {
  if (typeof fill !== "string") return fill;
  let bytes = decodeBase64(fill);
  if (bytes === undefined || bytes.length > size) {
    bytes = new Uint8Array(fill.length);
    for (let i = 0; i < fill.length; i++) bytes[i] = fill.charCodeAt(i) & 0xff;
  }
  if (exact && bytes.length < size) {
    const padded = new Uint8Array(size);
    padded.set(bytes);
    bytes = padded;
  }
  return encodeBase64(bytes);
}

function floatToV2(x: number): JsonValue {
  if (Number.isNaN(x)) return "NaN";
  if (x === Number.POSITIVE_INFINITY) return "Infinity";
  if (x === Number.NEGATIVE_INFINITY) return "-Infinity";
  return x;
}

/**
 * The v2 `fill_value` for a fill value `value` of an array of `dataType` stored in
 * `dtype` (byte order matters for structured values, which v2 writes as base64).
 */
export function v3FillToV2(value: Scalar, dataType: DataType, dtype: Dtype): JsonValue {
  switch (dataType.kind) {
    case "float":
      return floatToV2(value as number);
    case "complex": {
      const [re, im] = value as readonly [number, number];
      return [floatToV2(re), floatToV2(im)];
    }
    case "raw":
      return encodeBase64(value as Uint8Array);
    case "bytes":
      if (dataType.byteSize !== undefined) return encodeBase64(value as Uint8Array);
      return (value as Uint8Array).length === 0 ? null : encodeBase64(value as Uint8Array);
    case "struct": {
      const toBytes = dataType.toBytes as NonNullable<DataType["toBytes"]>;
      return encodeBase64(toBytes.call(dataType, [value as StructValue], byteOrderOf(dtype) !== ">"));
    }
    default:
      return dataType.fillValueToJson(value);
  }
}
