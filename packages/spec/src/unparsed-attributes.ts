/**
 * Attributes kept as JSON text until someone uses them. Parsing a document of millions of
 * attribute keys builds about 150 bytes of heap a key, ~9× the document; opening, listing
 * and reading such a node need none of it. Big documents (see
 * `UNPARSED_ATTRIBUTES_MIN_BYTES`) are checked with `scanJson` instead, and their
 * metadata's `attributes` becomes a property that parses the kept text on first access.
 */
import { parseJson } from "./json.js";

/** The kept text of each object whose `attributes` have not been parsed yet. */
const kept = new WeakMap<object, string>();

/** Makes `target.attributes` the plain `value`, forgetting the kept text. */
function settle(target: object, value: unknown): void {
  kept.delete(target);
  Object.defineProperty(target, "attributes", { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Makes `target.attributes` (of metadata, or of anything that carries a node's attributes
 * on) the JSON object `text` holds, parsed with `parseJson` (exact 64-bit integers) on
 * first access, when it becomes a plain property; until then {@link unparsedAttributes}
 * gives the text. `text` must be a JSON object already checked (`scanJson`); `key` names
 * the document should parsing fail after all (a text longer than a string may be, for
 * one). Assigning `attributes` replaces the text unparsed.
 *
 * @example
 * ```ts
 * const meta = parseGroupMetadata({ zarr_format: 3, node_type: "group" });
 * keepAttributesUnparsed(meta, '{"title": "climate"}');
 * unparsedAttributes(meta); // '{"title": "climate"}'
 * meta.attributes.title;    // "climate" (parsed now)
 * unparsedAttributes(meta); // undefined
 * ```
 */
export function keepAttributesUnparsed(target: object, text: string, key?: string): void {
  kept.set(target, text);
  Object.defineProperty(target, "attributes", {
    get() {
      const value = parseJson(text, key);
      settle(target, value);
      return value;
    },
    set(value) {
      settle(target, value);
    },
    enumerable: true,
    configurable: true,
  });
}

/**
 * The JSON text of `metadata.attributes` (or of any object's given to
 * {@link keepAttributesUnparsed}) while it is kept unparsed (see
 * {@link keepAttributesUnparsed}), else undefined. Reading the text does not parse it:
 * printers can stream it, and copies of metadata can carry it on unparsed.
 *
 * @example
 * ```ts
 * const text = unparsedAttributes(node.metadata);
 * if (text !== undefined) console.log(`${text.length} characters of attributes, not parsed`);
 * ```
 */
export function unparsedAttributes(metadata: object): string | undefined {
  return kept.get(metadata);
}
