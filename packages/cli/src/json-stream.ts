/**
 * `zarr get --format json` for arrays of any size: the canonical JSON of a `get` result
 * (core's `toCanonicalJson`, compact) written in pieces, so the text never has to exist
 * as one string (V8 caps strings at ~512 MiB, and the list of values alone would take
 * several times the array's memory).
 */
import { type ArrayData, scalarToCanonicalJson } from "@zarr/core";
import { type JsonValue, shapeSize, ZarrError } from "@zarr/spec";
import { compactJson } from "./json-text.js";

/** Characters gathered before a piece is handed to the writer. */
export const JSON_PIECE_CHARS = 1 << 20;

/** One value as compact JSON; numbers and strings without going through `compactJson`. */
function valueText(v: JsonValue): string {
  if (typeof v === "number" && Number.isFinite(v)) return Object.is(v, -0) ? "-0.0" : JSON.stringify(v);
  if (typeof v === "string") return JSON.stringify(v);
  return compactJson(v);
}

/**
 * Writes `result` as one line of compact canonical JSON, `{"shape", "data_type",
 * "values"}` and a newline (the same text as `compactJson(toCanonicalJson(result))`),
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
  let piece = `{"shape":${compactJson(shape.slice())},"data_type":${compactJson(dataType.toJSON() as JsonValue)},"values":[`;
  for (let i = 0; i < n; i++) {
    if (i > 0) piece += ",";
    piece += valueText(scalarToCanonicalJson(dataType.getItem(data, offset + i), dataType));
    if (piece.length >= pieceChars) {
      await write(piece);
      piece = "";
    }
  }
  await write(`${piece}]}\n`);
}
