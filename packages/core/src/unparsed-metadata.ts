/**
 * Reading a big `zarr.json` (see `UNPARSED_ATTRIBUTES_MIN_BYTES`) without parsing its
 * attributes: the whole text is checked as JSON (`scanJson`), the document with `{}` in
 * place of the attributes goes through the usual parsers, and the metadata keeps the
 * attributes' text, parsed when first read. Loaded by `readNodeMetadata` for such
 * documents only.
 */
import { keepAttributesUnparsed, type NodeMetadata, scanJson } from "@zarr/spec";
import { decodeJsonBytes, parseJson, parsePlainMetadata } from "./up-front.js";

/** Opens the curly brace of a JSON object. */
const OPEN_OBJECT = 0x7b;

/** The metadata of the `zarr.json` document `bytes` (at `key`), its attributes kept unparsed when they are an object. */
export async function parseKeepingAttributes(bytes: Uint8Array, key: string): Promise<NodeMetadata> {
  const text = decodeJsonBytes(bytes, key);
  const span = scanJson(text, "attributes", key);
  // Attributes that are not an object get the usual parsers' error, with its JSON path.
  const kept = span !== undefined && text.charCodeAt(span.start) === OPEN_OBJECT;
  const doc = parseJson(kept ? `${text.slice(0, span.start)}{}${text.slice(span.end)}` : text, key);
  const meta = parsePlainMetadata(doc) ?? (await import("./metadata-documents.js")).parseNodeMetadata(doc, { key });
  if (kept) keepAttributesUnparsed(meta, text.slice(span.start, span.end), key);
  return meta;
}
