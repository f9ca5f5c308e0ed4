/**
 * `zarr get --format json` for arrays of any size: the canonical JSON of a `get` result
 * (core's `toCanonicalJson`, compact) written in pieces, so the text never has to exist
 * as one string (V8 caps strings at ~512 MiB, and the list of values alone would take
 * several times the array's memory).
 */
import { type ArrayData, scalarToCanonicalJson } from "@zarr/core";
import { type DataType, type JsonValue, shapeSize, ZarrError } from "@zarr/spec";
import { FLOAT16, FLOAT32, type NarrowFloat, shortestFloatText } from "./float-text.js";
import { compactJson } from "./json-text.js";

/** Characters gathered before a piece is handed to the writer. */
export const JSON_PIECE_CHARS = 1 << 20;

/** The narrow float format whose shortest text a data type's numbers print in, if any. */
function narrowFormatOf(dataType: DataType): NarrowFloat | undefined {
  if (dataType.kind === "float") return dataType.byteSize === 4 ? FLOAT32 : dataType.byteSize === 2 ? FLOAT16 : undefined;
  // complex64 holds two float32s.
  if (dataType.kind === "complex") return dataType.byteSize === 8 ? FLOAT32 : undefined;
  return undefined;
}

/** One number as JSON: in `narrow`'s shortest round-trip form when given (NumPy prints float32 `0.06`, not `0.05999999865889549`). */
function numberText(v: number, narrow: NarrowFloat | undefined): string {
  if (narrow !== undefined) return shortestFloatText(v, narrow);
  return Object.is(v, -0) ? "-0.0" : JSON.stringify(v);
}

/** One value as compact JSON; numbers, complex pairs and strings without going through `compactJson`. */
function valueText(v: JsonValue, narrow: NarrowFloat | undefined): string {
  if (typeof v === "number" && Number.isFinite(v)) return numberText(v, narrow);
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v) && narrow !== undefined) return `[${v.map((x) => valueText(x, narrow)).join(",")}]`;
  return compactJson(v);
}

/**
 * Writes `result` as one line of compact canonical JSON, `{"shape", "data_type",
 * "values"}` and a newline (the values of `toCanonicalJson(result)`; float32, complex64
 * and float16 numbers in the shortest text that reads back to the same value in their
 * own precision, as NumPy prints them),
 * handing `write` pieces of about `pieceChars` characters and awaiting each one.
 *
 * @example
 * ```ts
 * await writeCanonicalJson(await get(array), (text) => io.write(text));
 * ```
 */
export async function writeCanonicalJson(
  result: ArrayData,
  write: (text: string) => Promise<void>,
  pieceChars = JSON_PIECE_CHARS,
): Promise<void> {
  const { dataType, data, shape, stride } = result;
  if (stride.some((s, d) => shape[d] > 1 && s !== shapeSize(shape.slice(d + 1)))) {
    throw new ZarrError("INVALID_ARGUMENT", "writeCanonicalJson expects a C-contiguous array (as get returns)");
  }
  const n = shapeSize(shape);
  const offset = result.offset ?? 0;
  const narrow = narrowFormatOf(dataType);
  let piece = `{"shape":${compactJson(shape.slice())},"data_type":${compactJson(dataType.toJSON() as JsonValue)},"values":[`;
  for (let i = 0; i < n; i++) {
    if (i > 0) piece += ",";
    piece += valueText(scalarToCanonicalJson(dataType.getItem(data, offset + i), dataType), narrow);
    if (piece.length >= pieceChars) {
      await write(piece);
      piece = "";
    }
  }
  await write(`${piece}]}\n`);
}
