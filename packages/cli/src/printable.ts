/**
 * Text from a store (node names, attributes, keys in error messages) printed on a
 * terminal: control characters in it could move the cursor, rewrite earlier output or
 * send commands to the terminal (ESC sequences). Every line the CLI prints from such text
 * goes through {@link printable}.
 */

/**
 * C0 controls, DEL, C1 controls (U+0080–U+009F, which some terminals act on), the Unicode
 * line and paragraph separators, and the bidirectional overrides and isolates that can make
 * text display in a different order than it is stored.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(char: string): string {
  if (Object.hasOwn(NAMED, char)) return NAMED[char];
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every control character written as an escape (`\n`, `\t`, `\x1b`, `\x9b`,
 * `\u202e`); everything else, including other non-ASCII text, is kept as it is.
 *
 * @example
 * ```ts
 * printable("evil\x1b[2Jname\n"); // "evil\\x1b[2Jname\\n"
 * ```
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escapeChar);
}

/** C1 controls and separators that JSON leaves raw (JSON.stringify escapes only C0). */
const JSON_RAW_CONTROLS = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with the controls JSON leaves raw escaped as `\uXXXX`: the same JSON value,
 * safe on a terminal.
 *
 * @example
 * ```ts
 * printableJson('{"name":"a\u009bb"}'); // '{"name":"a\\u009bb"}'
 * ```
 */
export function printableJson(json: string): string {
  return json.replace(JSON_RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
