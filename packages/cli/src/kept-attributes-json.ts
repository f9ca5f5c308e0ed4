/**
 * The JSON text of an object whose `attributes` are kept unparsed (the description `zarr
 * info --json` prints of a node with a big document): its members are written as
 * `jsonTextPieces` writes them, the attributes re-formatted from their text, so printing
 * never parses them.
 */
import {
  JSON_INDENT_DEPTH,
  type JsonObject,
  type JsonTextOptions,
  jsonText,
  jsonTextPieces,
  reformatJsonPieces,
  unparsedAttributes,
} from "@zarr/spec";

/**
 * `value` as `jsonTextPieces(value, options)` writes it, except that attributes it keeps
 * unparsed (`unparsedAttributes(value)`) are written from their text instead of being
 * read. Only `value` itself may keep attributes: its other members are written compact
 * and re-formatted at their level, which gives the same text (they are small).
 *
 * @example
 * ```ts
 * for (const piece of keptAttributesJsonPieces(description, { indent: 2 })) write(piece);
 * ```
 */
export function* keptAttributesJsonPieces(value: JsonObject, options: JsonTextOptions = {}): Generator<string, void, undefined> {
  const attributesText = unparsedAttributes(value);
  if (attributesText === undefined) {
    yield* jsonTextPieces(value, options);
    return;
  }
  const indent = options.indent ?? 0;
  const compact = indent === 0 || (options.indentDepth ?? JSON_INDENT_DEPTH) <= 0;
  const newline = compact ? "" : `\n${" ".repeat(indent)}`;
  let written = 0;
  yield "{";
  for (const key of Object.keys(value)) {
    // Read only when it is not the kept attributes: reading those would parse them.
    const text = key === "attributes" ? attributesText : value[key] === undefined ? undefined : jsonText(value[key], { numberText: options.numberText });
    if (text === undefined) continue;
    yield `${written++ > 0 ? "," : ""}${newline}${JSON.stringify(key)}${compact ? ":" : ": "}`;
    yield* reformatJsonPieces(text, { ...options, level: 1 });
  }
  // Never empty: the attributes are a member.
  yield compact ? "}" : "\n}";
}
