/**
 * Reading a `.zattrs` for a node's entry. The whole document is the attributes: a big one
 * (see `UNPARSED_ATTRIBUTES_MIN_BYTES`) is checked as JSON and kept as text, parsed when
 * the attributes are first read, and only what the v3 model of an array reads from them
 * (`_ARRAY_DIMENSIONS`, its dimension names) is parsed now.
 */
import { decodeJsonBytes, type JsonValue, parseJson, parseJsonBytes, scanJson, unparsedAttributesThreshold } from "@zarr/spec";

/** The attribute the v3 model reads: xarray's dimension names. */
const DIMENSIONS = "_ARRAY_DIMENSIONS";

/** A `.zattrs` document as an entry reads it. */
export interface ZattrsDocument {
  /** The document; of a big one, only the attribute the v3 model reads (`_ARRAY_DIMENSIONS`), if it has it. */
  value: JsonValue;
  /** The whole text of a big document, to be kept unparsed (`keepAttributesUnparsed`). */
  text?: string;
}

/** The `.zattrs` document `bytes` (at `key`): parsed, or, from the threshold's size on, checked and kept as text. */
export function zattrsDocument(bytes: Uint8Array, key: string): ZattrsDocument {
  if (bytes.length < unparsedAttributesThreshold.bytes) return { value: parseJsonBytes(bytes, key) };
  const text = decodeJsonBytes(bytes, key);
  const span = scanJson(text, DIMENSIONS, key);
  // A document that is not an object is parsed for the usual error (parseAttributesV2).
  if (!/^[ \t\n\r]*\{/.test(text)) return { value: parseJson(text, key) };
  return { value: span === undefined ? {} : { [DIMENSIONS]: parseJson(text.slice(span.start, span.end), key) }, text };
}
